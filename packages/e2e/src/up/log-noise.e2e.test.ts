/**
 * `npm start` is a calm local cluster. A scripted session (a ServiceCIDR
 * added and removed, 50 Services each with a Pod made Ready through the status subresource as a
 * kubelet would, all deleted again, then Ctrl-C) prints a small number of lines at the default
 * level and no error-level line at all: per-object writes and retried conflicts are debug (-v=4)
 * as upstream's klog.V(4) / utilruntime.HandleError, and shutdown closes watches without
 * "informer error" or "Premature close" lines.
 */
import { NetworkingV1Api } from "@kubernetes/client-node";
import { afterAll, describe, expect, it } from "vitest";
import { eventually } from "@servicenet/testing";
import { clientsFor, createPod, createService, pool, slicesOf } from "../controllers/objects.ts";
import { startUpCluster, type UpCluster } from "./cluster.ts";

const services = 50;
/**
 * Default-level lines the whole session may print: the ready banner (3), kube-proxy's start line,
 * the controller-manager's start and its "Serving securely on" line (2), per-controller start/synced/stopped lines (3 for each of its 14
 * loops: endpoint, endpointslice, endpointslicemirroring, service-cidr, namespace,
 * clusterrole-aggregation, deployment, replicaset, statefulset, daemonset, serviceaccount, disruption and the garbage collector's two, plus the
 * collector's list of monitored resources), the shutdown (3) and the lease reconciler's upstream
 * "Resetting endpoints for master service" warning at start and stop (2), the apiserver's line
 * naming the admission plugins it accepts but does not implement (1), the scheduler's and the
 * kubelet's start, started and signal lines (6), the nodeipam controller's start/synced/stopped (3)
 * and its "Set node PodCIDR" per simulated Node (3), the node lifecycle controller's two queues'
 * start/synced/stopped (6), its "zone is now in new state" per zone (3: the simulated Nodes are in
 * zone-a, zone-b and zone-c), upstream's "Missing timestamp for Node" per Node at its first
 * look (3), the root CA publisher's start/synced/stopped (3), the taint-eviction controller's
 * start and stopped (2), the job, cronjob and ttl-after-finished controllers' start/synced/stopped
 * (9) and the service-account token controller's start/synced/stopped (3): 100 today, none of them
 * per object of the session. A little headroom, far below one line per Service.
 */
const lineBudget = 103;

/** Lines that are errors whatever their format: JSON level error, klog E-lines, stack traces. */
function errorLines(lines: readonly string[]): string[] {
  return lines.filter(
    (l) =>
      /"level":"error"/.test(l) ||
      /^(\[[\w-]+\] )?E\d{4} /.test(l) ||
      /\b(error|Error|ERROR)\b/.test(l) ||
      /Premature close|ECONNRESET|ECONNREFUSED|Unhandled|\bat .+:\d+:\d+\)?$/.test(l),
  );
}

describe("npm start log noise", () => {
  let cluster: UpCluster | undefined;
  afterAll(async () => {
    if (cluster) await cluster.stop();
  });

  it("a scripted session prints few lines and no error at the default level", async () => {
    cluster = await startUpCluster([], 40_000);
    const c = clientsFor(cluster.kubeConfig);
    const net = cluster.kubeConfig.makeApiClient(NetworkingV1Api);
    await net.createServiceCIDR({ body: { metadata: { name: "extra" }, spec: { cidrs: ["10.200.0.0/24"] } } });
    const names = Array.from({ length: services }, (_, i) => `noise-${i}`);
    await pool(names, 8, async (n) => {
      await createService(c, n, { ipFamilyPolicy: "SingleStack" });
      await createPod(c, n, 0, names.indexOf(n));
    });
    for (const n of names) {
      expect(await eventually(async () => (await slicesOf(c, n)).some((s) => s.endpoints.length === 1), { timeoutMs: 30_000 })).toBe(true);
    }
    await pool(names, 8, async (n) => {
      await c.core.deleteNamespacedService({ name: n, namespace: "default" });
      await c.core.deleteNamespacedPod({ name: `${n}-0`, namespace: "default" });
    });
    await net.deleteServiceCIDR({ name: "extra" });
    expect(await eventually(async () => (await slicesOf(c, "noise-0")).length === 0, { timeoutMs: 30_000 })).toBe(true);
    await new Promise((r) => setTimeout(r, 1_000));
    const stopped = cluster;
    cluster = undefined;
    const code = await stopped.stop();
    const lines = stopped
      .output()
      .split("\n")
      .filter((l) => l.trim() !== "");
    console.log(`log-noise: ${lines.length} lines at the default level:\n${lines.join("\n")}`);
    expect(code).toBe(0);
    expect(errorLines(lines)).toEqual([]);
    expect(lines.length).toBeLessThanOrEqual(lineBudget);
    expect(lines.filter((l) => l.includes("noise-"))).toEqual([]);
  }, 180_000);
});
