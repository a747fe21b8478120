/**
 * `createStore`: the one way the apiserver opens its storage.
 */
import { StatusError } from "@servicenet/api/errors";
import { startCompactor } from "./compactor.ts";
import { createEtcdEngine } from "./etcd/etcd-engine.ts";
import type { Store, StoreConfig } from "./interfaces.ts";
import type { KVEngine } from "./kv.ts";
import { normalizeEtcdPrefix, withKeyRoot } from "./key-root.ts";
import { registryRoot } from "./keys.ts";
import { KVStore } from "./kv-store.ts";
import { createMemoryEngine } from "./memory/memory-engine.ts";
import { createSqliteEngine } from "./sqlite/sqlite-engine.ts";

/** Opens a store on the configured backend and starts its compaction loop (if configured). */
export async function createStore(cfg: StoreConfig): Promise<Store> {
  const prefix = cfg.prefix ?? "";
  const root = normalizeEtcdPrefix(cfg.etcdPrefix ?? registryRoot);
  const engine = withKeyRoot(await openEngine(cfg), prefix + registryRoot, prefix + root);
  let stop = (): void => {};
  const store = new KVStore(engine, prefix, () => stop());
  if (cfg.compaction) stop = startCompactor(store, cfg.compaction);
  return store;
}

/** The configured backend's engine, without a key root or a store on top (createStore's first step; tests wrap it). */
export async function openEngine(cfg: StoreConfig): Promise<KVEngine> {
  switch (cfg.backend) {
    case "memory":
      return createMemoryEngine();
    case "sqlite":
      return createSqliteEngine({ path: cfg.path ?? ":memory:", pollIntervalMs: cfg.pollIntervalMs ?? 1000 });
    case "etcd": {
      if (!cfg.endpoints || cfg.endpoints.length === 0) throw StatusError.internal("etcd backend needs endpoints");
      return createEtcdEngine({ endpoints: cfg.endpoints });
    }
    default:
      throw StatusError.internal(`unknown storage backend ${JSON.stringify((cfg as { backend: unknown }).backend)}`);
  }
}
