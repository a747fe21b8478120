/**
 * Compaction on a real etcd while watches are open: by the store's own compactor and by someone
 * else (`etcdctl compact`, another apiserver). The etcd3 npm client's watch manager used to throw
 * `Failed to find watcher for IWatchResponse` from a gRPC 'data' handler after such a watch got
 * its 410, ending the process, and the 410 said "(0)" after an external compaction.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { KubeObject, Store, WatchEvent } from "../interfaces.ts";
import { collect, etcdEndpointsFromEnv, lockSharedHistory, openTestStore, testObject, type TestStore } from "../testing.ts";

vi.setConfig({ testTimeout: 30_000 });

const endpoints = etcdEndpointsFromEnv();
const etcdctl = ["/usr/bin/etcdctl", "/usr/local/bin/etcdctl"].find((p) => existsSync(p));

/**
 * `etcdctl compact <revision>`; where etcdctl is not installed (Debian's etcd-server does not bring
 * it), the same Compact RPC through etcd's JSON gateway.
 */
async function externalCompact(revision: number): Promise<void> {
  if (etcdctl) {
    execFileSync(etcdctl, ["--endpoints", endpoints!.join(","), "compact", String(revision)], {
      env: { ...process.env, ETCDCTL_API: "3" },
      stdio: "pipe",
    });
    return;
  }
  const r = await fetch(`${endpoints![0]!.replace(/\/$/, "")}/v3/kv/compaction`, {
    method: "POST",
    body: JSON.stringify({ revision: String(revision) }),
  });
  if (!r.ok) throw new Error(`etcd compaction: ${r.status} ${await r.text()}`);
}
if (!endpoints) console.warn("storage: SERVICENET_ETCD_ENDPOINTS is unset, skipping the etcd compaction tests");

const dir = "/registry/configmaps/compaction/";
const key = (n: string): string => dir + n;

/** A watch that records everything it gets, until closed. */
function watchAndRecord(store: Store, resourceVersion: string): { events: WatchEvent[]; stop: AbortController } {
  const stop = new AbortController();
  const events: WatchEvent[] = [];
  void (async () => {
    for await (const ev of store.watch(dir, { resourceVersion, recursive: true, signal: stop.signal })) events.push(ev);
  })();
  return { events, stop };
}

async function until(cond: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function expired(evs: WatchEvent[]): string {
  expect(evs).toHaveLength(1);
  const [ev] = evs;
  if (ev?.type !== "ERROR") throw new Error(`expected an ERROR, got ${ev?.type}`);
  expect([ev.object.code, ev.object.reason]).toEqual([410, "Expired"]);
  return ev.object.message ?? "";
}

describe.skipIf(!endpoints)("etcd compaction under open watches", () => {
  let t: TestStore;
  let unlock: () => Promise<void>;
  const uncaught: unknown[] = [];
  const onUncaught = (e: unknown): void => void uncaught.push(e);
  beforeEach(async () => {
    unlock = await lockSharedHistory("etcd");
    t = await openTestStore("etcd");
    uncaught.length = 0;
    process.on("uncaughtException", onUncaught);
  });
  afterEach(async () => {
    process.off("uncaughtException", onUncaught);
    await t.cleanup();
    await unlock();
  });

  /** Open watches, established (each has seen a first create) before anything is compacted. */
  const openWatches = async (n: number): Promise<{ events: WatchEvent[]; stop: AbortController }[]> => {
    const from = String(await t.store.currentRevision());
    const watches = Array.from({ length: n }, () => watchAndRecord(t.store, from));
    await t.store.create(key("first"), testObject("first"));
    await until(() => watches.every((w) => w.events.length === 1), "the open watches to start");
    return watches;
  };

  const write = async (n: number, tag: string): Promise<KubeObject[]> => {
    const out: KubeObject[] = [];
    for (let i = 0; i < n; i++) out.push(await t.store.create(key(`${tag}-${i}`), testObject(`${tag}-${i}`)));
    return out;
  };

  it("answers a watch from a compacted revision with 410 and the compacted revision, and keeps the open watches and the process alive", async () => {
    const { store } = t;
    const open = await openWatches(3);
    const start = String(await store.currentRevision());
    await write(5, "a");
    const target = await store.currentRevision();
    await store.compact(target);
    expect(expired(await collect(store.watch(dir, { resourceVersion: start, recursive: true }), 2))).toBe(
      `too old resource version: ${start} (${target})`,
    );
    // Repeatedly, and with the store's other watches on the same connection still running.
    for (let i = 0; i < 3; i++)
      expect(expired(await collect(store.watch(dir, { resourceVersion: start, recursive: true }), 2))).toContain(`(${target})`);
    await write(3, "b");
    await until(() => open.every((w) => w.events.length === 9), "the open watches to see all 9 creates");
    await new Promise((r) => setTimeout(r, 300));
    expect(uncaught).toEqual([]);
    for (const w of open) {
      expect(w.events.every((e) => e.type === "ADDED")).toBe(true);
      w.stop.abort();
    }
  });

  it("reports etcd's compact revision after an `etcdctl compact` nobody told the store about", async () => {
    const { store } = t;
    const [open] = await openWatches(1);
    const [first] = await write(4, "c");
    const target = await store.currentRevision();
    await externalCompact(target);
    const from = first!.metadata.resourceVersion!;
    const messages: string[] = [];
    for (let i = 0; i < 3; i++) messages.push(expired(await collect(store.watch(dir, { resourceVersion: from, recursive: true }), 2)));
    await new Promise((r) => setTimeout(r, 300));
    expect(uncaught).toEqual([]);
    expect(messages).toEqual(Array(3).fill(`too old resource version: ${from} (${target})`));
    // A watch from the compacted revision itself still works.
    const after = store.watch(dir, { resourceVersion: String(target), recursive: true });
    await write(1, "d");
    expect((await collect(after, 1))[0]?.type).toBe("ADDED");
    await until(() => open!.events.length === 6, "the open watch to see all 6 creates");
    await new Promise((r) => setTimeout(r, 300));
    expect(uncaught).toEqual([]);
    open!.stop.abort();
  });
});
