import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { goTimeString, goZeroTime, ProxierHealthServer, toBeDeletedTaint } from "./proxier-health.ts";
import { newProxyMetrics } from "../metrics/metrics.ts";

/** Calls the handler with a fake request; returns status, headers and body. */
function get(hs: ProxierHealthServer, url: string): { status: number; headers: Record<string, string>; body: string } {
  const out = { status: 0, headers: {} as Record<string, string>, body: "" };
  const res = {
    writeHead(status: number, headers: Record<string, string>) {
      out.status = status;
      out.headers = headers;
    },
    end(body: string) {
      out.body = body;
    },
  } as unknown as ServerResponse;
  hs.handle({ url } as IncomingMessage, res);
  return out;
}

describe("goTimeString", () => {
  it("prints Go's time.Time String() with the monotonic reading", () => {
    expect(goTimeString(Date.UTC(2025, 0, 2, 3, 4, 5, 120), 12345.678)).toBe("2025-01-02 03:04:05.12 +0000 UTC m=+12.345678000");
    expect(goTimeString(Date.UTC(2025, 0, 2, 3, 4, 5), 0)).toBe("2025-01-02 03:04:05 +0000 UTC m=+0.000000000");
  });
});

// pkg/proxy/healthcheck/healthcheck_test.go TestHealthzServer / TestLivezServer, on a fake clock.
describe("ProxierHealthServer", () => {
  const setup = () => {
    let now = Date.UTC(2025, 0, 1);
    const hs = new ProxierHealthServer({ healthTimeoutMs: 60_000, now: () => now, monotonic: () => now - Date.UTC(2025, 0, 1) });
    return { hs, step: (ms: number) => (now += ms) };
  };

  it("is healthy at start, while an update is younger than the timeout, and after it is applied", () => {
    const { hs, step } = setup();
    const start = get(hs, "/healthz");
    expect(start.status).toBe(200);
    expect(start.headers).toEqual({ "content-type": "application/json", "x-content-type-options": "nosniff" });
    expect(start.body).toBe(
      '{"lastUpdated": "2025-01-01 00:00:00 +0000 UTC m=+0.000000000","currentTime": "2025-01-01 00:00:00 +0000 UTC m=+0.000000000", "nodeEligible": true}',
    );
    hs.queuedUpdate("IPv4");
    step(59_999);
    expect(get(hs, "/healthz").status).toBe(200);
    step(1);
    const late = get(hs, "/healthz");
    expect(late.status).toBe(503);
    expect(late.body).toContain(`"lastUpdated": "${goZeroTime}"`);
    expect(get(hs, "/livez").status).toBe(503);
    hs.updated("IPv4");
    expect(get(hs, "/healthz").status).toBe(200);
  });

  it("counts each /healthz and /livez answer by status code (upstream testMetricEquals)", () => {
    let now = Date.UTC(2025, 0, 1);
    const metrics = newProxyMetrics();
    const hs = new ProxierHealthServer({ healthTimeoutMs: 60_000, now: () => now, metrics });
    get(hs, "/healthz");
    get(hs, "/livez");
    hs.queuedUpdate("IPv4");
    now += 60_000;
    get(hs, "/healthz");
    get(hs, "/healthz");
    expect(metrics.proxyHealthzTotal.get({ code: "200" })).toBe(1);
    expect(metrics.proxyHealthzTotal.get({ code: "503" })).toBe(2);
    expect(metrics.proxyLivezTotal.get({ code: "200" })).toBe(1);
    expect(metrics.registry.render()).toContain('kubeproxy_proxy_healthz_total{code="503"} 2');
  });

  it("is unhealthy while any family lags", () => {
    const { hs, step } = setup();
    hs.queuedUpdate("IPv4");
    hs.queuedUpdate("IPv6");
    step(61_000);
    hs.updated("IPv4");
    expect(get(hs, "/livez").status).toBe(503);
    hs.updated("IPv6");
    expect(get(hs, "/livez")).toMatchObject({ status: 200, body: expect.not.stringContaining("nodeEligible") });
  });

  it.each([
    ["a plain node", {}, true],
    ["a node being deleted", { metadata: { name: "n", deletionTimestamp: "2025-01-01T00:00:00Z" } }, false],
    ["a node tainted ToBeDeleted", { spec: { taints: [{ key: toBeDeletedTaint, effect: "NoSchedule" }] } }, false],
  ])("/healthz follows node eligibility (%s); /livez ignores it", (_name, node, eligible) => {
    const { hs } = setup();
    hs.syncNode({ metadata: { name: "n" }, ...node } as never);
    const h = get(hs, "/healthz");
    expect(h.status).toBe(eligible ? 200 : 503);
    expect(h.body).toContain(`"nodeEligible": ${eligible}}`);
    expect(get(hs, "/livez").status).toBe(200);
  });

  it("answers 404 elsewhere", () => {
    expect(get(setup().hs, "/metrics").status).toBe(404);
  });
});
