/**
 * A view of a Store whose NotFound / AlreadyExists / Conflict errors name a real GroupResource
 * (`servicecidrs.networking.k8s.io "x" not found`) instead of the resource guessed from the key.
 */
import type { GroupResource } from "@servicenet/api/errors";
import { StorageError } from "./errors.ts";
import type { Store } from "./interfaces.ts";

/** Wraps `store` so that its key errors are reported for `gr`. */
export function withGroupResource(store: Store, gr: GroupResource): Store {
  const relabel = (e: unknown): never => {
    throw e instanceof StorageError ? e.relabel(gr) : e;
  };
  return {
    backend: store.backend,
    create: (key, obj, opts) => store.create(key, obj, opts).catch(relabel),
    get: ((key: string, opts?: Parameters<Store["get"]>[1]) => store.get(key, opts).catch(relabel)) as Store["get"],
    delete: (key, opts) => store.delete(key, opts).catch(relabel),
    guaranteedUpdate: (key, fn, opts) => store.guaranteedUpdate(key, fn, opts).catch(relabel),
    list: (prefix, opts) => store.list(prefix, opts),
    count: (prefix) => store.count(prefix),
    watch: (key, opts) => store.watch(key, opts),
    txn: (ops) => store.txn(ops).catch(relabel),
    currentRevision: () => store.currentRevision(),
    compactedRevision: () => store.compactedRevision(),
    compact: (rev) => store.compact(rev),
    close: () => store.close(),
  };
}
