/** LeaseLock through client-node's CoordinationV1Api against an in-test fake apiserver. */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { CoreV1Api, KubeConfig } from "@kubernetes/client-node";
import { eventually, FakeAPIServer } from "@servicenet/testing";
import { afterEach, describe, expect, it } from "vitest";
import { FakeClock } from "@servicenet/component-base/clock";
import { LeaderElector } from "./leader-election.ts";
import { leaseLock } from "./lease-client.ts";
import { reuseConnections } from "../clientcmd/connection-reuse.ts";

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

describe("leaseLock's own connections", () => {
  let held: http.Server | undefined;
  afterEach(() => new Promise<void>((r) => (held === undefined ? r() : (held.closeAllConnections(), held.close(() => r())))));

  it("reads the Lease while every socket of the component's capped pool is held by slow requests", async () => {
    const waiting: http.ServerResponse[] = [];
    held = http.createServer((req, res) => {
      if (req.url?.includes("/leases/")) {
        res
          .writeHead(404, { "content-type": "application/json" })
          .end('{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404}');
      } else waiting.push(res);
    });
    await new Promise<void>((r) => held!.listen(0, "127.0.0.1", r));
    const kc = new KubeConfig();
    kc.loadFromClusterAndUser(
      { name: "slow", server: `http://127.0.0.1:${(held.address() as AddressInfo).port}`, skipTLSVerify: true },
      { name: "u", token: "t" },
    );
    reuseConnections(kc, { maxSockets: 2, maxFreeSockets: 2 });
    const core = kc.makeApiClient(CoreV1Api);
    const slow = [core.listNamespace(), core.listNamespace()];
    await eventually(() => expect(waiting).toHaveLength(2));
    // Without a pool of its own the read would wait for a socket the slow requests hold.
    expect(await leaseLock(kc, "kube-system", "kube-scheduler").get()).toBeNull();
    for (const res of waiting)
      res.writeHead(200, { "content-type": "application/json" }).end('{"kind":"NamespaceList","apiVersion":"v1","metadata":{},"items":[]}');
    await Promise.all(slow);
  });
});
