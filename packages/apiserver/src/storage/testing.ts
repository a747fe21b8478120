/**
 * Test support: open a throw-away store on any backend, so that every contract test runs against
 * memory, sqlite and etcd alike (etcd only when SERVICENET_ETCD_ENDPOINTS is set).
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Etcd3, EtcdLockFailedError } from "etcd3";
import type { BackendName, KubeObject, Store, StoreConfig, WatchEvent } from "./interfaces.ts";
import type { KVEngine } from "./kv.ts";
import { createStore, openEngine } from "./storage.ts";

/** etcd endpoints for tests, from SERVICENET_ETCD_ENDPOINTS (comma separated), or undefined. */
export function etcdEndpointsFromEnv(): string[] | undefined {
  const v = process.env["SERVICENET_ETCD_ENDPOINTS"];
  return v
    ? v
        .split(",")
        .map((s) => s.trim())
        .filter((s) => s !== "")
    : undefined;
}

/** The backends a contract suite can run on here; warns once about a skipped etcd. */
export function availableBackends(): { backend: BackendName; available: boolean }[] {
  const etcd = etcdEndpointsFromEnv() !== undefined;
  if (!etcd) console.warn("storage: SERVICENET_ETCD_ENDPOINTS is unset, skipping the etcd backend tests");
  return [
    { backend: "memory", available: true },
    { backend: "sqlite", available: true },
    { backend: "etcd", available: etcd },
  ];
}

export interface TestStore {
  store: Store;
  /** A config that opens the same data again (sqlite file, etcd prefix). */
  config: StoreConfig;
  cleanup(): Promise<void>;
}

/** A fresh, isolated store: its own sqlite file, or its own etcd key prefix. */
export async function openTestStore(backend: BackendName, extra: Partial<StoreConfig> = {}): Promise<TestStore> {
  let dir: string | undefined;
  const config: StoreConfig = { backend, pollIntervalMs: 50, ...extra };
  if (backend === "sqlite") {
    dir = mkdtempSync(join(tmpdir(), "servicenet-storage-"));
    config.path = join(dir, "state.db");
  }
  if (backend === "etcd") {
    config.endpoints = etcdEndpointsFromEnv() ?? [];
    config.prefix = `/servicenet-test/${randomUUID()}`;
  }
  const store = await createStore(config);
  return {
    store,
    config,
    async cleanup() {
      await store.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
      if (backend === "etcd" && config.prefix) await deleteEtcdPrefix(config.endpoints ?? [], config.prefix);
    },
  };
}

export interface TestEngine {
  engine: KVEngine;
  /** The physical key prefix this test owns (a KVStore's `prefix`): "" except on a shared etcd. */
  prefix: string;
  cleanup(): Promise<void>;
}

/** A fresh, isolated engine (no store on top), for tests that wrap or drive the engine itself. */
export async function openTestEngine(backend: BackendName): Promise<TestEngine> {
  let dir: string | undefined;
  const config: StoreConfig = { backend, pollIntervalMs: 50 };
  if (backend === "sqlite") {
    dir = mkdtempSync(join(tmpdir(), "servicenet-storage-"));
    config.path = join(dir, "state.db");
  }
  if (backend === "etcd") config.endpoints = etcdEndpointsFromEnv() ?? [];
  const prefix = backend === "etcd" ? `/servicenet-test/${randomUUID()}` : "";
  const engine = await openEngine(config);
  return {
    engine,
    prefix,
    async cleanup() {
      await engine.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
      if (prefix !== "") await deleteEtcdPrefix(config.endpoints ?? [], prefix);
    },
  };
}

/** Removes a test's keys from a shared etcd. */
async function deleteEtcdPrefix(endpoints: string[], prefix: string): Promise<void> {
  const client = new Etcd3({ hosts: endpoints });
  try {
    await client.delete().prefix(prefix).exec();
  } finally {
    client.close();
  }
}

/** A minimal object for `name`. */
export function testObject(name: string, extra: Record<string, unknown> = {}): KubeObject {
  return { apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace: "default" }, ...extra };
}

/**
 * Reads events until `n` arrived (or throws after `timeoutMs`, a ceiling for a loaded machine that
 * only a failing test reaches), then closes the watch.
 */
export async function collect(watch: AsyncIterable<WatchEvent>, n: number, timeoutMs = 60_000): Promise<WatchEvent[]> {
  const out: WatchEvent[] = [];
  const it = watch[Symbol.asyncIterator]();
  const deadline = Date.now() + timeoutMs;
  try {
    while (out.length < n) {
      const left = deadline - Date.now();
      const res = await Promise.race([it.next(), new Promise<"timeout">((r) => setTimeout(() => r("timeout"), Math.max(left, 0)))]);
      if (res === "timeout") throw new Error(`timed out after ${out.length}/${n} events: ${JSON.stringify(out.map((e) => e.type))}`);
      if (res.done) break;
      out.push(res.value);
    }
  } finally {
    await it.return?.();
  }
  return out;
}

/**
 * A shared etcd has one history for everybody: a test that compacts it would break a concurrently
 * running test (another vitest worker) that reads or watches from an old revision. Tests of either
 * kind hold this cross-process lock (an etcd lock) while they run; other backends need none.
 * Returns the release function.
 */
export async function lockSharedHistory(backend: BackendName): Promise<() => Promise<void>> {
  const endpoints = etcdEndpointsFromEnv();
  if (backend !== "etcd" || !endpoints) return async () => {};
  const client = new Etcd3({ hosts: endpoints });
  const lock = client.lock("/servicenet-test-locks/storage-history").ttl(30);
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      await lock.acquire();
      break;
    } catch (e) {
      if (!(e instanceof EtcdLockFailedError) || Date.now() > deadline) {
        client.close();
        throw e;
      }
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  return async () => {
    await lock.release().catch(() => {});
    client.close();
  };
}
