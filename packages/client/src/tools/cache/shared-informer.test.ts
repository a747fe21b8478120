import { FakeClock } from "@servicenet/component-base/clock";
import { afterEach, describe, expect, it } from "vitest";
import { SharedInformer } from "./shared-informer.ts";
import { flush, obj, ScriptedListWatch, type Obj } from "../../testing/scripted-list-watch.ts";

let inf: SharedInformer<Obj> | undefined;
afterEach(async () => inf?.stop());

function setup(extra: { resyncMs?: number } = {}) {
  const clock = new FakeClock(0);
  const lw = new ScriptedListWatch();
  inf = new SharedInformer<Obj>({
    listerWatcher: lw,
    clock,
    backoff: { jitter: 0 },
    indexers: { app: (o) => (o.metadata.labels?.["app"] ? [o.metadata.labels["app"]] : []) },
    ...extra,
  });
  const events: string[] = [];
  inf.addEventHandler({
    onAdd: (o) => events.push(`add ${o.metadata.name}@${o.metadata.resourceVersion}`),
    onUpdate: (a, b) => events.push(`update ${a.metadata.name}@${a.metadata.resourceVersion}->${b.metadata.resourceVersion}`),
    onDelete: (o) => events.push(`delete ${o.metadata.name}@${o.metadata.resourceVersion}`),
  });
  return { clock, lw, inf, events };
}

const expired = { kind: "Status", code: 410, reason: "Expired", message: "too old" };

describe("SharedInformer", () => {
  it("is synced right after the first list; a relist sends only real changes and deletes what vanished", async () => {
    const { clock, lw, inf, events } = setup();
    lw.lists.push({ metadata: { resourceVersion: "10" }, items: [obj("a", "1"), obj("b", "2"), obj("c", "3")] });
    lw.lists.push({ metadata: { resourceVersion: "20" }, items: [obj("a", "1"), obj("b", "15"), obj("d", "16")] });
    expect(inf.hasSynced()).toBe(false);
    await inf.start();
    await flush();
    expect(inf.hasSynced()).toBe(true);
    lw.current.emit({ type: "ERROR", object: expired });
    await flush();
    clock.step(800);
    await flush();
    // DeltaFIFO.Replace order: listed objects first, then deletes of what vanished.
    expect(events).toEqual(["add a@1", "add b@2", "add c@3", "update b@2->15", "add d@16", "delete c@3"]);
    expect(
      inf
        .list()
        .map((o) => o.metadata.name)
        .sort(),
    ).toEqual(["a", "b", "d"]);
  });

  it("delivers watch MODIFIED as (old, new) and a delete with the last cached state", async () => {
    const { lw, inf, events } = setup();
    lw.lists.push({ metadata: { resourceVersion: "10" }, items: [obj("a", "1")] });
    await inf.start();
    await flush();
    lw.current.emit({ type: "MODIFIED", object: obj("a", "11") });
    lw.current.emit({ type: "DELETED", object: obj("a", "12") });
    expect(events).toEqual(["add a@1", "update a@1->11", "delete a@11"]);
    expect(inf.get("a")).toBeUndefined();
  });

  it("resyncs: every cached object again as update(o, o), each period", async () => {
    const { clock, lw, inf, events } = setup({ resyncMs: 1000 });
    lw.lists.push({ metadata: { resourceVersion: "10" }, items: [obj("a", "1")] });
    await inf.start();
    await flush();
    clock.step(2000);
    expect(events).toEqual(["add a@1", "update a@1->1", "update a@1->1"]);
  });

  it("replays the cache to a late handler as adds, and answers byIndex", async () => {
    const { lw, inf } = setup();
    lw.lists.push({ metadata: { resourceVersion: "10" }, items: [obj("a", "1", { app: "web" }), obj("b", "2", { app: "db" })] });
    await inf.start();
    await flush();
    const late: string[] = [];
    inf.addEventHandler({ onAdd: (o) => late.push(o.metadata.name) });
    expect(late.sort()).toEqual(["a", "b"]);
    expect(inf.byIndex("app", "web").map((o) => o.metadata.name)).toEqual(["a"]);
  });

  it("applies the transform to listed and watched objects", async () => {
    const clock = new FakeClock(0);
    const lw = new ScriptedListWatch();
    inf = new SharedInformer<Obj>({
      listerWatcher: lw,
      clock,
      transform: (o) => ({ metadata: { ...(o as Obj).metadata, name: (o as Obj).metadata.name.toUpperCase() } }),
    });
    lw.lists.push({ metadata: { resourceVersion: "10" }, items: [obj("a", "1")] });
    await inf.start();
    await flush();
    lw.current.emit({ type: "ADDED", object: obj("b", "11") });
    expect(inf.list().map((o) => o.metadata.name)).toEqual(["A", "B"]);
  });

  it("resyncs each handler at its own period, and keeps going when a handler throws", async () => {
    const { clock, lw, inf } = setup();
    lw.lists.push({ metadata: { resourceVersion: "10" }, items: [obj("a", "1")] });
    const fast: string[] = [];
    const slow: string[] = [];
    inf.addEventHandler({ onUpdate: () => fast.push("u") }, 100);
    inf.addEventHandler({ onUpdate: () => slow.push("u") }, 250);
    inf.addEventHandler({
      onAdd: () => {
        throw new Error("handler bug");
      },
    });
    await inf.start();
    await inf.waitForSync();
    expect(inf.get("a")?.metadata.resourceVersion).toBe("1");
    clock.step(500);
    expect([fast.length, slow.length]).toEqual([5, 2]);
    lw.current.emit({ type: "ADDED", object: obj("b", "11") });
    expect(inf.get("b")).toBeDefined();
  });
});
