/**
 * pkg/util/pod/pod.go `PatchPodStatus` / `preparePatchBytesForPodStatus`: a Pod's status written
 * as the strategic merge patch between the status it was read with and the new one
 * (`strategicpatch.CreateTwoWayMergePatch` over v1.Pod), carrying `metadata.uid` so the write
 * fails on a Pod recreated under the same name.
 */
import type { PodStatus } from "@servicenet/api";

type Json = unknown;
type JsonMap = Record<string, Json>;

/** The `patchMergeKey` of v1.PodStatus's merge lists (types.go struct tags); other lists are replaced whole. */
const podStatusMergeKeys: Readonly<Record<string, string>> = {
  conditions: "type",
  podIPs: "ip",
  hostIPs: "ip",
  resourceClaimStatuses: "name",
};

const isMap = (v: Json): v is JsonMap => typeof v === "object" && v !== null && !Array.isArray(v);
const equal = (a: Json, b: Json): boolean => JSON.stringify(a) === JSON.stringify(b);

// CreateTwoWayMergeMap: changed and added fields, deleted ones as null; maps recurse.
function diffMaps(original: JsonMap, modified: JsonMap, mergeKeys: Readonly<Record<string, string>> = {}): JsonMap {
  const patch: JsonMap = {};
  for (const [k, m] of Object.entries(modified)) {
    const o = original[k];
    if (equal(o, m)) continue;
    const mergeKey = mergeKeys[k];
    if (mergeKey !== undefined && Array.isArray(m) && Array.isArray(o)) Object.assign(patch, diffMergeList(k, o, m, mergeKey));
    else if (isMap(o) && isMap(m)) patch[k] = diffMaps(o, m);
    else patch[k] = m;
  }
  for (const k of Object.keys(original)) if (!(k in modified)) patch[k] = null;
  return patch;
}

// diffListsOfMaps: added elements whole, changed ones as their diff with the merge key, removed
// ones as `$patch: delete`, and `$setElementOrder/<field>` giving the new order.
function diffMergeList(field: string, original: Json[], modified: Json[], mergeKey: string): JsonMap {
  const keyOf = (e: Json) => (isMap(e) ? e[mergeKey] : undefined);
  const byKey = new Map(original.filter(isMap).map((e) => [keyOf(e), e]));
  const present = new Set(modified.map(keyOf));
  const list: Json[] = [];
  for (const m of modified.filter(isMap)) {
    const o = byKey.get(keyOf(m));
    if (o === undefined) list.push(m);
    else if (!equal(o, m)) list.push({ [mergeKey]: keyOf(m), ...diffMaps(o, m) });
  }
  for (const o of original) if (!present.has(keyOf(o))) list.push({ $patch: "delete", [mergeKey]: keyOf(o) });
  const reordered = !equal(
    original.map(keyOf).filter((k) => present.has(k)),
    modified.map(keyOf).filter((k) => byKey.has(k)),
  );
  if (list.length === 0 && !reordered) return {};
  return {
    [`$setElementOrder/${field}`]: modified.map((m) => ({ [mergeKey]: keyOf(m) })),
    ...(list.length > 0 ? { [field]: list } : {}),
  };
}

/**
 * `preparePatchBytesForPodStatus`: the patch, and whether the status is unchanged (the patch
 * holds nothing but the uid).
 */
export function podStatusPatch(uid: string, oldStatus: PodStatus, newStatus: PodStatus): { patch: JsonMap; unchanged: boolean } {
  const status = diffMaps(oldStatus, newStatus, podStatusMergeKeys);
  const unchanged = Object.keys(status).length === 0;
  return { patch: { metadata: { uid }, ...(unchanged ? {} : { status }) }, unchanged };
}
