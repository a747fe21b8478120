import { describe, expect, it } from "vitest";
import { FakeClock } from "@servicenet/component-base/clock";
import { LeaderElector, type LeaseClient, type ObservedLease } from "./leader-election.ts";
import { LeaderHealthzAdaptor } from "./healthz-adaptor.ts";

function memoryLease(): LeaseClient {
  let cur: ObservedLease | null = null;
  let rv = 0;
  return {
    get: () => Promise.resolve(cur),
    create: (record) => Promise.resolve((cur = { record, resourceVersion: String(++rv) })),
    update: (record) => Promise.resolve((cur = { record, resourceVersion: String(++rv) })),
  };
}

describe("LeaderHealthzAdaptor (upstream healthzadaptor_test.go)", () => {
  it("is healthy before the election, as a standby and while renewing; fails a leader past lease duration + timeout", async () => {
    const clock = new FakeClock(1_000_000);
    const adaptor = new LeaderHealthzAdaptor(20_000);
    expect(adaptor.name).toBe("leaderElection");
    expect(() => adaptor.check()).not.toThrow();
    const client = memoryLease();
    const le = new LeaderElector({ client, identity: "a", clock, name: "kube-controller-manager" });
    const standby = new LeaderElector({ client, identity: "b", clock });
    adaptor.setLeaderElection(le);
    expect(await le.tryAcquireOrRenew()).toBe(true);
    expect(await standby.tryAcquireOrRenew()).toBe(false);
    clock.step(35_000);
    expect(() => adaptor.check()).not.toThrow();
    expect(() => standby.check(20_000)).not.toThrow();
    clock.step(1);
    expect(() => adaptor.check()).toThrow("failed election to renew leadership on lease kube-controller-manager");
    expect(await le.tryAcquireOrRenew()).toBe(true);
    expect(() => adaptor.check()).not.toThrow();
  });
});
