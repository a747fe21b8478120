/**
 * A busy level borrows a quiet level's seats and gives them back when that level gets busy
 * (util/flowcontrol/borrowing_test.go's idea), through the dispatcher, the periodic adjustment on
 * a fake clock, and the current_limit_seats metric.
 */
import { describe, expect, it } from "vitest";
import { FakeClock } from "@servicenet/component-base/clock";
import type { MetricsRegistry } from "@servicenet/component-base/metrics";
import { borrowingAdjustmentPeriodMs } from "./apf-borrowing.ts";
import { FlowControl } from "./apf-filter.ts";
import type { RequestDigest } from "./match.ts";
import { newBootstrapFlowControl } from "./testing.ts";

const get = { isResourceRequest: true, verb: "get", apiGroup: "", resource: "services", query: new URLSearchParams() };

function digest(user: string, groups: string[]): RequestDigest {
  return {
    user: { name: user, uid: "", groups: [...groups, "system:authenticated"] },
    requestInfo: { isResourceRequest: true, verb: "get", apiGroup: "", namespace: "ns", resource: "services", subresource: "", name: "x" },
  };
}

function newDispatcher(clock: FakeClock): { fc: FlowControl; registry: MetricsRegistry } {
  return newBootstrapFlowControl({ clock });
}

/** Starts `n` requests that run until `release` is called; counts how many run. */
function flood(fc: FlowControl, n: number, who: (i: number) => RequestDigest): { running: () => number; release: () => void } {
  let running = 0;
  const gates: (() => void)[] = [];
  for (let i = 0; i < n; i++)
    void fc.handle(who(i), get, {
      note: () => {},
      exec: () =>
        new Promise<void>((resolve) => {
          running++;
          gates.push(resolve);
        }),
    });
  return { running: () => running, release: () => gates.splice(0).forEach((g) => g()) };
}

const settle = (): Promise<void> => new Promise((r) => setImmediate(r));

describe("seat borrowing between priority levels", () => {
  it("a busy level borrows the quiet levels' seats and gives them back when a lender gets busy", async () => {
    const clock = new FakeClock();
    const { fc, registry } = newDispatcher(clock);
    const stop = fc.runBorrowing();
    const low = fc.config.priorityLevel("workload-low")!;
    const global = fc.config.priorityLevel("global-default")!;
    // Service accounts land in workload-low (nominal 245 of 600).
    const sa = flood(fc, 400, (i) => digest(`system:serviceaccount:ns:sa${i}`, ["system:serviceaccounts"]));
    await settle();
    const before = sa.running();
    expect(before).toBe(low.currentCL);
    expect(before).toBeLessThan(low.nominalCL);

    clock.step(borrowingAdjustmentPeriodMs);
    await settle();
    // Its demand (400) is above its nominal limit while the others use nothing: it borrows.
    expect(low.currentCL).toBeGreaterThan(low.nominalCL);
    expect(sa.running()).toBe(low.currentCL);
    expect(low.queueSet!.concurrencyLimit).toBe(low.currentCL);
    expect(registry.render()).toContain(`apiserver_flowcontrol_current_limit_seats{priority_level="workload-low"} ${low.currentCL}`);
    const borrowed = low.currentCL;

    // Plain users land in global-default, which lent its seats: it is held to what it has now.
    const users = flood(fc, 100, (i) => digest(`user${i}`, []));
    await settle();
    expect(users.running()).toBe(global.currentCL);
    expect(global.currentCL).toBeLessThan(global.nominalCL);

    clock.step(borrowingAdjustmentPeriodMs);
    await settle();
    // Its demand now reaches its nominal limit, which it gets back at least; the borrower gives way.
    expect(global.currentCL).toBeGreaterThanOrEqual(global.nominalCL);
    expect(users.running()).toBe(global.currentCL);
    expect(low.currentCL).toBeLessThan(borrowed);
    expect(low.currentCL).toBeGreaterThanOrEqual(low.nominalCL);

    stop();
    sa.release();
    users.release();
    await settle();
    expect(clock.waiters()).toBe(0);
  });
});
