import { describe, expect, it } from "vitest";
import { FakeClock } from "@servicenet/component-base/clock";
import { decideLease, LeaderElector, type LeaseClient, type LeaseRecord, type ObservedLease } from "./leader-election.ts";

const t0 = 1_000_000;
const rec = (over: Partial<LeaseRecord>): LeaseRecord => ({
  holderIdentity: "b",
  leaseDurationSeconds: 15,
  acquireTime: t0,
  renewTime: t0,
  leaseTransitions: 3,
  ...over,
});

describe("decideLease", () => {
  it.each([
    ["no lease: create with us as holder", null, t0, t0 + 1, { action: "create", holder: "a", transitions: 0 }],
    ["held by b, observed 14.999 s ago: wait", rec({}), t0, t0 + 14_999, { action: "wait" }],
    ["held by b, observed 15 s ago: take over, transitions+1", rec({}), t0, t0 + 15_000, { action: "update", holder: "a", transitions: 4 }],
    [
      "released (empty holder): take over at once",
      rec({ holderIdentity: "" }),
      t0,
      t0 + 1,
      { action: "update", holder: "a", transitions: 4 },
    ],
    [
      "held by us: renew keeps acquireTime and transitions",
      rec({ holderIdentity: "a" }),
      t0,
      t0 + 2000,
      { action: "update", holder: "a", transitions: 3 },
    ],
  ] as const)("%s", (_name, current, observedAt, now, want) => {
    const d = decideLease({ current, identity: "a", now, leaseDurationSeconds: 15, observedAt });
    expect(d.action).toBe(want.action);
    if (d.action === "wait" || want.action === "wait") return;
    expect(d.record.holderIdentity).toBe(want.holder);
    expect(d.record.leaseTransitions).toBe(want.transitions);
    expect(d.record.renewTime).toBe(now);
    expect(d.record.acquireTime).toBe(current?.holderIdentity === "a" ? t0 : now);
  });

  it("measures expiry from local observation time, not the remote renewTime", () => {
    // renewTime is an hour old (skewed remote clock) but we only just saw the record: still wait.
    const d = decideLease({
      current: rec({ renewTime: t0 - 3600_000 }),
      identity: "a",
      now: t0 + 1000,
      leaseDurationSeconds: 15,
      observedAt: t0,
    });
    expect(d.action).toBe("wait");
  });
});

/** One Lease in memory with resourceVersion checks, like the apiserver's optimistic concurrency. */
function fakeLeaseStore() {
  let cur: ObservedLease | null = null;
  let rv = 0;
  const writes: string[] = [];
  const conflict = () => Object.assign(new Error("Conflict"), { code: 409 });
  const client = (): LeaseClient => ({
    get: async () => (cur === null ? null : structuredClone(cur)),
    create: async (record) => {
      if (cur !== null) throw conflict();
      writes.push(`create ${record.holderIdentity}`);
      return (cur = { record, resourceVersion: String(++rv) });
    },
    update: async (record, resourceVersion) => {
      if (cur === null || cur.resourceVersion !== resourceVersion) throw conflict();
      writes.push(`update ${record.holderIdentity || "<released>"}`);
      return (cur = { record, resourceVersion: String(++rv) });
    },
  });
  return { client, writes, current: () => cur, bumpRV: () => cur && (cur = { ...cur, resourceVersion: String(++rv) }) };
}

