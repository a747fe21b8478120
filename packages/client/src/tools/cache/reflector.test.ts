import { FakeClock } from "@servicenet/component-base/clock";
import { afterEach, describe, expect, it } from "vitest";
import { Reflector } from "./reflector.ts";
import { flush, obj, ScriptedListWatch, type Obj } from "../../testing/scripted-list-watch.ts";

const expired = {
  kind: "Status",
  apiVersion: "v1",
  status: "Failure",
  code: 410,
  reason: "Expired",
  message: "too old resource version: 5 (20)",
};

function setup() {
  const clock = new FakeClock(0);
  const lw = new ScriptedListWatch();
  const seen: string[] = [];
  const sink = {
    replace: (items: Obj[]) => seen.push(`replace ${items.map((o) => o.metadata.name).join(",")}`),
    add: (o: Obj) => seen.push(`add ${o.metadata.name}`),
    update: (o: Obj) => seen.push(`update ${o.metadata.name}`),
    delete: (o: Obj) => seen.push(`delete ${o.metadata.name}`),
  };
  const r = new Reflector<Obj>(lw, sink, { clock, backoff: { jitter: 0 } });
  return { clock, lw, seen, r };
}

let running: Reflector<Obj> | undefined;
afterEach(async () => running?.stop());

describe("Reflector", () => {
  it("lists, then watches from the list's resourceVersion and applies events", async () => {
    const { lw, seen, r } = setup();
    running = r;
    lw.lists.push({ metadata: { resourceVersion: "10" }, items: [obj("a", "9")] });
    r.run();
    await flush();
    expect(lw.current.rv).toBe("10");
    lw.current.emit({ type: "ADDED", object: obj("b", "11") });
    lw.current.emit({ type: "MODIFIED", object: obj("a", "12") });
    lw.current.emit({ type: "BOOKMARK", object: { metadata: { resourceVersion: "15" } } });
    lw.current.emit({ type: "DELETED", object: obj("b", "16") });
    expect(seen).toEqual(["replace a", "add b", "update a", "delete b"]);
    expect(r.lastSyncResourceVersion).toBe("16");
  });

  it("re-watches from the last resourceVersion without a relist or backoff after a clean close", async () => {
    const { lw, r } = setup();
    running = r;
    lw.lists.push({ metadata: { resourceVersion: "10" }, items: [] });
    r.run();
    await flush();
    lw.current.emit({ type: "ADDED", object: obj("b", "11") });
    lw.current.close();
    await flush();
    expect(lw.watches.map((w) => w.rv)).toEqual(["10", "11"]);
    expect(lw.listed.length).toBe(1);
  });

  it("relists after a 410 ERROR event, only after the backoff (800 ms, then 1.6 s)", async () => {
    const { clock, lw, seen, r } = setup();
    running = r;
    lw.lists.push(
      { metadata: { resourceVersion: "10" }, items: [obj("a", "9")] },
      { metadata: { resourceVersion: "20" }, items: [obj("a", "9")] },
      { metadata: { resourceVersion: "30" }, items: [] },
    );
    r.run();
    await flush();
    lw.current.emit({ type: "ERROR", object: expired });
    await flush();
    expect(lw.current.aborted).toBe(true);
    expect(r.lastSyncResourceVersion).toBe("");
    clock.step(799);
    await flush();
    expect(lw.listed.length).toBe(1);
    clock.step(1);
    await flush();
    expect(lw.listed.length).toBe(2);
    expect(lw.current.rv).toBe("20");
    // An HTTP 410 on the watch request itself (client-node's {statusCode}) relists too, after 1.6 s.
    lw.current.close(Object.assign(new Error("Gone"), { statusCode: 410 }));
    await flush();
    clock.step(1599);
    await flush();
    expect(lw.listed.length).toBe(2);
    clock.step(1);
    await flush();
    expect(lw.listed.length).toBe(3);
    expect(seen).toEqual(["replace a", "replace a", "replace "]);
  });

  it("backs off a failing list exponentially up to 30 s", async () => {
    const { clock, lw, r } = setup();
    running = r;
    const boom = new Error("connection refused");
    lw.lists.push(boom, boom, boom, boom, boom, boom, boom, boom);
    r.run();
    const delays: number[] = [];
    for (let i = 0; i < 7; i++) {
      await flush();
      const before = lw.listed.length;
      let waited = 0;
      while (lw.listed.length === before) {
        clock.step(100);
        waited += 100;
        await flush();
      }
      delays.push(waited);
    }
    expect(delays).toEqual([800, 1600, 3200, 6400, 12800, 25600, 30000]);
  });

  it("treats a watch closed at once with no event as failed ('very short watch') and backs off", async () => {
    const { clock, lw, r } = setup();
    running = r;
    lw.lists.push({ metadata: { resourceVersion: "10" }, items: [] });
    r.run();
    await flush();
    lw.current.close();
    await flush();
    expect(lw.watches.length).toBe(1);
    clock.step(800);
    await flush();
    expect(lw.watches.map((w) => w.rv)).toEqual(["10", "10"]);
    expect(lw.listed.length).toBe(1);
  });

  it("stop() closes the watch and ends the loop", async () => {
    const { clock, lw, r } = setup();
    lw.lists.push({ metadata: { resourceVersion: "10" }, items: [] });
    r.run();
    await flush();
    await r.stop();
    expect(lw.current.aborted).toBe(true);
    clock.step(60_000);
    await flush();
    expect(lw.watches.length).toBe(1);
  });

  it("stop() during a LIST returns at once and drops what the LIST brings", async () => {
    const { lw, seen, r } = setup();
    let release!: (v: { metadata: { resourceVersion: string }; items: Obj[] }) => void;
    lw.list = () => new Promise((resolve) => (release = resolve));
    r.run();
    await flush();
    await r.stop();
    release({ metadata: { resourceVersion: "10" }, items: [obj("a", "1")] });
    await flush();
    expect(seen).toEqual([]);
    expect(lw.watches.length).toBe(0);
  });
});
