/**
 * Every port of `npm start` follows `--port`, so two clusters with
 * different `--port`s run side by side on one machine (apiserver, kube-proxy's /metrics and its
 * --healthz-bind-address server with upstream's /healthz JSON, the controller-manager's HTTPS
 * --secure-port), and an explicit `--metrics-bind-address` wins.
 */
import { get } from "node:https";
import { createServer } from "node:net";
import { CoreV1Api } from "@kubernetes/client-node";
import { afterAll, describe, expect, it } from "vitest";
import { eventually } from "@servicenet/testing";
import { startUpCluster, type UpCluster } from "./cluster.ts";

/** kube-proxy's metrics port for an apiserver `--port` (scripts/up-ports.mjs). */
const metricsPortFor = (port: number) => 10249 + (port - 6443);
/** kube-proxy's healthz port for an apiserver `--port` (scripts/up-ports.mjs). */
const healthzPortFor = (port: number) => 10256 + (port - 6443);
/** The controller-manager's --secure-port for an apiserver `--port` (scripts/up-ports.mjs). */
const securePortFor = (port: number) => 10257 + (port - 6443);

/** The status and body of an HTTPS GET that accepts the self-signed certificate. */
const httpsGet = (url: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    get(url, { rejectUnauthorized: false }, (res) => {
      let body = "";
      res.on("data", (c: Buffer) => (body += c.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    }).on("error", reject);
  });

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
    const mine = [p, metricsPortFor(p), healthzPortFor(p), securePortFor(p)];
    const theirs = avoid.flatMap((a) => [a, metricsPortFor(a), healthzPortFor(a), securePortFor(a)]);
    if (mine.some((m) => theirs.some((t) => Math.abs(t - m) < 2))) continue;
    if ((await Promise.all(mine.map(canListen))).every(Boolean)) return p;
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
      expect((await fetch(`http://127.0.0.1:${metricsPortFor(port)}/healthz`)).status).toBe(200);
      // kube-proxy's own health server (pkg/proxy/healthcheck/proxier_health.go), its port derived too.
      expect(c.output()).toContain(`healthz on 127.0.0.1:${healthzPortFor(port)}`);
      const healthz = await fetch(`http://127.0.0.1:${healthzPortFor(port)}/healthz`);
      expect(healthz.status).toBe(200);
      expect(healthz.headers.get("content-type")).toBe("application/json");
      const body = (await healthz.json()) as { lastUpdated: string; currentTime: string; nodeEligible: boolean };
      expect(body.nodeEligible).toBe(true);
      expect(body.currentTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)? \+0000 UTC m=\+\d+\.\d{9}$/);
      const livez = await fetch(`http://127.0.0.1:${healthzPortFor(port)}/livez`);
      expect(livez.status).toBe(200);
      expect(Object.keys((await livez.json()) as object)).toEqual(["lastUpdated", "currentTime"]);
      // The controller-manager's /healthz over HTTPS (always allowed), its port derived too.
      expect(await eventually(() => c.output().includes(`Serving securely on 127.0.0.1:${securePortFor(port)}`))).toBe(true);
      expect(await httpsGet(`https://127.0.0.1:${securePortFor(port)}/healthz`)).toEqual({ status: 200, body: "ok" });
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
