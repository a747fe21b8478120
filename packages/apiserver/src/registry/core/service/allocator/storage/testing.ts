/**
 * Test support for the persisted bitmaps: the backends to run on (etcd only with
 * SERVICENET_ETCD_ENDPOINTS), a fresh isolated store per test, and a store wrapper that
 * injects write failures.
 */
import type { BackendName, GuaranteedUpdateOptions, KubeObject, Store, TryUpdate, TxnOp, TxnResult } from "../../../../../storage/index.ts";
import { createStore } from "../../../../../storage/index.ts";
import { etcdEndpointsFromEnv, openTestStore, type TestStore } from "../../../../../storage/testing.ts";

let warned = false;

/** memory and sqlite always; etcd when SERVICENET_ETCD_ENDPOINTS is set (warns once otherwise). */
export function rangeBackends(): BackendName[] {
  const etcd = etcdEndpointsFromEnv() !== undefined;
  if (!etcd && !warned) {
    warned = true;
    console.warn("allocator storage: SERVICENET_ETCD_ENDPOINTS is unset, skipping the etcd backend");
  }
  return etcd ? ["memory", "sqlite", "etcd"] : ["memory", "sqlite"];
}

/** Runs `fn` with a fresh store of `backend`, cleaning up afterwards. */
export async function withStore<T>(backend: BackendName, fn: (t: TestStore) => Promise<T>): Promise<T> {
  const t = await openTestStore(backend);
  try {
    return await fn(t);
  } finally {
    await t.cleanup();
  }
}

/** A second Store instance on the same data (another process's view of one sqlite file or etcd). */
export async function reopen(t: TestStore): Promise<Store> {
  return createStore({ ...t.config });
}

/**
 * `store` whose next `failures` writes of `key` fail with `error` instead of writing (a storage
 * outage after the read): guaranteedUpdate calls run tryUpdate first, transactions touching `key`
 * (the allocator's writes on its known revision) fail as sent.
 */
export function failingWrites(store: Store, key: string, error: Error): { store: Store; fail(n: number): void } {
  let failures = 0;
  const guaranteedUpdate = async (k: string, tryUpdate: TryUpdate, opts?: GuaranteedUpdateOptions): Promise<KubeObject> => {
    if (k !== key || failures === 0) return store.guaranteedUpdate(k, tryUpdate, opts);
    failures--;
    const current = (await store.get(k, { ignoreNotFound: true })) ?? { metadata: {} };
    await tryUpdate(structuredClone(current));
    throw error;
  };
  const txn = async (ops: readonly TxnOp[]): Promise<TxnResult> => {
    if (failures === 0 || !ops.some((op) => op.key === key)) return store.txn(ops);
    failures--;
    throw error;
  };
  // A Proxy, not Object.create: the backends keep private fields that need the real `this`.
  const wrapped = new Proxy(store, {
    get(target, prop) {
      if (prop === "guaranteedUpdate") return guaranteedUpdate;
      if (prop === "txn") return txn;
      const v: unknown = Reflect.get(target, prop, target);
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  return { store: wrapped, fail: (n) => (failures = n) };
}

/** `store` counting its calls by method name (reads and writes a caller makes). */
export function countingStore(store: Store): { store: Store; calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const wrapped = new Proxy(store, {
    get(target, prop) {
      const v: unknown = Reflect.get(target, prop, target);
      if (typeof v !== "function") return v;
      return (...a: unknown[]) => {
        calls.set(String(prop), (calls.get(String(prop)) ?? 0) + 1);
        return (v as (...a: unknown[]) => unknown).apply(target, a);
      };
    },
  });
  return { store: wrapped, calls };
}
