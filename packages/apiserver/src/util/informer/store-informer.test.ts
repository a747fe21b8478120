import { afterEach, describe, expect, it } from "vitest";
import { eventually } from "@servicenet/testing";
import { createStore, objectKey, type KubeObject, type Store } from "../../storage/index.ts";
import { StoreInformer } from "./store-informer.ts";

const cidr = (name: string, cidrs: string[]): KubeObject => ({ apiVersion: "networking.k8s.io/v1", kind: "ServiceCIDR", metadata: { name }, spec: { cidrs } });
const until = async (cond: () => boolean): Promise<void> => void (await eventually(cond, { timeoutMs: 1_000, intervalMs: 5 }));

describe("StoreInformer", () => {
  let store: Store;
  let inf: StoreInformer | undefined;
  afterEach(async () => {
    inf?.stop();
    await store.close();
  });

  it("lists, then follows adds, updates and deletes in order", async () => {
    store = await createStore({ backend: "memory" });
    await store.create(objectKey("servicecidrs", undefined, "a"), cidr("a", ["10.0.0.0/24"]));
    inf = new StoreInformer(store, "servicecidrs");
    const seen: string[] = [];
    inf.addEventHandler({ onAdd: (o) => seen.push(`add ${o.metadata.name}`), onUpdate: (_, o) => seen.push(`update ${o.metadata.name}`), onDelete: (o) => seen.push(`delete ${o.metadata.name}`) });
    inf.start();
    await inf.waitForSync();
    expect(inf.hasSynced()).toBe(true);
    expect(inf.get("a")?.spec).toEqual({ cidrs: ["10.0.0.0/24"] });
    await store.create(objectKey("servicecidrs", undefined, "b"), cidr("b", ["fd00::/64"]));
    await store.guaranteedUpdate(objectKey("servicecidrs", undefined, "a"), (cur) => ({ ...cur, metadata: { ...cur.metadata, labels: { x: "y" } } }));
    await store.delete(objectKey("servicecidrs", undefined, "b"));
    await until(() => seen.length === 4);
    expect(seen).toEqual(["add a", "add b", "update a", "delete b"]);
    expect(inf.list().map((o) => o.metadata.name)).toEqual(["a"]);
  });

  it("delivers the cache to handlers registered after the sync", async () => {
    store = await createStore({ backend: "memory" });
    inf = new StoreInformer(store, "servicecidrs", { relistDelayMs: 1 });
    inf.start();
    await inf.waitForSync();
    await store.create(objectKey("servicecidrs", undefined, "a"), cidr("a", ["10.0.0.0/24"]));
    await until(() => inf!.get("a") !== undefined);
    const late: string[] = [];
    inf.addEventHandler({ onAdd: (o) => late.push(o.metadata.name ?? "") });
    expect(late).toEqual(["a"]);
  });

  it("re-delivers objects to resync handlers", async () => {
    store = await createStore({ backend: "memory" });
    await store.create(objectKey("servicecidrs", undefined, "a"), cidr("a", ["10.0.0.0/24"]));
    inf = new StoreInformer(store, "servicecidrs");
    let resyncs = 0;
    inf.addEventHandler({ onUpdate: (o, n) => void (o === n && resyncs++) }, 10);
    inf.start();
    await until(() => resyncs >= 2);
  });
});
