/**
 * Upstream fairqueuing/queueset/queueset_test.go: rejection when the queue is full (TestQueueFull
 * rows of TestNoRestraint's neighbours), the Reject limit response, TestTimeout, TestContextCancel,
 * fair dispatch between flows (TestBaseline/TestSeparations in miniature) and wide requests.
 */
import { describe, expect, it } from "vitest";
import { FakeClock } from "@servicenet/component-base/clock";
import { QueueSet } from "./queueset.ts";
import type { Admission } from "./types.ts";
import type { WorkEstimate } from "../../request/width.ts";

const one: WorkEstimate = { initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0 };
const cfg = (queues: number, handSize: number, queueLengthLimit: number) => ({ name: "pl", queues, handSize, queueLengthLimit });

function admitted(a: Admission | Promise<Admission>): Extract<Admission, { admitted: true }> {
  if (a instanceof Promise || !a.admitted) throw new Error(`not admitted at once: ${JSON.stringify(a)}`);
  return a;
}

describe("QueueSet", () => {
  it("queues behind the concurrency limit and rejects with queue-full when the queue is at its length limit", async () => {
    const qs = new QueueSet(cfg(1, 1, 1), 1, new FakeClock());
    const first = admitted(qs.startRequest(1n, one, 1000));
    const second = qs.startRequest(1n, one, 1000);
    expect(second).toBeInstanceOf(Promise);
    expect(qs.startRequest(1n, one, 1000)).toEqual({ admitted: false, reason: "queue-full", waitedMs: 0 });
    first.finish();
    const a = await second;
    expect(a.admitted).toBe(true);
    expect(qs.counts).toEqual({
      requestsWaiting: 0,
      seatsWaiting: 0,
      requestsExecuting: 1,
      seatsInUse: 1,
      dispatched: 2,
      rejected: 1,
      timedOut: 0,
      cancelled: 0,
    });
  });

  it("the Reject limit response answers at once with concurrency-limit", () => {
    const qs = new QueueSet(cfg(0, 0, 0), 2, new FakeClock());
    admitted(qs.startRequest(1n, one, 1000));
    admitted(qs.startRequest(2n, one, 1000));
    expect(qs.startRequest(3n, one, 1000)).toEqual({ admitted: false, reason: "concurrency-limit", waitedMs: 0 });
  });

  it("TestTimeout: a request queued past its wait limit is rejected with time-out", async () => {
    const clock = new FakeClock();
    const qs = new QueueSet(cfg(4, 2, 10), 1, clock);
    admitted(qs.startRequest(1n, one, 1000));
    const waiting = qs.startRequest(2n, one, 1000);
    clock.step(999);
    expect(qs.counts.requestsWaiting).toBe(1);
    clock.step(1);
    expect(await waiting).toEqual({ admitted: false, reason: "time-out", waitedMs: 1000 });
    expect(qs.counts.requestsWaiting).toBe(0);
  });

  it("TestContextCancel: a queued request whose client leaves is removed as cancelled", async () => {
    const qs = new QueueSet(cfg(4, 2, 10), 1, new FakeClock());
    admitted(qs.startRequest(1n, one, 1000));
    const ac = new AbortController();
    const waiting = qs.startRequest(2n, one, 1000, ac.signal);
    ac.abort();
    expect(await waiting).toMatchObject({ admitted: false, reason: "cancelled" });
    expect(qs.counts).toMatchObject({ requestsWaiting: 0, requestsExecuting: 1 });
  });

  it("dispatches a quiet flow before a flood queued ahead of it", async () => {
    const clock = new FakeClock();
    // handSize 1 of 2 queues: flow hash 0 deals queue 0, hash 1 queue 1.
    const qs = new QueueSet(cfg(2, 1, 100), 1, clock);
    const order: string[] = [];
    const run = (flow: bigint, name: string): Promise<void> =>
      Promise.resolve(qs.startRequest(flow, one, 60_000)).then((a) => {
        if (!a.admitted) throw new Error(a.reason);
        order.push(name);
        clock.setTimeout(() => a.finish(), 100);
      });
    const all = [...Array.from({ length: 10 }, (_, i) => run(0n, `flood-${i}`)), run(1n, "quiet")];
    for (let i = 0; i < 12; i++) {
      await Promise.resolve();
      clock.step(100);
      await new Promise((r) => setImmediate(r));
    }
    await Promise.all(all);
    expect(order.indexOf("quiet")).toBeLessThanOrEqual(2);
  });

  it("a request wider than the limit runs alone", async () => {
    const qs = new QueueSet(cfg(4, 2, 10), 2, new FakeClock());
    const narrow = admitted(qs.startRequest(1n, one, 1000));
    const wide = qs.startRequest(2n, { initialSeats: 5, finalSeats: 0, additionalLatencyMs: 0 }, 1000);
    expect(wide).toBeInstanceOf(Promise);
    narrow.finish();
    expect((await wide).admitted).toBe(true);
    expect(qs.counts.seatsInUse).toBe(5);
  });

  it("final seats stay in use for the additional latency", () => {
    const clock = new FakeClock();
    const qs = new QueueSet(cfg(4, 2, 10), 4, clock);
    const a = admitted(qs.startRequest(1n, { initialSeats: 1, finalSeats: 3, additionalLatencyMs: 5 }, 1000));
    expect(qs.counts.seatsInUse).toBe(3);
    a.finish();
    expect(qs.counts.seatsInUse).toBe(3);
    clock.step(5);
    expect(qs.counts.seatsInUse).toBe(0);
  });
});
