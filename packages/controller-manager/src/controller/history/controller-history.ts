/**
 * ControllerRevision history (pkg/controller/history/controller_history.go): revision names and
 * hashes, equality, ordering, and the writes a controller makes to its history.
 *
 * Deliberate difference: upstream hashes and compares the revision's raw bytes as this process
 * marshalled them. Here the set arrives through informers whose LIST and WATCH JSON may differ in
 * empty values (`creationTimestamp: null`, `resources: {}`), so hash and equality use the data's
 * canonical JSON (keys sorted, empty values dropped, as compute-hash.ts's pod-template-hash):
 * the same template always gives the same revision name. Names therefore differ from
 * kube-controller-manager's, which nothing relies on (revisions are found by their data and owner).
 */
import type { ControllerRevision, OwnerReference } from "@servicenet/api";
import { canonicalJSON, safeEncodeString } from "../compute-hash.ts";

/** `ControllerRevisionHashLabel` (apps/v1 ControllerRevisionHashLabelKey). */
export const controllerRevisionHashLabel = "controller-revision-hash";

const fnvOffset32 = 0x811c9dc5;
const fnvPrime32 = 0x01000193;

/** hash/fnv `New32`: FNV-1 (multiply, then xor) over `bytes`, continuing from `h`. */
export function fnv32(bytes: Uint8Array, h = fnvOffset32): number {
  let x = h;
  for (const b of bytes) x = (Math.imul(x, fnvPrime32) ^ b) >>> 0;
  return x >>> 0;
}

/** Go's json.Marshal of a value decoded into `interface{}`: map keys sorted, `<`, `>`, `&`, U+2028 and U+2029 escaped. */
export function goJSON(v: unknown): string {
  return JSON.stringify(sortKeys(v)).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v === null || typeof v !== "object") return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v).sort()) out[k] = sortKeys((v as Record<string, unknown>)[k]);
  return out;
}

/**
 * `HashControllerRevision`: FNV-1 over the revision's data (its canonical JSON, see above), then
 * the probe (the collision count) in decimal, printed in decimal and SafeEncodeString'd.
 */
export function hashControllerRevision(raw: string, probe?: number): string {
  let h = fnv32(Buffer.from(raw, "utf8"));
  if (probe !== undefined) h = fnv32(Buffer.from(String(probe), "utf8"), h);
  return safeEncodeString(String(h));
}

/** `ControllerRevisionName`: `<prefix>-<hash>`, the prefix cut to 223 characters. */
export function controllerRevisionName(prefix: string, hash: string): string {
  return `${prefix.length > 223 ? prefix.slice(0, 223) : prefix}-${hash}`;
}

/**
 * `NewControllerRevision`: a revision of `parent` holding `data` (the raw patch), labelled with the
 * template's labels and its hash, owned by the parent, named after its hash.
 */
export function newControllerRevision(
  parent: { metadata: { name?: string; namespace?: string } },
  controllerRef: OwnerReference,
  templateLabels: Readonly<Record<string, string>>,
  data: string,
  revision: number,
  collisionCount: number | undefined,
): ControllerRevision {
  const hash = hashControllerRevision(canonicalJSON(JSON.parse(data)), collisionCount);
  return {
    metadata: {
      name: controllerRevisionName(parent.metadata.name ?? "", hash),
      namespace: parent.metadata.namespace ?? "",
      labels: { ...templateLabels, [controllerRevisionHashLabel]: hash },
      ownerReferences: [controllerRef],
    },
    data: JSON.parse(data) as unknown,
    revision,
  };
}

/** What a revision's data is hashed and compared as: its canonical JSON. */
export function revisionRaw(cr: ControllerRevision): string {
  return canonicalJSON(cr.data ?? null);
}

/** `EqualRevision`: same hash label (when both have one) and the same data. */
export function equalRevision(a: ControllerRevision | undefined, b: ControllerRevision | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  const ha = a.metadata.labels?.[controllerRevisionHashLabel];
  const hb = b.metadata.labels?.[controllerRevisionHashLabel];
  if (ha !== undefined && hb !== undefined && ha !== hb) return false;
  return revisionRaw(a) === revisionRaw(b);
}

/** `FindEqualRevisions`: the revisions equal to `needle`. */
export function findEqualRevisions(revisions: readonly ControllerRevision[], needle: ControllerRevision): ControllerRevision[] {
  const hash = needle.metadata.labels?.[controllerRevisionHashLabel];
  return revisions.filter(
    (r) => (hash === undefined || r.metadata.labels?.[controllerRevisionHashLabel] === hash) && equalRevision(r, needle),
  );
}

/** `SortControllerRevisions` (byRevision): by revision, then creation time, then name. */
export function sortControllerRevisions(revisions: ControllerRevision[]): ControllerRevision[] {
  return revisions.sort((a, b) => {
    if (a.revision !== b.revision) return a.revision - b.revision;
    const ta = String(a.metadata.creationTimestamp ?? "");
    const tb = String(b.metadata.creationTimestamp ?? "");
    if (ta !== tb) return ta < tb ? -1 : 1;
    return (a.metadata.name ?? "") < (b.metadata.name ?? "") ? -1 : 1;
  });
}

/** `NextRevision`: one more than the last (sorted) revision, or 1. */
export function nextRevision(revisions: readonly ControllerRevision[]): number {
  const n = revisions.length;
  return n === 0 ? 1 : revisions[n - 1]!.revision + 1;
}

/**
 * The revision data of a StatefulSet's or DaemonSet's template (their `getPatch`): a patch that
 * replaces `spec.template`, as Go marshals it (sorted keys).
 */
export function templatePatch(template: unknown): string {
  return goJSON({ spec: { template: { ...(structuredClone(template) as Record<string, unknown>), $patch: "replace" } } });
}

/** The writes of a controller's history (the realHistory's client calls). */
export interface HistoryClient {
  create(namespace: string, revision: ControllerRevision): Promise<ControllerRevision>;
  get(namespace: string, name: string): Promise<ControllerRevision>;
  updateRevision(revision: ControllerRevision, newRevision: number): Promise<ControllerRevision>;
  delete(namespace: string, name: string): Promise<void>;
}
