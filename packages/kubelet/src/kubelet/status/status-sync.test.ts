import type { Pod } from "@servicenet/api";
import { FakeClock } from "@servicenet/component-base/clock";
import { describe, expect, it } from "vitest";
import { FakePods } from "../../testing/fake-pod-client.ts";
import { NodeSet } from "../node-set.ts";
import { PodWorkers } from "../pod-workers.ts";

const t0 = Date.parse("2026-01-01T00:00:00Z");

function setup() {
  const clock = new FakeClock(t0);
  const pods = new FakePods();
  const nodes = new NodeSet([
    { name: "node-1", hostIPs: ["172.18.0.3"] },
    { name: "node-2", hostIPs: ["172.18.0.4"] },
  ]);
  nodes.observe({ metadata: { name: "node-1" }, spec: { podCIDRs: ["10.244.1.0/24"] } });
  nodes.observe({ metadata: { name: "node-2" }, spec: { podCIDRs: ["10.244.2.0/24"] } });
  const workers = new PodWorkers({ pods: pods.informer, nodes, client: pods, clock });
  return { clock, pods, workers };
}

function pod(name: string, nodeName = "node-1", spec: Partial<Pod["spec"]> = {}): Pod {
  return { metadata: { name }, spec: { nodeName, containers: [{ name: "web" }], ...spec }, status: { phase: "Pending" } };
}

/** A gate the fake apiserver's writes wait at, and its opener. */
function slowAPIServer(pods: FakePods): () => void {
  let open = () => {};
  pods.gate = new Promise<void>((r) => (open = r));
  return () => {
    pods.gate = undefined;
    open();
  };
}

const ready = (p: Pod) => p.status?.conditions?.find((c) => c.type === "Ready")?.status;

describe("StatusManager (status_manager.go syncBatch, one per Node)", () => {
  it("writes one Node's statuses one at a time, Nodes side by side, without the pod workers waiting", async () => {
    const { pods, workers } = setup();
    const open = slowAPIServer(pods);
    for (const [name, node] of [
      ["a", "node-1"],
      ["b", "node-1"],
      ["c", "node-1"],
      ["d", "node-2"],
      ["e", "node-2"],
    ] as const) {
      pods.add(pod(name, node));
      workers.sync(`default/${name}`);
    }
    // Every Pod is started (IPs given) while the first writes still wait for the apiserver.
    expect(workers.running).toBe(5);
    await new Promise((r) => setImmediate(r));
    expect(pods.inFlight).toBe(2);
    open();
    await workers.idle();
    expect(pods.maxInFlight).toBe(2);
    expect(pods.writes.map((w) => w.key)).toEqual(["default/a", "default/d", "default/b", "default/e", "default/c"]);
  });

  it("writes only a Pod's latest status: the steps it took while its Node's writes were busy coalesce", async () => {
    const { pods, workers, clock } = setup();
    const open = slowAPIServer(pods);
    pods.add(pod("first"));
    workers.sync("default/first");
    pods.add(pod("r", "node-1", { containers: [{ name: "web", readinessProbe: { initialDelaySeconds: 5, periodSeconds: 5 } }] }));
    workers.sync("default/r"); // IP and Running, not yet Ready
    clock.step(5_000);
    workers.sync("default/r"); // Ready
    open();
    await workers.idle();
    expect(pods.writes.map((w) => w.key)).toEqual(["default/first", "default/r"]);
    expect(pods.get("default/r").status?.podIP).toBe("10.244.1.3");
    expect(ready(pods.get("default/r"))).toBe("True");
  });

  it("sets nothing new for a status equal to the last one set", async () => {
    const { pods, workers } = setup();
    const open = slowAPIServer(pods);
    pods.add(pod("a"));
    for (let i = 0; i < 3; i++) workers.sync("default/a");
    open();
    await workers.idle();
    expect(pods.writes).toHaveLength(1);
  });

  it("tries a failed write again after the sync period (10 s)", async () => {
    const { pods, workers, clock } = setup();
    pods.failNext = new Error("connection reset");
    pods.add(pod("a"));
    workers.sync("default/a");
    await workers.idle();
    expect(pods.writes).toHaveLength(0);
    clock.step(9_999);
    await workers.idle();
    expect(pods.writes).toHaveLength(0);
    clock.step(1);
    await workers.idle();
    expect(pods.get("default/a").status?.phase).toBe("Running");
  });

  it("writes again when someone else changed the status (needsReconcile)", async () => {
    const { pods, workers } = setup();
    pods.add(pod("a"));
    workers.sync("default/a");
    await workers.idle();
    const written = pods.get("default/a");
    pods.informer.set({ ...written, metadata: { ...written.metadata, resourceVersion: "900" }, status: { phase: "Pending" } });
    workers.sync("default/a");
    await workers.idle();
    expect(pods.writes).toHaveLength(2);
    expect(pods.get("default/a").status?.phase).toBe("Running");
  });

  it("drops the status of a Pod deleted and recreated under its name before the write", async () => {
    const { pods, workers } = setup();
    const open = slowAPIServer(pods);
    pods.add(pod("first"));
    workers.sync("default/first");
    pods.add(pod("a"));
    workers.sync("default/a");
    pods.informer.set({ ...pods.get("default/a"), metadata: { ...pods.get("default/a").metadata, uid: "uid-a2" } });
    open();
    await workers.idle();
    expect(pods.writes.map((w) => w.key)).toEqual(["default/first"]);
  });
});
