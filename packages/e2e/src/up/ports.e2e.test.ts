/**
 * servicenet issue #23 item 4: every port of `npm start` follows `--port`, so two clusters with
 * different `--port`s run side by side on one machine (apiserver and kube-proxy's /metrics+/healthz;
 * the controller-manager serves none), and an explicit `--metrics-bind-address` wins.
 */
import { createServer } from "node:net";
import { CoreV1Api } from "@kubernetes/client-node";
import { afterAll, describe, expect, it } from "vitest";
import { eventually } from "@servicenet/testing";
import { startUpCluster, type UpCluster } from "./cluster.ts";

/** kube-proxy's metrics port for an apiserver `--port` (scripts/up-ports.mjs). */
const metricsPortFor = (port: number) => 10249 + (port - 6443);

const canListen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = createServer();
    s.once("error", () => resolve(false));
    s.listen(port, "127.0.0.1", () => s.close(() => resolve(true)));
  });

/** A base port whose apiserver and derived kube-proxy ports are both free, none in `avoid`. */
async function freeBase(avoid: number[]): Promise<number> {
  for (;;) {
    const p = 20_000 + Math.floor(Math.random() * 30_000);
    if (avoid.some((a) => Math.abs(a - p) < 2 || Math.abs(metricsPortFor(a) - p) < 2)) continue;
    if ((await canListen(p)) && (await canListen(metricsPortFor(p)))) return p;
  }
}

describe("npm start ports follow --port", () => {
  const clusters: UpCluster[] = [];
  afterAll(async () => {
    for (const c of clusters) expect(await c.stop()).toBe(0);
  });

  it("runs two clusters side by side, each kube-proxy on the port derived from its --port", async () => {
    const p1 = await freeBase([]);
    const p2 = await freeBase([p1]);
    clusters.push(await startUpCluster(["--port", String(p1)], 40_000));
    clusters.push(await startUpCluster(["--port", String(p2)], 40_000));
    for (const [c, port] of [
      [clusters[0]!, p1],
      [clusters[1]!, p2],
    ] as const) {
      expect(c.kubeConfig.getCurrentCluster()?.server).toBe(`https://127.0.0.1:${port}`);
      const svc = await c.kubeConfig.makeApiClient(CoreV1Api).readNamespacedService({ name: "kubernetes", namespace: "default" });
      expect(svc.spec?.ports?.[0]?.port).toBe(443);
      expect(await eventually(() => c.output().includes(`metrics on 127.0.0.1:${metricsPortFor(port)}`))).toBe(true);
      const healthz = await fetch(`http://127.0.0.1:${metricsPortFor(port)}/healthz`);
      expect(healthz.status).toBe(200);
    }
  }, 120_000);

  it("takes kube-proxy's --metrics-bind-address as given", async () => {
    const base = await freeBase([]);
    const metrics = metricsPortFor(base);
    const c = await startUpCluster(["--metrics-bind-address", `127.0.0.1:${metrics}`], 40_000);
    clusters.push(c);
    expect(await eventually(() => c.output().includes(`metrics on 127.0.0.1:${metrics}`))).toBe(true);
    expect((await fetch(`http://127.0.0.1:${metrics}/metrics`)).status).toBe(200);
  }, 60_000);
});
