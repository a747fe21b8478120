/**
 * A list without `limit` reads the engine a page at a time at the revision of its first page (so
 * the event loop is served in between), and still answers every object as of that revision.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { KVEngine } from "./kv.ts";
import { unlimitedListPage } from "./kv-list.ts";
import { KVStore } from "./kv-store.ts";
import { openTestEngine, testObject, type TestEngine } from "./testing.ts";

vi.setConfig({ testTimeout: 60_000 });

const dir = "/registry/configmaps/";
const n = unlimitedListPage * 3 + 7;

/** The engine, recording the revision and limit of every range. */
function recordingRanges(inner: KVEngine, seen: { revision: number | undefined; limit: number | undefined }[]): KVEngine {
  return new Proxy(inner, {
    get(target, prop) {
      if (prop === "range")
        return (start: string, end: string, opts: { revision?: number; limit?: number }) => {
          seen.push({ revision: opts.revision, limit: opts.limit });
          return target.range(start, end, opts);
        };
      const v: unknown = Reflect.get(target, prop, target);
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

describe.each(["memory", "sqlite"] as const)("an unlimited list on %s", (backend) => {
  let t: TestEngine | undefined;
  let store: KVStore;
  beforeEach(async () => {
    t = await openTestEngine(backend);
    store = new KVStore(t.engine, t.prefix);
    for (let i = 0; i < n; i++) await store.create(`${dir}default/o${String(i).padStart(4, "0")}`, testObject(`o${i}`));
  });
  afterEach(async () => {
    await t?.cleanup();
    t = undefined;
  });

  it("reads pages at the first page's revision and returns every object as of it", async () => {
    const seen: { revision: number | undefined; limit: number | undefined }[] = [];
    const paged = new KVStore(recordingRanges(t!.engine, seen), t!.prefix);
    let wrote = false;
    // A write that lands between the pages must not show in the list.
    const writer = setImmediate(() => {
      void store.create(`${dir}default/late`, testObject("late")).then(() => (wrote = true));
    });
    const list = await paged.list(dir, {});
    clearImmediate(writer);
    expect(list.items).toHaveLength(n);
    expect(list.items.map((o) => o.metadata.name)).not.toContain("late");
    expect(list.continue).toBeUndefined();
    expect(seen.length).toBe(4);
    expect(seen.every((s) => s.limit === unlimitedListPage)).toBe(true);
    expect(new Set(seen.slice(1).map((s) => s.revision))).toEqual(new Set([Number(list.resourceVersion)]));
    expect(wrote).toBe(true);
  });
});
