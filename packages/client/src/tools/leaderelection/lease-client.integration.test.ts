/** LeaseLock through client-node's CoordinationV1Api against an in-test fake apiserver. */
import { KubeConfig } from "@kubernetes/client-node";
import { FakeAPIServer } from "@servicenet/testing";
import { afterEach, describe, expect, it } from "vitest";
import { FakeClock } from "@servicenet/component-base/clock";
import { LeaderElector } from "./leader-election.ts";
import { leaseLock } from "./lease-client.ts";

let server: FakeAPIServer | undefined;
afterEach(async () => server?.stop());

describe("leaseLock over HTTP", () => {
  it("creates the Lease, renews it with its resourceVersion, and a stale writer gets 409", async () => {
    server = new FakeAPIServer();
    const kc = new KubeConfig();
    kc.loadFromClusterAndUser({ name: "fake", server: await server.start(), skipTLSVerify: true }, { name: "u", token: "t" });
    const clock = new FakeClock(Date.parse("2026-01-01T00:00:00Z"));
    const lock = leaseLock(kc, "kube-system", "kube-controller-manager");
    const a = new LeaderElector({ client: lock, identity: "a", clock });
    expect(await a.tryAcquireOrRenew()).toBe(true);
    const created = server.writes[0]!;
    expect(created.method).toBe("POST");
    expect(created.body).toMatchObject({
      kind: "Lease",
      metadata: { name: "kube-controller-manager", namespace: "kube-system" },
      spec: { holderIdentity: "a", leaseDurationSeconds: 15, leaseTransitions: 0, renewTime: "2026-01-01T00:00:00.000000Z" },
    });
    clock.step(2000);
    expect(await a.tryAcquireOrRenew()).toBe(true);
    expect(server.writes[1]).toMatchObject({ method: "PUT", body: { spec: { renewTime: "2026-01-01T00:00:02.000000Z" } } });
    const got = await lock.get();
    await expect(lock.update({ ...got!.record, holderIdentity: "b" }, "1")).rejects.toMatchObject({ code: 409 });
    expect((await lock.get())?.record.holderIdentity).toBe("a");
  });
});
