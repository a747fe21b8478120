import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
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
  /** `n` ticks of 100 ms, each one's renewals answered before the next (the next renewal slides after the answer). */
  const ticks = async (n: number) => {
    for (let t = 0; t < n; t++) {
      clock.step(100);
      await eventually(() => controller!.inFlight === 0, { what: `tick ${t}'s answers`, intervalMs: 1 });
    }
  };
  return { clock, controller, writes, ticks, server };
}

describe("NodeLeaseController (pkg/kubelet/nodelease, kwok's one timer for all Nodes)", () => {
  it("remove: a removed Node's Lease is never renewed again (its kubelet is gone); the others are", async () => {
    const { controller: c, writes, ticks } = await setup(3);
    c.start();
    await ticks(100);
    c.remove("node-1");
    await ticks(200);
    const names = (m: string) => writes(m).map((a) => (a.body as { metadata: { name: string } }).metadata.name);
    expect(names("POST").sort()).toEqual(["node-0", "node-1", "node-2"]);
    expect(names("PUT").sort()).toEqual(["node-0", "node-0", "node-2", "node-2"]);
  });

  it("renews every Node's Lease once per interval from one timer", async () => {
    const { clock, controller: c, writes, ticks } = await setup(250);
    c.start();
    expect(clock.waiters()).toBe(1);
    await ticks(100);
    // First round: each Node's Lease created once, owned by its Node.
    const created = writes("POST");
    expect(created).toHaveLength(250);
    expect(new Set(created.map((a) => (a.body as { metadata: { name: string } }).metadata.name)).size).toBe(250);
    expect(created[0]?.body).toMatchObject({
      metadata: { name: "node-0", namespace: "kube-node-lease", ownerReferences: [{ kind: "Node", name: "node-0", uid: "uid-0" }] },
      spec: { holderIdentity: "node-0", leaseDurationSeconds: 40, renewTime: "2026-01-01T00:00:00.100000Z" },
    });
    // Second round: an update of each one interval after its first was answered (at once here),
    // carrying the resourceVersion the create returned.
    await ticks(100);
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
    const { controller: c, writes, ticks, server: s } = await setup(1);
    c.start();
    await ticks(100);
    // Someone else wrote the Lease: the renewal's resourceVersion is stale.
    const lease = s.tracker.get(s.writes[0]!.resource, "kube-node-lease", "node-0");
    s.tracker.update(s.writes[0]!.resource, { ...lease, spec: { holderIdentity: "other" } }, "kube-node-lease", "node-0");
    await ticks(100);
    await eventually(() => s.actions.at(-1)?.method === "PUT", { what: "the refused PUT" });
    expect(c.renewals).toBe(1);
    await ticks(100);
    // A create (AlreadyExists), a read of the Lease, and the update with its resourceVersion.
    await eventually(() => c.renewals === 2, { what: "the renewal after the conflict" });
    expect(writes("POST")).toHaveLength(2);
    expect(writes("PUT")).toHaveLength(2);
    const renewed = s.tracker.get(s.writes[0]!.resource, "kube-node-lease", "node-0") as {
      spec: { holderIdentity: string; renewTime: string };
    };
    expect(renewed.spec).toMatchObject({ holderIdentity: "node-0", renewTime: "2026-01-01T00:00:20.100000Z" });
  });

  it("renews one interval after the last renewal ended: a slow apiserver gets one at a time, every 10 s + its latency", async () => {
    // An apiserver that answers the Lease writes only when told to.
    const held: (() => void)[] = [];
    const arrived: number[] = [];
    const clock = new FakeClock(Date.parse("2026-01-01T00:00:00Z"));
    const slow = createServer((req: IncomingMessage, res: ServerResponse) => {
      arrived.push(clock.now());
      req.resume();
      held.push(() => {
        res.writeHead(req.method === "POST" ? 201 : 200, { "Content-Type": "application/json" });
        res.end(
          JSON.stringify({ kind: "Lease", apiVersion: "coordination.k8s.io/v1", metadata: { resourceVersion: String(arrived.length) } }),
        );
      });
    });
    await new Promise<void>((r) => slow.listen(0, "127.0.0.1", r));
    try {
      const kc = new KubeConfig();
      const url = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
      kc.loadFromClusterAndUser({ name: "slow", server: url, skipTLSVerify: true }, { name: "u", token: "t" });
      controller = new NodeLeaseController({ kubeConfig: kc, clock });
      controller.add("node-0", "uid-0");
      controller.start();
      clock.step(100);
      await eventually(() => arrived.length === 1, { what: "the first renewal" });
      // 25 s without an answer: no second renewal while the first is in flight.
      for (let i = 0; i < 250; i++) clock.step(100);
      await new Promise((r) => setTimeout(r, 50));
      expect(arrived).toHaveLength(1);
      held.shift()?.();
      await eventually(() => controller!.inFlight === 0, { what: "the answer" });
      const answeredAt = clock.now();
      // The next one 10 s after the answer (within a tick), not at the Node's next turn of the fixed schedule.
      for (let i = 0; i < 99; i++) clock.step(100);
      await new Promise((r) => setTimeout(r, 50));
      expect(arrived).toHaveLength(1);
      clock.step(100);
      await eventually(() => arrived.length === 2, { what: "the second renewal" });
      expect(arrived[1]! - answeredAt).toBe(10_000);
      held.shift()?.();
      await eventually(() => controller!.inFlight === 0, { what: "the second answer" });
    } finally {
      controller?.stop();
      controller = undefined;
      for (const h of held) h();
      await new Promise((r) => slow.close(r));
    }
  });

  it("stop leaves no timer behind", async () => {
    const { clock, controller: c } = await setup(3);
    c.start();
    c.stop();
    expect(clock.waiters()).toBe(0);
  });
});
