/**
 * Snapshot and restore of everything an apiserver stores, for test environments: the state after
 * bootstrap (namespaces, the kubernetes Service and its IPAddress, the default ServiceCIDR, the
 * RangeAllocations) is recorded once, and `restore` brings the store back to it in one
 * transaction per batch: user objects are deleted, changed bootstrap objects put back. Writing
 * the RangeAllocations back releases every ClusterIP and NodePort handed out since, exactly as
 * upstream's allocator storage would see a release (pkg/registry/core/service/allocator/storage).
 */
import type { KubeObject, Store, TxnOp } from "../storage/index.ts";
import { objectKey, resourcePrefix } from "../storage/index.ts";
import { secondaryServiceIPsKey, serviceIPsKey, serviceNodePortsKey } from "../registry/core/service/allocator/storage/keys.ts";

/** Keys outside the resource table that bootstrap writes (the allocators' RangeAllocations). */
const rangeKeys = [serviceIPsKey, secondaryServiceIPsKey, serviceNodePortsKey] as const;

/** etcd's default `--max-txn-ops` is 128: stay below it. */
const maxOpsPerTxn = 100;

/** Key -> stored object (with its resourceVersion). */
export type StoreSnapshot = ReadonlyMap<string, KubeObject>;

/** Reads every object under the given storage paths (`services/specs`, …) and the range keys. */
export async function snapshotStore(store: Store, storagePaths: Iterable<string>): Promise<StoreSnapshot> {
  const out = new Map<string, KubeObject>();
  await Promise.all(
    [...new Set(storagePaths)].map(async (path) => {
      const res = await store.list(resourcePrefix(path));
      for (const obj of res.items) out.set(objectKey(path, obj.metadata.namespace, obj.metadata.name ?? ""), obj);
    }),
  );
  for (const key of rangeKeys) {
    const obj = await store.get(key, { ignoreNotFound: true });
    if (obj) out.set(key, obj);
  }
  return out;
}

/** The writes that turn `now` back into `then`: deletes, re-creates and updates to the old content. */
export function restoreOps(then: StoreSnapshot, now: StoreSnapshot): TxnOp[] {
  const ops: TxnOp[] = [];
  for (const [key, cur] of now) {
    const old = then.get(key);
    if (!old) ops.push({ type: "delete", key, expectedRevision: cur.metadata.resourceVersion ?? "" });
    else if (old.metadata.resourceVersion !== cur.metadata.resourceVersion) {
      ops.push({
        type: "update",
        key,
        obj: { ...old, metadata: { ...old.metadata, resourceVersion: cur.metadata.resourceVersion ?? "" } },
      });
    }
  }
  for (const [key, old] of then) {
    if (now.has(key)) continue;
    const { resourceVersion: _rv, ...metadata } = old.metadata;
    ops.push({ type: "create", key, obj: { ...old, metadata } });
  }
  return ops;
}

/**
 * Brings the store back to `then`. Returns the snapshot to restore next time: `then` with the
 * resourceVersions the restored objects got, so that an untouched object is not rewritten again.
 */
export async function restoreStore(
  store: Store,
  then: StoreSnapshot,
  storagePaths: Iterable<string>,
): Promise<{ snapshot: StoreSnapshot; writes: number }> {
  const ops = restoreOps(then, await snapshotStore(store, storagePaths));
  const next = new Map(then);
  for (let i = 0; i < ops.length; i += maxOpsPerTxn) {
    const batch = ops.slice(i, i + maxOpsPerTxn);
    const res = await store.txn(batch);
    batch.forEach((op, j) => {
      const obj = res.objects[j];
      if (op.type !== "delete" && obj) next.set(op.key, obj);
    });
  }
  return { snapshot: next, writes: ops.length };
}