describe("LeaderElector", () => {
  it("a second candidate acquires only after the first one's lease expires", async () => {
    const clock = new FakeClock(t0);
    const store = fakeLeaseStore();
    const a = new LeaderElector({ client: store.client(), identity: "a", clock });
    const b = new LeaderElector({ client: store.client(), identity: "b", clock });
    expect(await a.tryAcquireOrRenew()).toBe(true);
    expect(await b.tryAcquireOrRenew()).toBe(false); // b first observes a's record now
    clock.step(14_000);
    expect(await b.tryAcquireOrRenew()).toBe(false);
    clock.step(1_000); // 15 s since b observed it; a never renewed
    expect(await b.tryAcquireOrRenew()).toBe(true);
    expect(store.current()?.record).toMatchObject({ holderIdentity: "b", leaseTransitions: 1 });
    expect(await a.tryAcquireOrRenew()).toBe(false);
  });

  it("a renewal resets the observation time of other candidates", async () => {
    const clock = new FakeClock(t0);
    const store = fakeLeaseStore();
    const a = new LeaderElector({ client: store.client(), identity: "a", clock });
    const b = new LeaderElector({ client: store.client(), identity: "b", clock });
    await a.tryAcquireOrRenew();
    await b.tryAcquireOrRenew();
    clock.step(10_000);
    expect(await a.tryAcquireOrRenew()).toBe(true); // renew changes renewTime
    clock.step(10_000);
    expect(await b.tryAcquireOrRenew()).toBe(false); // only 10 s since b saw the renewed record
  });

  it("a write against a stale resourceVersion loses (409 counts as not acquired)", async () => {
    const clock = new FakeClock(t0);
    const store = fakeLeaseStore();
    const a = new LeaderElector({ client: store.client(), identity: "a", clock });
    await a.tryAcquireOrRenew();
    const stale: LeaseClient = { ...store.client(), get: async () => ({ ...structuredClone(store.current()!), resourceVersion: "0" }) };
    const c = new LeaderElector({ client: stale, identity: "c", clock });
    clock.step(20_000);
    expect(await c.tryAcquireOrRenew()).toBe(false);
    expect(store.current()?.record.holderIdentity).toBe("a");
  });

  it("release empties the holder so the next candidate takes over immediately", async () => {
    const clock = new FakeClock(t0);
    const store = fakeLeaseStore();
    const a = new LeaderElector({ client: store.client(), identity: "a", clock });
    const b = new LeaderElector({ client: store.client(), identity: "b", clock });
    await a.tryAcquireOrRenew();
    expect(await a.release()).toBe(true);
    expect(store.current()?.record).toMatchObject({ holderIdentity: "", leaseDurationSeconds: 1 });
    expect(await b.tryAcquireOrRenew()).toBe(true);
  });

  it("rejects timings client-go rejects", () => {
    const client = fakeLeaseStore().client();
    expect(() => new LeaderElector({ client, identity: "a", leaseDurationSeconds: 10, renewDeadlineSeconds: 10 })).toThrow(/leaseDuration/);
    expect(() => new LeaderElector({ client, identity: "a", renewDeadlineSeconds: 2, retryPeriodSeconds: 2 })).toThrow(/renewDeadline/);
  });

  it("writes whole seconds into the Lease, as client-go's int32(LeaseDuration / time.Second)", async () => {
    const store = fakeLeaseStore();
    const a = new LeaderElector({
      client: store.client(),
      identity: "a",
      clock: new FakeClock(t0),
      leaseDurationSeconds: 3.5,
      renewDeadlineSeconds: 2,
      retryPeriodSeconds: 0.5,
    });
    expect(await a.tryAcquireOrRenew()).toBe(true);
    expect(store.current()?.record.leaseDurationSeconds).toBe(3);
  });

  it("run: leads, stops leading when the lease is taken, and reports lost", async () => {
    const clock = new FakeClock(t0);
    const store = fakeLeaseStore();
    const a = new LeaderElector({ client: store.client(), identity: "a", clock });
    let leading: AbortSignal | undefined;
    const done = a.run(new AbortController().signal, (s) => (leading = s));
    await flush();
    expect(leading?.aborted).toBe(false);
    // Another process force-writes the lease; a's next renew sees a foreign holder.
    const cur = store.current()!;
    await store.client().update({ ...cur.record, holderIdentity: "z" }, cur.resourceVersion);
    clock.step(2000);
    await flush();
    expect(await done).toBe("lost");
    expect(leading?.aborted).toBe(true);
  });
});

async function flush(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}
