import type { Pod } from "@servicenet/api";
import { FakeClock } from "@servicenet/component-base/clock";
import { describe, expect, it } from "vitest";
import { FakePods } from "../../testing/fake-pod-client.ts";
import { NodeSet } from "../node-set.ts";
import { PodWorkers } from "../pod-workers.ts";
import { newKubeletMetrics } from "./metrics.ts";

/** One sync of the Pod, then its Node's status manager's writes. */
async function step(workers: PodWorkers, key: string): Promise<void> {
  workers.sync(key);
  await workers.idle();
}

const t0 = Date.parse("2026-01-01T00:00:00Z");

function pod(name: string): Pod {
  return {
    metadata: { name },
    spec: { nodeName: "node-1", containers: [{ name: "web", image: "nginx" }] },
    status: { phase: "Pending" },
  };
}

/** The rendered samples of `name` (without HELP/TYPE lines). */
const samples = (text: string, name: string) => text.split("\n").filter((l) => l.startsWith(name));

describe("kubelet metrics (pkg/kubelet/metrics/metrics.go)", () => {
  it("times a Pod's start from first seen to Running, counts started and running Pods", async () => {
    const clock = new FakeClock(t0);
    const pods = new FakePods();
    const nodes = new NodeSet([{ name: "node-1", hostIPs: ["172.18.0.3"] }]);
    const metrics = newKubeletMetrics();
    const workers = new PodWorkers({ pods: pods.informer, nodes, client: pods, clock, metrics });
    pods.add(pod("a"));
    // The Node has no podCIDRs yet: the Pod waits, Pending.
    await step(workers, "default/a");
    expect(pods.writes).toHaveLength(0);
    clock.step(2500);
    nodes.observe({ metadata: { name: "node-1" }, spec: { podCIDRs: ["10.244.1.0/24"] } });
    await step(workers, "default/a");
    expect(pods.get("default/a").status?.phase).toBe("Running");
    const text = metrics.registry.render();
    expect(samples(text, "kubelet_pod_start_duration_seconds_bucket").slice(0, 4)).toEqual([
      'kubelet_pod_start_duration_seconds_bucket{le="0.5"} 0',
      'kubelet_pod_start_duration_seconds_bucket{le="1"} 0',
      'kubelet_pod_start_duration_seconds_bucket{le="2"} 0',
      'kubelet_pod_start_duration_seconds_bucket{le="3"} 1',
    ]);
    expect(samples(text, "kubelet_pod_start_duration_seconds_sum")).toEqual(["kubelet_pod_start_duration_seconds_sum 2.5"]);
    expect(samples(text, "kubelet_running_pods")).toEqual(["kubelet_running_pods 1"]);
    expect(samples(text, "kubelet_started_pods_total")).toEqual(["kubelet_started_pods_total 1"]);
    expect(text).toContain("# HELP kubelet_running_pods [ALPHA] Number of pods that have a running pod sandbox\n");
    // Later syncs of the running Pod observe nothing more.
    clock.step(1000);
    await step(workers, "default/a");
    expect(metrics.podStartDuration.count()).toBe(1);
    // Gone: no longer running.
    pods.informer.remove("default/a");
    await step(workers, "default/a");
    expect(samples(metrics.registry.render(), "kubelet_running_pods")).toEqual(["kubelet_running_pods 0"]);
  });

  it("names every Node of the process once", () => {
    const metrics = newKubeletMetrics();
    for (const node of ["node-0", "node-1"]) metrics.nodeName.set({ node }, 1);
    expect(samples(metrics.registry.render(), "kubelet_node_name")).toEqual([
      'kubelet_node_name{node="node-0"} 1',
      'kubelet_node_name{node="node-1"} 1',
    ]);
  });
});
