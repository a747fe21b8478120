/**
 * Pieces of pkg/controller/controller_utils.go the ReplicaSet and Deployment controllers build on:
 * `ActivePodsWithRanks.Less`, the order in which a ReplicaSet deletes Pods when it scales down.
 */
import type { Pod } from "@servicenet/api";
import { isPodReady } from "../util/endpoint/pod.ts";

/** The feature gates the ranking reads (both beta and on by default in 1.33). */
export interface RankingGates {
  podDeletionCost: boolean;
  logarithmicScaleDown: boolean;
}

export const defaultRankingGates: RankingGates = { podDeletionCost: true, logarithmicScaleDown: true };

/** `core.PodDeletionCost`, the annotation that orders Pods of equal standing for deletion. */
export const podDeletionCostAnnotation = "controller.kubernetes.io/pod-deletion-cost";

const podPhaseToOrdinal: Readonly<Record<string, number>> = { Pending: 0, Unknown: 1, Running: 2 };
const int32 = /^[+-]?\d+$/;

/** `GetDeletionCostFromPodAnnotations`, an unparsable or out-of-int32 value counting as 0 (its error ignored). */
export function deletionCost(pod: Pod): number {
  const v = pod.metadata.annotations?.[podDeletionCostAnnotation];
  if (v === undefined || !int32.test(v)) return 0;
  const n = Number(v);
  return n < -(2 ** 31) || n > 2 ** 31 - 1 ? 0 : n;
}

/** The Ready condition's lastTransitionTime in ms, or undefined (Go's zero time). */
function podReadyTime(pod: Pod): number | undefined {
  const c = pod.status?.conditions?.find((x) => x.type === "Ready" && x.status === "True");
  return c?.lastTransitionTime !== undefined ? Date.parse(c.lastTransitionTime) : undefined;
}

/** `afterOrZero`: a zero time first, else the later time first. */
function afterOrZero(t1: number | undefined, t2: number | undefined): boolean {
  if (t1 === undefined || t2 === undefined) return t1 === undefined;
  return t1 > t2;
}

/** `logarithmicRankDiff`: the difference of floor(log2(age in ns)) of two times, -1 for no age. */
function logarithmicRankDiff(t1: number, t2: number, now: number): number {
  const rank = (t: number) => {
    const d = (now - t) * 1e6;
    return d > 0 ? Math.floor(Math.log2(d)) : -1;
  };
  return rank(t1) - rank(t2);
}

/** `maxContainerRestarts`: the highest restart count of regular containers, and of sidecars. */
function maxContainerRestarts(pod: Pod): [number, number] {
  const regular = Math.max(0, ...(pod.status?.containerStatuses ?? []).map((c) => c.restartCount ?? 0));
  const spec = pod.spec as { initContainers?: { name: string; restartPolicy?: string }[] };
  const sidecars = new Set((spec.initContainers ?? []).filter((c) => c.restartPolicy === "Always").map((c) => c.name));
  const init = (
    (pod.status as { initContainerStatuses?: { name?: string; restartCount?: number }[] } | undefined)?.initContainerStatuses ?? []
  )
    .filter((c) => sidecars.has(c.name ?? ""))
    .map((c) => c.restartCount ?? 0);
  return [regular, Math.max(0, ...init)];
}

/** A time or undefined from a creationTimestamp. */
const created = (pod: Pod): number | undefined =>
  pod.metadata.creationTimestamp !== undefined && pod.metadata.creationTimestamp !== null
    ? Date.parse(pod.metadata.creationTimestamp)
    : undefined;

/** Compares two times by `LogarithmicScaleDown` rules, or plain `afterOrZero`; undefined when equal rank decides nothing. */
function compareTimes(
  a: Pod,
  b: Pod,
  t1: number | undefined,
  t2: number | undefined,
  now: number | undefined,
  gates: RankingGates,
): boolean {
  if (!gates.logarithmicScaleDown || now === undefined || t1 === undefined || t2 === undefined) return afterOrZero(t1, t2);
  const diff = logarithmicRankDiff(t1, t2, now);
  if (diff === 0) return (a.metadata.uid ?? "") < (b.metadata.uid ?? "");
  return diff < 0;
}

/**
 * `ActivePodsWithRanks.Less`: true when Pod `i` should be deleted before Pod `j`. Unassigned before
 * assigned; Pending < Unknown < Running; not ready before ready; lower deletion cost first; more
 * doubled-up (higher rank) first; ready for less time first (in log2 buckets with
 * LogarithmicScaleDown); more restarts first; newer first.
 */
export function activePodsLess(
  pi: Pod,
  ri: number,
  pj: Pod,
  rj: number,
  now: number | undefined,
  gates: RankingGates = defaultRankingGates,
): boolean {
  const ni = pi.spec.nodeName ?? "";
  const nj = pj.spec.nodeName ?? "";
  if (ni !== nj && (ni === "" || nj === "")) return ni === "";
  const oi = podPhaseToOrdinal[pi.status?.phase ?? ""] ?? 0;
  const oj = podPhaseToOrdinal[pj.status?.phase ?? ""] ?? 0;
  if (oi !== oj) return oi < oj;
  if (isPodReady(pi) !== isPodReady(pj)) return !isPodReady(pi);
  if (gates.podDeletionCost && deletionCost(pi) !== deletionCost(pj)) return deletionCost(pi) < deletionCost(pj);
  if (ri !== rj) return ri > rj;
  if (isPodReady(pi) && isPodReady(pj)) {
    const t1 = podReadyTime(pi);
    const t2 = podReadyTime(pj);
    if (t1 !== t2) return compareTimes(pi, pj, t1, t2, now, gates);
  }
  const [ri1, si1] = maxContainerRestarts(pi);
  const [ri2, si2] = maxContainerRestarts(pj);
  if (ri1 !== ri2) return ri1 > ri2;
  if (si1 !== si2) return si1 > si2;
  const c1 = created(pi);
  const c2 = created(pj);
  if (c1 !== c2) return compareTimes(pi, pj, c1, c2, now, gates);
  return false;
}

/**
 * The Pods to delete first, `getPodsToDelete`'s order: sorted by `activePodsLess` with each
 * Pod's rank (how many related Pods share its node), the first `count` returned.
 */
export function podsToDelete(pods: readonly Pod[], ranks: readonly number[], count: number, now?: number, gates?: RankingGates): Pod[] {
  const idx = pods.map((_, i) => i);
  idx.sort((a, b) => {
    if (activePodsLess(pods[a]!, ranks[a]!, pods[b]!, ranks[b]!, now, gates)) return -1;
    if (activePodsLess(pods[b]!, ranks[b]!, pods[a]!, ranks[a]!, now, gates)) return 1;
    return 0;
  });
  return idx.slice(0, count).map((i) => pods[i]!);
}

/** `IsPodActive`: not Succeeded, not Failed, not being deleted. */
export function isPodActive(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase !== "Succeeded" && phase !== "Failed" && pod.metadata.deletionTimestamp === undefined;
}

/** `getPodsRankedByRelatedPodsOnSameNode`: each Pod's rank is the number of active `related` Pods on its node. */
export function ranksByRelatedPodsOnSameNode(pods: readonly Pod[], related: readonly Pod[]): number[] {
  const perNode = new Map<string, number>();
  for (const p of related) {
    if (!isPodActive(p)) continue;
    const n = p.spec.nodeName ?? "";
    perNode.set(n, (perNode.get(n) ?? 0) + 1);
  }
  return pods.map((p) => perNode.get(p.spec.nodeName ?? "") ?? 0);
}
