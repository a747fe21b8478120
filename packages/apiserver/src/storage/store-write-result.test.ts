import { beforeEach, expect, it, vi } from "vitest";
import { describeEachBackend } from "./backend-suite.ts";
import type { KubeObject, Store } from "./interfaces.ts";
import { testObject } from "./testing.ts";
import { markStringMap, sliceEntries } from "../util/json/string-maps.ts";

// etcd round trips on a shared 2-core machine can be slow; correctness, not speed, is tested here.
vi.setConfig({ testTimeout: 20_000 });

const key = (name: string): string => `/registry/configmaps/default/${name}`;

/** An object with nested members a caller might go on changing after handing it to storage. */
function nested(name: string): KubeObject {
  return testObject(name, { metadata: { name, namespace: "default", labels: { app: "web" } }, data: { list: ["a"], deep: { v: "1" } } });
}

function scribble(obj: KubeObject): void {
  (obj.metadata["labels"] as Record<string, string>)["app"] = "scribbled";
  (obj["data"] as { list: string[] }).list.push("scribbled");
  (obj["data"] as { deep: { v: string } }).deep.v = "scribbled";
  obj.metadata.name = "scribbled";
}

/**
 * Writes build their result from the written object instead of parsing the bytes back (codec.ts
 * storedCopy). The result must still be exactly what was stored and belong to the caller alone.
 */
describeEachBackend("write results", (ctx) => {
  let store: Store;
  const backend = ctx.backend;
  beforeEach(() => {
    store = ctx.store;
  });

  it("create returns what was stored, untouched by later changes of the input, and the input by changes of it", async () => {
    const input = nested("a");
    const pending = store.create(key("a"), input);
    scribble(input); // while the write is in flight
    const created = await pending;
    const stored = await store.get(key("a"));
    expect(created).toEqual(stored);
    expect(JSON.stringify(created)).toBe(JSON.stringify(stored));
    expect(created.metadata.name).toBe("a");
    scribble(created);
    expect(input.metadata.name).toBe("scribbled");
    expect((input["data"] as { deep: { v: string } }).deep.v).toBe("scribbled");
    expect(await store.get(key("a"))).toEqual(stored);
  });

  it("create drops undefined members as the stored JSON does", async () => {
    const created = await store.create(key("u"), testObject("u", { spec: { a: undefined, b: 1 } }));
    expect(Object.keys(created["spec"] as object)).toEqual(["b"]);
    expect(JSON.stringify(created)).toBe(JSON.stringify(await store.get(key("u"))));
  });

  it("guaranteedUpdate returns what was stored, even if the object tryUpdate returned changes afterwards", async () => {
    await store.create(key("b"), nested("b"));
    const desired = nested("b");
    let returned: KubeObject | undefined;
    let called!: () => void;
    const tryUpdateRan = new Promise<void>((r) => (called = r));
    const pending = store.guaranteedUpdate(key("b"), (cur) => {
      returned = { ...cur, data: desired["data"] };
      // Longer than a turn's budget (util/eventloop/turn-budget.ts), as a near-limit object's
      // update is: the store must not give the loop a turn before it has encoded what it got.
      for (const end = performance.now() + 5; performance.now() < end;);
      called();
      return returned;
    });
    // After tryUpdate (and the encoding right after it), while the write may still be in flight.
    await tryUpdateRan;
    await new Promise((r) => setImmediate(r));
    scribble(desired);
    const updated = await pending;
    const stored = await store.get(key("b"));
    expect(JSON.stringify(updated)).toBe(JSON.stringify(stored));
    expect((updated["data"] as { deep: { v: string } }).deep.v).toBe("1");
    scribble(updated);
    expect(await store.get(key("b"))).toEqual(stored);
    expect(returned?.metadata.name).toBe("b");
  });

  it("txn returns what was stored, untouched by later changes of the ops' objects", async () => {
    const created = nested("c");
    await store.create(key("d"), nested("d"));
    const update = { ...(await store.get(key("d"))), data: { list: ["x"], deep: { v: "2" } } };
    const pending = store.txn([
      { type: "create", key: key("c"), obj: created },
      { type: "update", key: key("d"), obj: update },
    ]);
    scribble(created);
    scribble(update);
    const res = await pending;
    expect(JSON.stringify(res.objects[0])).toBe(JSON.stringify(await store.get(key("c"))));
    expect(JSON.stringify(res.objects[1])).toBe(JSON.stringify(await store.get(key("d"))));
    expect(res.objects[1]!.metadata.resourceVersion).not.toBe(update.metadata.resourceVersion);
  });

  it("create and guaranteedUpdate store a near-limit object's marked maps exactly as encode writes them, sharing them with the result", async () => {
    // Written in turns with the store's own budget (codec.test.ts counts the turns with a zero budget).
    const labels = Object.fromEntries(Array.from({ length: 8 * sliceEntries }, (_, i) => [`l${i}`, "v"]));
    markStringMap(labels);
    const obj = testObject("big", { metadata: { name: "big", namespace: "default", labels }, data: { a: "1" } });
    const created = await store.create(key("big"), obj);
    const stored = await store.get(key("big"));
    expect(JSON.stringify(created)).toBe(JSON.stringify(stored));
    expect(created.metadata["labels"]).toBe(labels);
    expect(stored.metadata["labels"]).toEqual(labels);
    const updated = await store.guaranteedUpdate(key("big"), (cur) => ({
      ...cur,
      metadata: { ...cur.metadata, labels },
      data: { a: "2" },
    }));
    expect(JSON.stringify(updated)).toBe(JSON.stringify(await store.get(key("big"))));
    expect(updated.metadata["labels"]).toBe(labels);
    expect(updated["data"]).toEqual({ a: "2" });
  });

  it.skipIf(backend === "etcd")("a create does not parse the object it has just written", async () => {
    const parse = vi.spyOn(JSON, "parse");
    await store.create(key("p"), nested("p"));
    expect(parse).not.toHaveBeenCalled();
  });
});
