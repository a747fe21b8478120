import { describe, expect, it } from "vitest";
import type { KubeObject, WatchEvent } from "./interfaces.ts";
import { WatchStream } from "./watch-stream.ts";

const obj = (name: string): KubeObject => ({ metadata: { name, resourceVersion: "1" } });
const added = (name: string): WatchEvent => ({ type: "ADDED", object: obj(name) });
const names = (evs: WatchEvent[]): string[] => evs.map((e) => (e.type === "ERROR" ? "ERROR" : (e.object.metadata.name ?? e.type)));

describe("WatchStream.consume", () => {
  it("hands over the buffered events first, then each pushed event synchronously", async () => {
    const s = new WatchStream();
    s.push(added("a"));
    s.push(added("b"));
    const got: WatchEvent[] = [];
    const done = s.consume((ev) => got.push(ev));
    expect(names(got)).toEqual(["a", "b"]);
    s.push(added("c"));
    expect(names(got)).toEqual(["a", "b", "c"]); // no await in between
    s.end();
    await done;
    s.push(added("d"));
    expect(names(got)).toEqual(["a", "b", "c"]);
  });

  it("ends after an ERROR event and runs the cleanups", async () => {
    const s = new WatchStream();
    let cleaned = 0;
    s.onEnd(() => cleaned++);
    const got: WatchEvent[] = [];
    const done = s.consume((ev) => got.push(ev));
    s.push({ type: "ERROR", object: { kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure", code: 410 } as never });
    await done;
    expect(names(got)).toEqual(["ERROR"]);
    expect([s.closed, cleaned]).toEqual([true, 1]);
  });

  it("resolves when the signal aborts, delivering what was buffered before", async () => {
    const ac = new AbortController();
    const s = new WatchStream({ signal: ac.signal });
    s.push(added("a"));
    ac.abort();
    const got: WatchEvent[] = [];
    await s.consume((ev) => got.push(ev));
    expect(names(got)).toEqual(["a"]);
  });

  it("rejects and ends the stream when the listener throws, dropping the rest", async () => {
    const s = new WatchStream();
    let cleaned = 0;
    s.onEnd(() => cleaned++);
    s.push(added("a"));
    s.push(added("boom"));
    s.push(added("c"));
    const got: string[] = [];
    const done = s.consume((ev) => {
      if (ev.type !== "ERROR" && ev.object.metadata.name === "boom") throw new Error("encode failed");
      got.push(ev.type);
    });
    await expect(done).rejects.toThrow("encode failed");
    expect([got, s.closed, cleaned]).toEqual([["ADDED"], true, 1]);
  });

  it("decorates objects, not bookmarks or errors, before any consumer sees them", async () => {
    const s = new WatchStream({ decorate: (o) => void (o.metadata.labels = { decorated: "yes" }) });
    s.push(added("buffered"));
    s.push({ type: "BOOKMARK", object: { metadata: { resourceVersion: "9" } } });
    const it1 = await s.next();
    expect(it1.value?.object.metadata.labels).toEqual({ decorated: "yes" });
    expect((await s.next()).value?.object.metadata.labels).toBeUndefined();
    const got: WatchEvent[] = [];
    void s.consume((ev) => got.push(ev));
    s.push({ type: "MODIFIED", object: obj("live") });
    expect(got[0]?.type === "MODIFIED" && got[0].object.metadata.labels).toEqual({ decorated: "yes" });
    s.end();
  });
});
