/**
 * runTxn's reads: an op that states its expectation (a create, an update with a revision) is sent
 * without reading its key first; the errors stay those of the read path.
 */
import { describe, expect, it } from "vitest";
import { KVStore } from "./kv-store.ts";
import type { KVEngine } from "./kv.ts";
import { createMemoryEngine } from "./memory/memory-engine.ts";
import { testObject } from "./testing.ts";

/** A memory engine counting its single-key reads. */
function countingEngine(): { engine: KVEngine; gets: () => number } {
  const inner = createMemoryEngine();
  let gets = 0;
  const engine = new Proxy(inner, {
    get(target, prop) {
      const v: unknown = Reflect.get(target, prop, target);
      if (prop === "get") gets++;
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  return { engine, gets: () => gets };
}

const key = "/registry/services/specs/default/web";

describe("runTxn", () => {
  it("reads nothing before a create or an update with an expected revision", async () => {
    const c = countingEngine();
    const store = new KVStore(c.engine);
    const created = await store.txn([{ type: "create", key, obj: testObject("web") }]);
    const rv = created.objects[0]!.metadata.resourceVersion!;
    await store.txn([{ type: "update", key, obj: { ...testObject("web"), data: "x" }, expectedRevision: rv }]);
    const current = await store.get(key);
    await store.txn([{ type: "update", key, obj: { ...current, data: "y" } }]); // rv of the object
    expect(c.gets()).toBe(1); // the store.get above
    await store.txn([{ type: "delete", key }]); // a delete returns the deleted object: read
    expect(c.gets()).toBe(2);
  });

  it.each([
    { name: "a create of an existing key", op: "create" as const, rv: undefined, want: "AlreadyExists" },
    { name: "an update on a stale revision", op: "update" as const, rv: "2", want: "Conflict" },
    { name: "an update with a malformed revision", op: "update" as const, rv: "x", want: "Conflict" },
  ])("still fails as the read path did: $name", async ({ op, rv, want }) => {
    const store = new KVStore(createMemoryEngine());
    await store.create(key, testObject("web"));
    await store.create("/registry/services/specs/default/other", testObject("other"));
    const err = await store
      .txn([{ type: op, key, obj: testObject("web"), ...(rv !== undefined ? { expectedRevision: rv } : {}) }])
      .catch((e: unknown) => e);
    expect((err as { reason?: string }).reason).toBe(want);
  });

  it("an update of a missing key is NotFound", async () => {
    const store = new KVStore(createMemoryEngine());
    const err = await store.txn([{ type: "update", key, obj: testObject("web"), expectedRevision: "3" }]).catch((e: unknown) => e);
    expect((err as { reason?: string }).reason).toBe("NotFound");
  });
});
