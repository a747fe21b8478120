import { describe, expect, it } from "vitest";
import type { KVCompare, KVWrite, RawKV } from "../kv.ts";
import { TxnBatcher } from "./txn-batcher.ts";

/** An in-memory "etcd" behind the batcher: a map of key -> mod revision. */
function fakeEtcd() {
  const mods = new Map<string, number>();
  let rev = 0;
  const batches: string[][] = [];
  const run = async (compares: KVCompare[], writes: KVWrite[]) => {
    batches.push(writes.map((w) => w.key));
    const current = compares.map((c): RawKV | null => (mods.has(c.key) ? { key: c.key, value: "", modRevision: mods.get(c.key)!, createRevision: 0 } : null));
    if (compares.some((c, i) => (current[i]?.modRevision ?? 0) !== c.modRevision)) return { succeeded: false, revision: rev, current };
    rev++;
    for (const w of writes) if (w.type === "put") mods.set(w.key, rev); else mods.delete(w.key);
    return { succeeded: true, revision: rev, current: [] };
  };
  return { mods, batches, run };
}

const create = (key: string) => ({ compares: [{ key, modRevision: 0 }], writes: [{ type: "put" as const, key, value: "v" }] });

describe("TxnBatcher", () => {
  it("sends concurrent transactions as one batch, each answered with the batch revision", async () => {
    const f = fakeEtcd();
    const b = new TxnBatcher(f.run, { maxInFlight: 1 });
    const res = await Promise.all(["a", "b", "c"].map((k) => b.submit(create(k))));
    expect(f.batches).toEqual([["a", "b", "c"]]);
    expect(res.map((r) => [r.succeeded, r.revisions])).toEqual([[true, [1]], [true, [1]], [true, [1]]]);
  });

  it("never puts two transactions on the same key in one batch", async () => {
    const f = fakeEtcd();
    const b = new TxnBatcher(f.run, { maxInFlight: 1 });
    const res = await Promise.all([b.submit(create("a")), b.submit(create("a")), b.submit(create("b"))]);
    expect(f.batches).toEqual([["a", "b"], ["a"]]);
    expect(res.map((r) => r.succeeded)).toEqual([true, false, true]);
    expect(res[1].current[0]?.modRevision).toBe(1);
  });

  it("answers the member whose compare failed and resends the others", async () => {
    const f = fakeEtcd();
    f.mods.set("taken", 7);
    const b = new TxnBatcher(f.run, { maxInFlight: 1 });
    const res = await Promise.all([b.submit(create("x")), b.submit(create("taken")), b.submit(create("y"))]);
    expect(res.map((r) => r.succeeded)).toEqual([true, false, true]);
    expect(f.batches).toEqual([["x", "taken", "y"], ["x", "y"]]);
    expect([...f.mods.keys()].sort()).toEqual(["taken", "x", "y"]);
  });

  it("splits batches at maxOps", async () => {
    const f = fakeEtcd();
    const b = new TxnBatcher(f.run, { maxInFlight: 1, maxOps: 2 });
    await Promise.all(["a", "b", "c", "d", "e"].map((k) => b.submit(create(k))));
    expect(f.batches.map((x) => x.length)).toEqual([2, 2, 1]);
  });

  it("keeps a batch under maxBytes", async () => {
    const f = fakeEtcd();
    const b = new TxnBatcher(f.run, { maxInFlight: 1, maxBytes: 10 });
    const big = (key: string) => ({ compares: [{ key, modRevision: 0 }], writes: [{ type: "put" as const, key, value: "123456" }] });
    await Promise.all(["a", "b", "c"].map((k) => b.submit(big(k))));
    expect(f.batches).toEqual([["a"], ["b"], ["c"]]);
  });
});
