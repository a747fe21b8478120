/**
 * Seat borrowing (util/flowcontrol/exempt_borrowing_test.go's TestUpdateBorrowing, and the bounds
 * of finishQueueSetReconfigsLocked): how each level's current limit follows seat demand.
 */
import { describe, expect, it } from "vitest";
import { FakeClock } from "@servicenet/component-base/clock";
import {
  mandatoryPriorityLevelConfigurations,
  setDefaultsPriorityLevelConfiguration,
  suggestedPriorityLevelConfigurations,
  type PriorityLevelConfiguration,
} from "@servicenet/api/flowcontrol/v1";
import { borrowingAdjustmentPeriodMs, concurrencyBounds, updateSeatDemandStats } from "./apf-borrowing.ts";
import { APFConfig } from "./apf-controller.ts";

function bootstrapLevel(name: string): PriorityLevelConfiguration {
  const pl = [...mandatoryPriorityLevelConfigurations(), ...suggestedPriorityLevelConfigurations()].find((p) => p.metadata.name === name)!;
  setDefaultsPriorityLevelConfiguration(pl);
  return pl;
}

describe("TestUpdateBorrowing (exempt borrowing)", () => {
  const clk = new FakeClock();
  const plcs = ["workload-high", "exempt", "workload-low", "catch-all"].map(bootstrapLevel);
  const shares = (n: string): number => bootstrapLevel(n).spec!.limited!.nominalConcurrencyShares!;
  const serverCL = (shares("workload-high") + shares("workload-low") + shares("catch-all")) * 6;
  const c = new APFConfig(serverCL, clk);
  c.update([], plcs);
  const exempt = c.priorityLevel("exempt")!;
  const hi = c.priorityLevel("workload-high")!;
  const mid = c.priorityLevel("workload-low")!;
  const lo = c.priorityLevel("catch-all")!;
  const adjust = (): void => {
    clk.step(borrowingAdjustmentPeriodMs);
    c.updateBorrowing();
  };

  it("has no rounding in the nominal limits", () => {
    expect(hi.nominalCL + mid.nominalCL + lo.nominalCL + exempt.nominalCL).toBe(serverCL);
  });

  it("scenario 1: exempt borrows so much that each other level is left its minCL", () => {
    for (const l of [exempt, hi, mid, lo]) l.seatDemand.set(serverCL + 100);
    adjust();
    expect(exempt.currentCL).toBe(serverCL + 100);
    expect([hi.currentCL, mid.currentCL, lo.currentCL]).toEqual([hi.minCL, mid.minCL, lo.minCL]);
  });

  it("scenario 2: the others want more than there is and get halfway between minCL and nominal", () => {
    const want = [hi, mid, lo].map((l) => Math.floor((l.nominalCL + l.minCL) / 2));
    const expectedExempt = serverCL - want.reduce((s, x) => s + x, 0);
    exempt.seatDemand.set(expectedExempt);
    adjust();
    adjust();
    expect(exempt.currentCL).toBe(expectedExempt);
    expect([hi.currentCL, mid.currentCL, lo.currentCL]).toEqual(want);
  });

  it("scenario 3: only the level with no demand lends, and exempt borrows all of it", () => {
    const expectedExempt = serverCL - (hi.nominalCL + mid.minCL + lo.nominalCL);
    exempt.seatDemand.set(expectedExempt);
    mid.seatDemand.set(1);
    adjust();
    adjust();
    expect(exempt.currentCL).toBe(expectedExempt);
    expect([hi.currentCL, mid.currentCL, lo.currentCL]).toEqual([hi.nominalCL, mid.minCL, lo.nominalCL]);
    expect(mid.queueSet!.concurrencyLimit).toBe(mid.minCL);
  });
});

describe("concurrencyBounds (finishQueueSetReconfigsLocked)", () => {
  it.each<[string, number, number | undefined, number | undefined, number, number]>([
    // name, nominalCL, lendablePercent, borrowingLimitPercent, minCL, maxCL (server 600)
    ["workload-low", 245, 90, undefined, 24, 845],
    ["global-default", 49, 50, undefined, 24, 649],
    ["node-high", 98, 25, undefined, 73, 698],
    ["system", 74, 33, undefined, 50, 674],
    ["catch-all", 13, 0, undefined, 13, 613],
    ["borrowing limited", 100, 0, 50, 100, 150],
    ["neither set", 10, undefined, 0, 10, 10],
  ])("%s", (_name, nominal, lendable, borrowing, minCL, maxCL) => {
    const b = concurrencyBounds(nominal, lendable, borrowing, 600);
    expect([b.minCL, b.maxCL]).toEqual([minCL, maxCL]);
  });

  it("the bootstrap levels lend as configured", () => {
    const c = new APFConfig(600, new FakeClock());
    c.update(
      [],
      [...mandatoryPriorityLevelConfigurations(), ...suggestedPriorityLevelConfigurations()].map((p) => {
        setDefaultsPriorityLevelConfiguration(p);
        return p;
      }),
    );
    const got = Object.fromEntries(c.priorityLevels.map((l) => [l.name, [l.nominalCL, l.minCL]]));
    expect(got).toEqual({
      exempt: [0, 0],
      "catch-all": [13, 13],
      system: [74, 50],
      "node-high": [98, 73],
      "leader-election": [25, 25],
      "workload-high": [98, 49],
      "workload-low": [245, 24],
      "global-default": [49, 24],
    });
  });
});

describe("seatDemandStats.update", () => {
  it("smooths toward the envelope slowly and jumps up to it at once", () => {
    const stats = { avg: 0, stdDev: 0, highWatermark: 0, smoothed: 0 };
    updateSeatDemandStats(stats, { durationSeconds: 10, average: 100, deviation: 10, min: 90, max: 110 });
    expect(stats).toEqual({ avg: 100, stdDev: 10, highWatermark: 110, smoothed: 110 });
    updateSeatDemandStats(stats, { durationSeconds: 10, average: 0, deviation: NaN, min: 0, max: 0 });
    expect(stats.smoothed).toBeCloseTo(0.977 * 110, 9);
    expect([stats.avg, stats.stdDev, stats.highWatermark]).toEqual([0, 0, 0]);
    updateSeatDemandStats(stats, { durationSeconds: 0, average: NaN, deviation: NaN, min: 5, max: 5 });
    expect(stats.highWatermark).toBe(5);
    expect(stats.smoothed).toBeCloseTo(0.977 * 110, 9);
  });
});
