/** TestIntegrator (fairqueuing/integrator_test.go): average, deviation and extremes over time. */
import { describe, expect, it } from "vitest";
import { FakeClock } from "@servicenet/component-base/clock";
import { Integrator } from "./integrator.ts";

describe("Integrator", () => {
  it("integrates a piecewise-constant value and starts over on reset", () => {
    const clk = new FakeClock();
    const igr = new Integrator(clk);
    igr.add(3);
    clk.step(1000);
    const results = igr.getResults();
    const rToo = igr.reset();
    expect(results).toEqual({ durationSeconds: 1, average: 3, deviation: 0, min: 0, max: 3 });
    expect(rToo).toEqual(results);
    igr.set(2);
    expect(igr.getResults()).toEqual({ durationSeconds: 0, average: NaN, deviation: NaN, min: 2, max: 3 });
    clk.step(1);
    igr.add(-1);
    clk.step(1);
    const r = igr.getResults();
    expect(r.durationSeconds).toBeCloseTo(0.002, 12);
    expect(r.average).toBeCloseTo(1.5, 9);
    expect(r.deviation).toBeCloseTo(0.5, 6);
    expect([r.min, r.max]).toEqual([1, 3]);
  });
});
