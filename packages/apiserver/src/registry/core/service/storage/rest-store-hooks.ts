/**
 * The two storage-level facts ServiceREST needs and the generic store does not report:
 * "this update's write happened" (so a later failure in the same call, e.g. the delete after the
 * last finalizer was removed, commits instead of reverting an allocation that is now stored) and
 * "this Service was really deleted" (upstream AfterDelete, on every path that deletes: DELETE,
 * deleteCollection, and an update or status update removing the last finalizer).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { KubeObject, Store } from "../../../../storage/index.ts";

/** Per update call: set once the compare-and-swap write succeeded. */
export interface WriteTracker {
  written: boolean;
}

/** Carries the WriteTracker of the update in progress through the generic store into storage. */
export const writeTrackers = new AsyncLocalStorage<WriteTracker>();

/**
 * Wraps `store`: a successful guaranteedUpdate marks the current WriteTracker written; a
 * successful non-dry-run delete calls `onDeleted` with the deleted object before returning.
 * `onDeleted` must not throw (release failures are logged, as upstream).
 */
export function hookedStore(store: Store, onDeleted: (obj: KubeObject) => Promise<void>): Store {
  return new Proxy(store, {
    get(target, prop, receiver) {
      if (prop === "guaranteedUpdate") {
        const fn: Store["guaranteedUpdate"] = async (key, tryUpdate, opts) => {
          const out = await target.guaranteedUpdate(key, tryUpdate, opts);
          const tracker = writeTrackers.getStore();
          if (tracker) tracker.written = true;
          return out;
        };
        return fn;
      }
      if (prop === "delete") {
        const fn: Store["delete"] = async (key, opts) => {
          const gone = await target.delete(key, opts);
          if (!opts?.dryRun) await onDeleted(gone);
          return gone;
        };
        return fn;
      }
      const v = Reflect.get(target, prop, receiver) as unknown;
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}
