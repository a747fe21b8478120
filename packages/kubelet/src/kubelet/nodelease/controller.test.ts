import { KubeConfig } from "@kubernetes/client-node";
import { FakeClock } from "@servicenet/component-base/clock";
import { eventually, FakeAPIServer } from "@servicenet/testing";
import { afterEach, describe, expect, it } from "vitest";
import { NodeLeaseController } from "./controller.ts";

let server: FakeAPIServer | undefined;
let controller: NodeLeaseController | undefined;
afterEach(async () => {
  controller?.stop();
  await server?.stop();
});

async function setup(nodes: number) {
  server = new FakeAPIServer();
  const kc = new KubeConfig();
  kc.loadFromClusterAndUser({ name: "fake", server: await server.start(), skipTLSVerify: true }, { name: "u", token: "t" });
  const clock = new FakeClock(Date.parse("2026-01-01T00:00:00Z"));
  controller = new NodeLeaseController({ kubeConfig: kc, clock });
  for (let i = 0; i < nodes; i++) controller.add(`node-${i}`, `uid-${i}`);
  const writes = (method: string) => server!.writes.filter((a) => a.method === method && a.resource.name === "leases");
  /** One renew interval in its 100 ticks, waiting for each tick's writes. */
  const interval = async () => {
    for (let t = 0; t < 100; t++) {
      const before = server!.writes.length;
      const expected = before + Math.ceil(Math.max(0, nodes - t) / 100);
      clock.step(100);
      await eventually(() => server!.writes.length >= expected, { what: `tick ${t}'s lease writes`, intervalMs: 1 });
    }
    // Every answer is in before the next interval, or a Node still in flight would skip its turn.
    await eventually(() => controller!.inFlight === 0, { what: "the interval's answers", intervalMs: 1 });
  };
  return { clock, controller, writes, interval, server };
}

describe("NodeLeaseController (pkg/kubelet/nodelease, kwok's one timer for all Nodes)", () => {
  it("renews every Node's Lease once per interval from one timer", async () => {
    const { clock, controller: c, writes, interval } = await setup(250);
    c.start();
    expect(clock.waiters()).toBe(1);
    await interval();
    // First round: each Node's Lease created once, owned by its Node.
    const created = writes("POST");
    expect(created).toHaveLength(250);
    expect(new Set(created.map((a) => (a.body as { metadata: { name: string } }).metadata.name)).size).toBe(250);
    expect(created[0]?.body).toMatchObject({
      metadata: { name: "node-0", namespace: "kube-node-lease", ownerReferences: [{ kind: "Node", name: "node-0", uid: "uid-0" }] },
      spec: { holderIdentity: "node-0", leaseDurationSeconds: 40, renewTime: "2026-01-01T00:00:00.100000Z" },
    });
    await interval();
    // Second round: an update of each, carrying the resourceVersion the create returned.
    const updated = writes("PUT");
    expect(updated).toHaveLength(250);
    expect(updated.every((a) => typeof (a.body as { metadata: { resourceVersion?: string } }).metadata.resourceVersion === "string")).toBe(
      true,
    );
    expect(updated[0]?.body).toMatchObject({ spec: { renewTime: "2026-01-01T00:00:10.100000Z" } });
    expect(clock.waiters()).toBe(1);
    await eventually(() => c.renewals === 500, { what: "500 renewals" });
  });

  it("after a conflict, reads the Lease again and renews it in the next round", async () => {
    const { controller: c, writes, interval, server: s } = await setup(1);
    c.start();
    await interval();
    // Someone else wrote the Lease: the renewal's resourceVersion is stale.
    const lease = s.tracker.get(s.writes[0]!.resource, "kube-node-lease", "node-0");
    s.tracker.update(s.writes[0]!.resource, { ...lease, spec: { holderIdentity: "other" } }, "kube-node-lease", "node-0");
    await interval();
    await eventually(() => s.actions.at(-1)?.method === "PUT", { what: "the refused PUT" });
    expect(c.renewals).toBe(1);
    await interval();
    // A create (AlreadyExists), a read of the Lease, and the update with its resourceVersion.
    await eventually(() => c.renewals === 2, { what: "the renewal after the conflict" });
    expect(writes("POST")).toHaveLength(2);
    expect(writes("PUT")).toHaveLength(2);
    const renewed = s.tracker.get(s.writes[0]!.resource, "kube-node-lease", "node-0") as {
      spec: { holderIdentity: string; renewTime: string };
    };
    expect(renewed.spec).toMatchObject({ holderIdentity: "node-0", renewTime: "2026-01-01T00:00:20.100000Z" });
  });

  it("stop leaves no timer behind", async () => {
    const { clock, controller: c } = await setup(3);
    c.start();
    c.stop();
    expect(clock.waiters()).toBe(0);
  });
});
