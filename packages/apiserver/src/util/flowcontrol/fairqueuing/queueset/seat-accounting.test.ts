import { describe, expect, it } from "vitest";
import { SeatAccounting } from "./seat-accounting.ts";

describe("SeatAccounting", () => {
  it.each([
    // [limit, seats in use, requests executing, seats asked, fits]
    [10, 0, 0, 10, true],
    [10, 5, 2, 5, true],
    [10, 6, 2, 5, false],
    // canAccommodateSeatsLocked: wider than the level, it runs only alone.
    [10, 0, 0, 11, true],
    [10, 1, 1, 11, false],
  ])("limit %i, %i seats in use by %i: %i seats fit = %s", (limit, inUse, executing, seats, fits) => {
    const s = new SeatAccounting(limit);
    s.counts.seatsInUse = inUse;
    s.counts.requestsExecuting = executing;
    expect(s.canAccommodate(seats)).toBe(fits);
  });

  it("reports seats in use plus waiting to the demand gauge, and the demand the virtual clock sees is capped at the limit", () => {
    const demand: number[] = [];
    const s = new SeatAccounting(4, { set: (n) => demand.push(n) });
    s.enqueued(3);
    s.enqueued(2);
    expect(s.effectiveDemand).toBe(4);
    s.dequeued(3);
    s.started(3);
    expect(s.saturated).toBe(false);
    s.concurrencyLimit = 3; // borrowing took a seat away
    expect(s.saturated).toBe(true);
    s.finished();
    s.released(3);
    expect(demand).toEqual([3, 5, 5, 2]);
    expect(s.counts).toMatchObject({ requestsWaiting: 1, seatsWaiting: 2, requestsExecuting: 0, seatsInUse: 0, dispatched: 1 });
  });

  it("counts rejections by reason", () => {
    const s = new SeatAccounting(1);
    for (const r of ["time-out", "cancelled", "queue-full", "concurrency-limit"] as const) s.rejected(r);
    expect(s.counts).toMatchObject({ timedOut: 1, cancelled: 1, rejected: 2 });
  });
});
