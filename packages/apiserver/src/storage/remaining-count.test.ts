/**
 * remainingItemCount of paged lists: each page's figure equals a fresh count of the rest of the
 * range at the list's revision, while only the first page counts (later pages subtract).
 */
import { describe, expect, it } from "vitest";
import { KVStore } from "./kv-store.ts";
import type { KVEngine } from "./kv.ts";
import { createMemoryEngine } from "./memory/memory-engine.ts";
import { testObject } from "./testing.ts";

const dir = "/registry/configmaps/";

/** A memory engine counting its count() calls. */
function countingEngine(): { engine: KVEngine; counts: () => number } {
  const inner = createMemoryEngine();
  let counts = 0;
  const engine = new Proxy(inner, {
    get(target, prop) {
      const v: unknown = Reflect.get(target, prop, target);
      if (prop === "count") counts++;
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  return { engine, counts: () => counts };
}

async function seed(store: KVStore, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const name = `o${String(i).padStart(3, "0")}`;
    await store.create(`${dir}default/${name}`, { ...testObject(name), metadata: { name, namespace: "default" } });
  }
}

/** Pages through `dir`, returning each page's remainingItemCount. */
async function walk(store: KVStore, limit: number, between?: (page: number) => Promise<void>): Promise<(number | undefined)[]> {
  const seen: (number | undefined)[] = [];
  let token: string | undefined;
  do {
    const page = await store.list(dir, { limit, ...(token ? { continue: token } : {}) });
    seen.push(page.remainingItemCount);
    token = page.continue;
    await between?.(seen.length);
  } while (token);
  return seen;
}

describe("remainingItemCount", () => {
  it.each([
    [25, 10, [15, 5, undefined]],
    [30, 10, [20, 10, undefined]],
    [7, 3, [4, 1, undefined]],
    [5, 10, [undefined]],
  ])("%i keys in pages of %i: %j, counted once", async (n, limit, want) => {
    const c = countingEngine();
    const store = new KVStore(c.engine);
    await seed(store, n);
    expect(await walk(store, limit)).toEqual(want);
    expect(c.counts()).toBe(want.length > 1 ? 1 : 0);
  });

  it("stays the figure of the list's revision while the collection changes between pages", async () => {
    const c = countingEngine();
    const store = new KVStore(c.engine);
    await seed(store, 25);
    const seen = await walk(store, 10, async (page) => {
      // Writes after the first page, before and after the resume key, are invisible to the rest.
      await store.create(`${dir}default/o${page}99`, testObject(`o${page}99`));
      await store.delete(`${dir}default/o00${page}`);
      await store.delete(`${dir}default/o02${page}`);
    });
    expect(seen).toEqual([15, 5, undefined]);
    expect(c.counts()).toBe(1);
  });

  it("equals a fresh count of the rest of the range on every page", async () => {
    const c = countingEngine();
    const store = new KVStore(c.engine);
    await seed(store, 40);
    for (let i = 0; i < 40; i += 3) await store.delete(`${dir}default/o${String(i).padStart(3, "0")}`);
    let token: string | undefined;
    do {
      const page = await store.list(dir, { limit: 4, ...(token ? { continue: token } : {}) });
      token = page.continue;
      if (!token) break;
      const last = page.items.at(-1)!.metadata.name!;
      const rest = await c.engine.count(`${dir}default/${last}\u0000`, `${dir.slice(0, -1)}0`, Number(page.resourceVersion));
      expect(page.remainingItemCount).toBe(rest);
    } while (token);
  });
});
