/** fanOut: each subscriber gets exactly its range's events from its start revision, with receiver counts. */
import { describe, expect, it } from "vitest";
import { fanOut, type RangeSubscriber } from "./kv-fan-out.ts";
import type { KVEvent } from "./kv.ts";

const ev = (key: string, rev: number): KVEvent => ({
  type: "put",
  kv: { key, value: "{}", modRevision: rev, createRevision: rev },
  prev: null,
});

/** A subscriber recording what it got (keys@revision:receivers), batch by batch. */
function sub(start: string, end: string, from: number, onEvents?: (events: readonly KVEvent[]) => void) {
  const got: (readonly KVEvent[])[] = [];
  const s: RangeSubscriber = {
    start,
    end,
    from,
    handlers: {
      onEvents: (events) => {
        got.push(events);
        onEvents?.(events);
      },
      onError: () => {},
    },
  };
  const seen = (): string[] => got.flat().map((e) => `${e.kv.key}@${e.kv.modRevision}:${e.receivers ?? 1}`);
  return { s, got, seen };
}

const batch = [ev("/a/1", 10), ev("/b/1", 11), ev("/a/2", 12), ev("/a/3", 13)];

describe("fanOut", () => {
  it("delivers each range's events in order, counting every receiver of each event", () => {
    const [x, y, z] = [sub("/a/", "/a0", 1), sub("/a/", "/a0", 5), sub("/", "0", 1)];
    fanOut(batch, new Set([x.s, y.s, z.s]));
    expect(x.seen()).toEqual(["/a/1@10:3", "/a/2@12:3", "/a/3@13:3"]);
    expect(y.seen()).toEqual(x.seen());
    expect(z.seen()).toEqual(["/a/1@10:3", "/b/1@11:1", "/a/2@12:3", "/a/3@13:3"]);
    // Subscribers of one range share one array.
    expect(x.got[0]).toBe(y.got[0]);
  });

  it("gives a subscriber that started inside the batch only the events from its start", () => {
    const [early, late] = [sub("/a/", "/a0", 1), sub("/a/", "/a0", 12)];
    fanOut(batch, new Set([early.s, late.s]));
    expect(late.seen()).toEqual(["/a/2@12:2", "/a/3@13:2"]);
    expect(early.seen()).toEqual(["/a/1@10:1", "/a/2@12:2", "/a/3@13:2"]);
  });

  it("calls no one without events in its range, and nobody a handler removed meanwhile", () => {
    const subs = new Set<RangeSubscriber>();
    const victim = sub("/a/", "/a0", 1);
    const killer = sub("/a/", "/a0", 1, () => subs.delete(victim.s));
    const idle = sub("/c/", "/c0", 1);
    for (const x of [killer, victim, idle]) subs.add(x.s);
    fanOut(batch, subs);
    expect([killer.got.length, victim.got.length, idle.got.length]).toEqual([1, 0, 0]);
  });

  it("leaves the engine's own event objects unmarked", () => {
    const events = [ev("/a/1", 10)];
    fanOut(events, new Set([sub("/a/", "/a0", 1).s, sub("/a/", "/a0", 1).s]));
    expect(events[0]!.receivers).toBeUndefined();
  });
});
