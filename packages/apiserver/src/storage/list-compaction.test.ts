/**
 * A compaction that lands between a page's reads: every read at the pinned revision (the ranges and
 * the remaining-item count) answers upstream's 410 (etcd3 store.go interpretListError), never the
 * engine's raw error (etcd's `11 OUT_OF_RANGE ... required revision has been compacted`, a 500).
 */
import { StatusError } from "@servicenet/api/errors";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { continueTooOldMsg, listTooOldMsg } from "./errors.ts";
import type { KubeObject } from "./interfaces.ts";
import { CompactedError, prefixEnd, type KVEngine } from "./kv.ts";
import { KVStore } from "./kv-store.ts";
import { availableBackends, lockSharedHistory, openTestEngine, testObject, type TestEngine } from "./testing.ts";

vi.setConfig({ testTimeout: 30_000 });

const dir = "/registry/configmaps/";
const names = (items: KubeObject[]): string[] => items.map((o) => o.metadata.name ?? "");

/** The engine, compacting to its newest revision just before every count (a compactor racing the page). */
function compactingBeforeCount(inner: KVEngine): KVEngine {
  return new Proxy(inner, {
    get(target, prop) {
      if (prop === "count")
        return async (start: string, end: string, revision?: number) => {
          await target.compact(await target.currentRevision());
          return target.count(start, end, revision);
        };
      const v: unknown = Reflect.get(target, prop, target);
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

async function statusOf(p: Promise<unknown>): Promise<StatusError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(e instanceof StatusError)) throw new Error(`expected a StatusError, got ${String(e)}`);
  return e;
}

describe.each(availableBackends())("reads at a compacted revision on $backend", ({ backend, available }) => {
  let t: TestEngine | undefined;
  let unlock: () => Promise<void> = async () => {};
  let store: KVStore;
  beforeEach(async () => {
    if (!available) return;
    unlock = await lockSharedHistory(backend);
    t = await openTestEngine(backend);
    store = new KVStore(t.engine, t.prefix);
    for (let i = 0; i < 6; i++) await store.create(`${dir}default/o${i}`, testObject(`o${i}`));
  });
  afterEach(async () => {
    await t?.cleanup();
    t = undefined;
    await unlock();
  });

  it.skipIf(!available)("the engine's count at a compacted revision is a CompactedError", async () => {
    const engine = t!.engine;
    const old = await engine.currentRevision();
    await store.guaranteedUpdate(`${dir}default/o0`, (cur) => ({ ...cur, data: { a: "b" } }));
    await engine.compact(await engine.currentRevision());
    const start = t!.prefix + dir;
    const e = await engine.count(start, prefixEnd(start), old - 1).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(CompactedError);
  });

  it.skipIf(!available)("a continuation whose remaining count meets a compaction is upstream's 410 with a fresh token", async () => {
    const first = await store.list(dir, { limit: 2 });
    expect(first.continue).toBeDefined();
    await store.guaranteedUpdate(`${dir}default/o0`, (cur) => ({ ...cur, data: { a: "b" } }));
    // Another apiserver serves the continuation: it has no remembered count and must ask the engine.
    const other = new KVStore(compactingBeforeCount(t!.engine), t!.prefix);
    const e = await statusOf(other.list(dir, { limit: 2, continue: first.continue! }));
    expect([e.code, e.reason, e.message]).toEqual([410, "Expired", continueTooOldMsg]);
    const token = (e.status.metadata as { continue?: string }).continue;
    expect(JSON.parse(Buffer.from(token!, "base64url").toString())).toEqual({ v: "meta.k8s.io/v1", rv: -1, start: "default/o1\u0000" });
    const rest = await store.list(dir, { continue: token! });
    expect(names(rest.items)).toEqual(["o2", "o3", "o4", "o5"]);
  });

  it.skipIf(!available)(
    "a first page whose count meets a compaction is 410 The resourceVersion for the provided list is too old",
    async () => {
      await store.guaranteedUpdate(`${dir}default/o0`, (cur) => ({ ...cur, data: { a: "b" } }));
      const old = await t!.engine.currentRevision();
      await store.guaranteedUpdate(`${dir}default/o0`, (cur) => ({ ...cur, data: { a: "c" } }));
      const other = new KVStore(compactingBeforeCount(t!.engine), t!.prefix);
      const e = await statusOf(other.list(dir, { limit: 2, resourceVersion: String(old), resourceVersionMatch: "Exact" }));
      expect([e.code, e.reason, e.message]).toEqual([410, "Expired", listTooOldMsg]);
    },
  );
});
