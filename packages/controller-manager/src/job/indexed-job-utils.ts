/**
 * Indexed Jobs' completion indexes (pkg/controller/job/indexed_job_utils.go): the index a Pod
 * carries, the compressed `status.completedIndexes` text ("1,3-5,7"), and the indexes still to run.
 */
import { jobCompletionIndexAnnotation, type Pod } from "@servicenet/api";

/** `getCompletionIndex`: the Pod's index from its annotation (then label), or undefined. */
export function getCompletionIndex(pod: Pod): number | undefined {
  const v = pod.metadata.annotations?.[jobCompletionIndexAnnotation] ?? pod.metadata.labels?.[jobCompletionIndexAnnotation];
  if (v === undefined || !/^\d+$/.test(v)) return undefined;
  return Number(v);
}

/** `orderedIntervals.String`: sorted indexes, runs of three or more as `a-b`. */
export function formatIndexes(indexes: Iterable<number>): string {
  const sorted = [...new Set(indexes)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    const first = sorted[i]!;
    const last = sorted[j]!;
    if (j === i) parts.push(String(first));
    else if (j === i + 1) parts.push(`${first},${last}`);
    else parts.push(`${first}-${last}`);
    i = j + 1;
  }
  return parts.join(",");
}

/** `parseIndexesFromString`: the indexes of a completedIndexes text below `completions` (bad parts skipped). */
export function parseIndexes(text: string | undefined, completions: number): Set<number> {
  const out = new Set<number>();
  for (const part of (text ?? "").split(",")) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (m === null) continue;
    const lo = Number(m[1]);
    const hi = m[2] === undefined ? lo : Number(m[2]);
    for (let i = lo; i <= hi && i < completions; i++) out.add(i);
  }
  return out;
}

/** `firstPendingIndexes`: the first `count` indexes neither completed nor held by an active Pod. */
export function firstPendingIndexes(active: readonly Pod[], completed: ReadonlySet<number>, count: number, completions: number): number[] {
  const taken = new Set(active.map(getCompletionIndex).filter((i): i is number => i !== undefined));
  const out: number[] = [];
  for (let i = 0; i < completions && out.length < count; i++) if (!completed.has(i) && !taken.has(i)) out.push(i);
  return out;
}
