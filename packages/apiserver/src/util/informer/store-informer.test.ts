import { afterEach, describe, expect, it } from "vitest";
import { eventually } from "@servicenet/testing";
import { createStore, objectKey, resourcePrefix, type KubeObject, type Store } from "../../storage/index.ts";
import { StoreInformer, storeListWatch } from "./store-informer.ts";

const cidr = (name: string, cidrs: string[]): KubeObject => ({
  apiVersion: "networking.k8s.io/v1",
  kind: "ServiceCIDR",
  metadata: { name },
  spec: { cidrs },
});
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
    inf.addEventHandler({
      onAdd: (o) => seen.push(`add ${o.metadata.name}`),
      onUpdate: (_, o) => seen.push(`update ${o.metadata.name}`),
      onDelete: (o) => seen.push(`delete ${o.metadata.name}`),
    });
    inf.start();
    await inf.waitForSync();
    expect(inf.hasSynced()).toBe(true);
    expect(inf.get("a")?.spec).toEqual({ cidrs: ["10.0.0.0/24"] });
    await store.create(objectKey("servicecidrs", undefined, "b"), cidr("b", ["fd00::/64"]));
    await store.guaranteedUpdate(objectKey("servicecidrs", undefined, "a"), (cur) => ({
      ...cur,
      metadata: { ...cur.metadata, labels: { x: "y" } },
    }));
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

  it("relists after a 410 ERROR event and re-watches without a relist after any other watch failure", async () => {
    store = await createStore({ backend: "memory" });
    await store.create(objectKey("servicecidrs", undefined, "a"), cidr("a", ["10.0.0.0/24"]));
    let lists = 0;
    const watchFaults: ("expired" | "broken")[] = ["expired", "broken"];
    const base = store;
    const faulty = new Proxy(base, {
      get(target, prop, receiver) {
        if (prop === "list") return (...args: Parameters<Store["list"]>) => (lists++, target.list(...args));
        if (prop === "watch") {
          return (...args: Parameters<Store["watch"]>) => {
            const fault = watchFaults.shift();
            if (fault === undefined) return target.watch(...args);
            return (async function* () {
              if (fault === "expired")
                yield {
                  type: "ERROR" as const,
                  object: {
                    kind: "Status",
                    apiVersion: "v1",
                    metadata: {},
                    status: "Failure",
                    message: "too old resource version",
                    reason: "Expired",
                    code: 410,
                  } as never,
                };
              else throw new Error("connection to the datastore lost");
            })();
          };
        }
        return Reflect.get(target, prop, receiver);
      },
    });
    inf = new StoreInformer(faulty, "servicecidrs", { relistDelayMs: 1 });
    const seen: string[] = [];
    inf.addEventHandler({ onAdd: (o) => seen.push(`add ${o.metadata.name}`), onUpdate: (_, o) => seen.push(`update ${o.metadata.name}`) });
    inf.start();
    await inf.waitForSync();
    await until(() => watchFaults.length === 0);
    await store.create(objectKey("servicecidrs", undefined, "b"), cidr("b", ["fd00::/64"]));
    await until(() => seen.length === 2);
    // One relist for the 410, none for the broken watch; the relist re-delivered nothing unchanged.
    expect(lists).toBe(2);
    expect(seen).toEqual(["add a", "add b"]);
  });

  it("storeListWatch lists with the revision and watches from it", async () => {
    store = await createStore({ backend: "memory" });
    await store.create(objectKey("servicecidrs", undefined, "a"), cidr("a", ["10.0.0.0/24"]));
    const lw = storeListWatch<KubeObject>(store, resourcePrefix("servicecidrs"));
    const list = await lw.list();
    expect(list.items.map((o) => o.metadata.name)).toEqual(["a"]);
    const events: string[] = [];
    const h = await lw.watch(
      list.metadata!.resourceVersion!,
      (e) => events.push(`${e.type} ${(e.object as KubeObject).metadata.name}`),
      () => events.push("done"),
    );
    await store.create(objectKey("servicecidrs", undefined, "b"), cidr("b", ["fd00::/64"]));
    await until(() => events.length === 1);
    h.abort();
    expect(events).toEqual(["ADDED b"]);
  });
});
