/** pkg/proxy/healthcheck/service_health.go behaviour: ports opened and closed as Services change, upstream's answers. */
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { textLogger, type Logger } from "@servicenet/component-base/logs";
import { afterEach, describe, expect, it } from "vitest";
import { newProxyMetrics } from "../metrics/metrics.ts";
import { IptablesProxier } from "../iptables/proxier.ts";
import { DryRunApplier } from "../runner/appliers.ts";
import { FamilyRunner } from "../runner/family-runner.ts";
import { populate } from "../proxy/populate.ts";
import { makeTestEndpointSlice, makeTestService, tcpPort } from "../testing/fixtures.ts";
import { serviceHealthBody, ServiceHealthServer } from "./service-health.ts";

/** A port nothing listens on right now (the kernel picks it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const addr = s.address();
      s.close(() => resolve(typeof addr === "object" && addr !== null ? addr.port : 0));
    });
  });
}

const get = async (port: number, host = "127.0.0.1") => {
  const r = await fetch(`http://${host}:${port}/`);
  return { status: r.status, headers: Object.fromEntries(r.headers), body: await r.text() };
};

let healthy = true;
const servers: ServiceHealthServer[] = [];
function newServer(bindAddresses = ["127.0.0.1"], logger?: Logger): ServiceHealthServer {
  const s = new ServiceHealthServer({
    hostname: "node-1",
    bindAddresses,
    proxierHealth: { health: () => ({ healthy }) },
    ...(logger ? { logger } : {}),
  });
  servers.push(s);
  return s;
}
afterEach(async () => {
  healthy = true;
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe("ServiceHealthServer", () => {
  it("logs upstream's structured lines: Closing healthcheck at -v=2, a port it cannot open as an error", async () => {
    const lines: string[] = [];
    const port = await freePort();
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(port, "127.0.0.1", r));
    try {
      const s = newServer(
        ["127.0.0.1"],
        textLogger((l) => lines.push(l), { verbosity: 2 }),
      );
      await s.sync("IPv4", { services: new Map([["ns/web", port]]), localEndpoints: new Map() });
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        new RegExp(`^"Failed to start healthcheck" err="[^"]*EADDRINUSE[^"]*" node="node-1" service="ns/web" port=${port}$`),
      );
    } finally {
      await new Promise((r) => taken.close(r));
    }
    const open = await freePort();
    const s = newServer(
      ["127.0.0.1"],
      textLogger((l) => lines.push(l), { verbosity: 2 }),
    );
    await s.sync("IPv4", { services: new Map([["ns/db", open]]), localEndpoints: new Map() });
    await s.sync("IPv4", { services: new Map(), localEndpoints: new Map() });
    expect(lines.slice(1)).toEqual([`"Closing healthcheck" service="ns/db" port=${open}`]);
  });

  it("answers 200 with local endpoints and 503 without, with upstream's headers and body", async () => {
    const port = await freePort();
    const s = newServer();
    await s.sync("IPv4", { services: new Map([["ns/web", port]]), localEndpoints: new Map([["ns/web", 2]]) });
    const ok = await get(port);
    expect(ok.status).toBe(200);
    expect(ok.headers["content-type"]).toBe("application/json");
    expect(ok.headers["x-content-type-options"]).toBe("nosniff");
    expect(ok.headers["x-load-balancing-endpoint-weight"]).toBe("2");
    expect(ok.body).toBe(
      '{\n\t"service": {\n\t\t"namespace": "ns",\n\t\t"name": "web"\n\t},\n\t"localEndpoints": 2,\n\t"serviceProxyHealthy": true\n}',
    );
    await s.sync("IPv4", { services: new Map([["ns/web", port]]), localEndpoints: new Map() });
    const none = await get(port);
    expect([none.status, none.headers["x-load-balancing-endpoint-weight"]]).toEqual([503, "0"]);
    expect(JSON.parse(none.body)).toEqual({ service: { namespace: "ns", name: "web" }, localEndpoints: 0, serviceProxyHealthy: true });
  });

  // service_health.go listens on "0.0.0.0", which Go serves on both families: a dual-stack node's
  // IPv6 node IP answers too.
  it("the unspecified address 0.0.0.0 answers on IPv4 and IPv6", async () => {
    const port = await freePort();
    const s = newServer(["0.0.0.0"]);
    await s.sync("IPv4", { services: new Map([["ns/web", port]]), localEndpoints: new Map([["ns/web", 1]]) });
    expect([(await get(port)).status, (await get(port, "[::1]")).status]).toEqual([200, 200]);
  });

  it("answers 503 with serviceProxyHealthy false while the proxier is unhealthy", async () => {
    const port = await freePort();
    const s = newServer();
    await s.sync("IPv4", { services: new Map([["ns/web", port]]), localEndpoints: new Map([["ns/web", 1]]) });
    healthy = false;
    const r = await get(port);
    expect(r.status).toBe(503);
    expect(r.body).toBe(serviceHealthBody("ns", "web", 1, false));
  });

  it("closes the port when the Service goes and moves it when its healthCheckNodePort changes", async () => {
    const [p1, p2] = [await freePort(), await freePort()];
    const s = newServer();
    await s.sync("IPv4", { services: new Map([["ns/web", p1]]), localEndpoints: new Map() });
    await s.sync("IPv4", { services: new Map([["ns/web", p2]]), localEndpoints: new Map() });
    expect([...s.ports]).toEqual([["ns/web", p2]]);
    await expect(get(p1)).rejects.toThrow();
    expect((await get(p2)).status).toBe(503);
    await s.sync("IPv4", { services: new Map(), localEndpoints: new Map() });
    expect(s.ports.size).toBe(0);
    await expect(get(p2)).rejects.toThrow();
  });

  it("a dual-stack Service opens its port once; the count is IPv4's, an IPv6-only Service uses IPv6's", async () => {
    const [p1, p2] = [await freePort(), await freePort()];
    const s = newServer();
    await s.sync("IPv4", { services: new Map([["ns/dual", p1]]), localEndpoints: new Map([["ns/dual", 1]]) });
    await s.sync("IPv6", {
      services: new Map([
        ["ns/dual", p1],
        ["ns/v6", p2],
      ]),
      localEndpoints: new Map([
        ["ns/dual", 3],
        ["ns/v6", 2],
      ]),
    });
    expect((await get(p1)).headers["x-load-balancing-endpoint-weight"]).toBe("1");
    expect((await get(p2)).headers["x-load-balancing-endpoint-weight"]).toBe("2");
  });

  it("a port taken by someone else is retried on the next sync", async () => {
    const port = await freePort();
    const blocker = createServer().listen(port, "127.0.0.1");
    await new Promise((r) => blocker.once("listening", r));
    const s = newServer();
    await s.sync("IPv4", { services: new Map([["ns/web", port]]), localEndpoints: new Map() });
    expect(s.ports.size).toBe(0);
    await new Promise((r) => blocker.close(r));
    await s.sync("IPv4", { services: new Map([["ns/web", port]]), localEndpoints: new Map() });
    expect(s.ports.get("ns/web")).toBe(port);
  });
});

describe("health check ports follow the proxier's syncs", () => {
  it("an ETP Local LoadBalancer Service gets its port after a sync, counting only local ready endpoints", async () => {
    const port = await freePort();
    const dir = await mkdtemp(join(tmpdir(), "sn-kp-hc-"));
    try {
      const proxier = new IptablesProxier({ ipFamily: "IPv4", nodeName: "node-1" });
      const s = newServer();
      const runner = new FamilyRunner({ kind: "iptables", proxier, applier: new DryRunApplier(dir, "iptables") }, newProxyMetrics(), {
        minSyncPeriodMs: 0,
        serviceHealth: s,
      });
      const svc = makeTestService("ns", "lb", (x) => {
        x.spec.type = "LoadBalancer";
        x.spec.externalTrafficPolicy = "Local";
        x.spec.clusterIP = "10.96.0.20";
        x.spec.healthCheckNodePort = port;
        x.spec.ports = [
          { name: "a", port: 80, protocol: "TCP", nodePort: 30080 },
          { name: "b", port: 81, protocol: "TCP", nodePort: 30081 },
        ];
      });
      const slice = makeTestEndpointSlice("ns", "lb", 1, (e) => {
        e.endpoints = [
          { addresses: ["10.244.0.5"], nodeName: "node-1" },
          { addresses: ["10.244.0.6"], nodeName: "node-1", conditions: { ready: false } },
          { addresses: ["10.244.1.5"], nodeName: "node-2" },
        ];
        e.ports = [tcpPort("a", 8080), tcpPort("b", 8081)];
      });
      populate(proxier, [svc], [slice]);
      await runner.syncNow();
      const r = await get(port);
      // One local ready pod, two ports: two distinct endpoints, as upstream's LocalReadyEndpoints counts.
      expect([r.status, r.headers["x-load-balancing-endpoint-weight"]]).toEqual([200, "2"]);
      proxier.onServiceDelete(svc);
      await runner.syncNow();
      await expect(get(port)).rejects.toThrow();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
