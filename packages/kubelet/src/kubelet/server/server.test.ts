import { MetricsRegistry } from "@servicenet/component-base/metrics";
import { afterEach, describe, expect, it } from "vitest";
import { listenAndServeReadOnly, type ReadOnlyServer } from "./server.ts";

let server: ReadOnlyServer | undefined;
afterEach(async () => server?.close());

describe("listenAndServeReadOnly (pkg/kubelet/server/server.go)", () => {
  it("serves /metrics and /healthz without authentication, 404 elsewhere", async () => {
    const registry = new MetricsRegistry();
    registry.gauge("kubelet_running_pods", "[ALPHA] Number of pods that have a running pod sandbox").set({}, 3);
    server = await listenAndServeReadOnly("127.0.0.1", 0, registry);
    const base = `http://${server.address}`;
    const metrics = await fetch(`${base}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    expect(await metrics.text()).toContain("\nkubelet_running_pods 3\n");
    const healthz = await fetch(`${base}/healthz`);
    expect([healthz.status, await healthz.text()]).toEqual([200, "ok"]);
    const verbose = await fetch(`${base}/healthz?verbose`);
    expect(await verbose.text()).toBe("[+]ping ok\nhealthz check passed\n");
    const pods = await fetch(`${base}/pods`);
    expect(pods.status).toBe(404);
  });
});
