import { PodSchema, type Pod } from "@servicenet/api";
import { FakeClock } from "@servicenet/component-base/clock";
import { describe, expect, it } from "vitest";
import { FakePods } from "../testing/fake-pod-client.ts";
import { NodeSet } from "./node-set.ts";
import { PodWorkers } from "./pod-workers.ts";

/** One sync of the Pod, then its Node's status manager's writes. */
async function step(workers: PodWorkers, key: string): Promise<void> {
  workers.sync(key);
  await workers.idle();
}

const t0 = Date.parse("2026-01-01T00:00:00Z");

function setup(podCIDRs: string[] | null = ["fd00:10:244:1::/64", "10.244.1.0/24"]) {
  const clock = new FakeClock(t0);
  const pods = new FakePods();
  const nodes = new NodeSet([{ name: "node-1", hostIPs: ["fc00::3", "172.18.0.3"] }]);
  if (podCIDRs) nodes.observe({ metadata: { name: "node-1" }, spec: { podCIDRs } });
  const workers = new PodWorkers({ pods: pods.informer, nodes, client: pods, clock });
  return { clock, pods, nodes, workers };
}

function pod(name: string, extra: Partial<Pod["spec"]> = {}, annotations?: Record<string, string>): Pod {
  return {
    metadata: { name, ...(annotations ? { annotations } : {}) },
    spec: { nodeName: "node-1", containers: [{ name: "web", image: "nginx" }], ...extra },
    status: { phase: "Pending", conditions: [{ type: "PodScheduled", status: "True", lastTransitionTime: "2026-01-01T00:00:00Z" }] },
  };
}

const condStatus = (p: Pod) => Object.fromEntries((p.status?.conditions ?? []).map((c) => [c.type, c.status]));

describe("PodWorkers", () => {
  it("starts a Pod with one IP per family in podCIDRs order (primary first) and writes Running and Ready once", async () => {
    const { pods, workers } = setup();
    pods.add(pod("a"));
    await step(workers, "default/a");
    const a = pods.get("default/a");
    expect(a.status?.podIPs).toEqual([{ ip: "fd00:10:244:1::2" }, { ip: "10.244.1.2" }]);
    expect(a.status?.podIP).toBe("fd00:10:244:1::2");
    expect(a.status?.hostIPs).toEqual([{ ip: "fc00::3" }, { ip: "172.18.0.3" }]);
    expect(a.status?.phase).toBe("Running");
    expect(a.status?.conditions?.map((c) => `${c.type}=${c.status}`)).toEqual([
      "PodReadyToStartContainers=True",
      "Initialized=True",
      "Ready=True",
      "ContainersReady=True",
      "PodScheduled=True",
    ]);
    // PodScheduled kept its transition time: the status did not change.
    expect(a.status?.conditions?.[4]?.lastTransitionTime).toBe("2026-01-01T00:00:00Z");
    expect(a.status?.containerStatuses?.[0]).toMatchObject({
      name: "web",
      ready: true,
      restartCount: 0,
      started: true,
      state: { running: {} },
    });
    await step(workers, "default/a");
    expect(pods.writes).toHaveLength(1);
  });

  it("writes no second status when the apiserver's copy differs only in absent fields (Semantic.DeepEqual)", async () => {
    const { pods, workers } = setup();
    pods.add(pod("a"));
    await step(workers, "default/a");
    expect(pods.writes).toHaveLength(1);
    // The apiserver serializes an unset condition time as null (metav1.Time's zero value); the
    // informer's schema decodes that to an undefined key.
    const written = pods.get("default/a");
    const served = {
      ...written,
      status: { ...written.status, conditions: written.status?.conditions?.map((c) => ({ ...c, lastProbeTime: null })) },
    };
    const decoded = PodSchema.parse(served);
    expect(Object.keys(decoded.status?.conditions?.[0] ?? {})).toContain("lastProbeTime");
    pods.informer.set({ ...decoded, metadata: { ...decoded.metadata, resourceVersion: "999" } });
    await step(workers, "default/a");
    expect(pods.writes).toHaveLength(1);
  });

  it("gives hostNetwork Pods the Node's IPs", async () => {
    const { pods, workers } = setup();
    pods.add(pod("h", { hostNetwork: true }));
    await step(workers, "default/h");
    expect(pods.get("default/h").status?.podIPs).toEqual([{ ip: "fc00::3" }, { ip: "172.18.0.3" }]);
  });

  it("waits for the Node's podCIDRs", async () => {
    const { pods, workers, nodes } = setup(null);
    pods.add(pod("a"));
    await step(workers, "default/a");
    expect(pods.writes).toEqual([]);
    expect(nodes.observe({ metadata: { name: "node-1" }, spec: { podCIDRs: ["10.244.1.0/24"] } })).toBe(true);
    await step(workers, "default/a");
    expect(pods.get("default/a").status?.podIPs).toEqual([{ ip: "10.244.1.2" }]);
  });

  it("turns Ready at the first readiness probe after initialDelaySeconds", async () => {
    const { pods, workers, clock } = setup();
    pods.add(pod("r", { containers: [{ name: "web", readinessProbe: { initialDelaySeconds: 5, periodSeconds: 10 } }] }));
    await step(workers, "default/r");
    expect(condStatus(pods.get("default/r"))).toMatchObject({ Ready: "False", ContainersReady: "False" });
    expect(pods.get("default/r").status?.conditions?.find((c) => c.type === "Ready")).toMatchObject({
      reason: "ContainersNotReady",
      message: "containers with unready status: [web]",
    });
    clock.step(9_000);
    await step(workers, "default/r");
    expect(condStatus(pods.get("default/r")).Ready).toBe("False");
    clock.step(1_000);
    await step(workers, "default/r");
    expect(condStatus(pods.get("default/r")).Ready).toBe("True");
    expect(pods.get("default/r").status?.conditions?.find((c) => c.type === "Ready")?.lastTransitionTime).toBe("2026-01-01T00:00:10Z");
  });

  it("fails readiness on the annotation, and counts restarts of a crashing container", async () => {
    const { pods, workers, clock } = setup();
    pods.add(pod("f", {}, { "kubelet.servicenet.io/fail-readiness": "true" }));
    pods.add(pod("c", {}, { "kubelet.servicenet.io/crash-after-seconds": "5" }));
    await step(workers, "default/f");
    expect(condStatus(pods.get("default/f")).Ready).toBe("False");
    await step(workers, "default/c");
    clock.step(5_000);
    await step(workers, "default/c");
    // The first restart is at once; the second crash waits 10 s in CrashLoopBackOff.
    expect(pods.get("default/c").status?.containerStatuses?.[0]).toMatchObject({
      restartCount: 1,
      lastState: { terminated: { exitCode: 1, reason: "Error" } },
    });
    clock.step(5_000);
    await step(workers, "default/c");
    const waiting = pods.get("default/c").status?.containerStatuses?.[0];
    expect(waiting).toMatchObject({ restartCount: 1, ready: false, state: { waiting: { reason: "CrashLoopBackOff" } } });
    expect(waiting?.state?.waiting?.message).toBe("back-off 10s restarting failed container=web pod=c_default(uid-c)");
    clock.step(10_000);
    await step(workers, "default/c");
    expect(pods.get("default/c").status?.containerStatuses?.[0]).toMatchObject({ restartCount: 2, ready: true });
  });

  it.each<[string, string, Record<string, string>, string, Record<string, unknown>]>([
    ["exit 0 under Never", "Never", {}, "Succeeded", { exitCode: 0, reason: "Completed" }],
    ["exit 0 under OnFailure", "OnFailure", {}, "Succeeded", { exitCode: 0, reason: "Completed" }],
    ["exit 3 under Never", "Never", { "kubelet.servicenet.io/exit-code": "3" }, "Failed", { exitCode: 3, reason: "Error" }],
  ])("exit-after-seconds: %s", async (_name, restartPolicy, extra, phase, terminated) => {
    const { pods, workers, clock } = setup();
    pods.add(pod("j", { restartPolicy }, { "kubelet.servicenet.io/exit-after-seconds": "5", ...extra }));
    await step(workers, "default/j");
    expect(pods.get("default/j").status?.phase).toBe("Running");
    clock.step(5_000);
    await step(workers, "default/j");
    const done = pods.get("default/j");
    expect(done.status?.phase).toBe(phase);
    expect(done.status?.containerStatuses?.[0]).toMatchObject({ ready: false, restartCount: 0, state: { terminated } });
    expect(condStatus(done)).toMatchObject({ PodReadyToStartContainers: "False", Ready: "False" });
  });

  it("exit-after-seconds with a non-zero code under OnFailure restarts the container", async () => {
    const { pods, workers, clock } = setup();
    pods.add(
      pod("o", { restartPolicy: "OnFailure" }, { "kubelet.servicenet.io/exit-after-seconds": "5", "kubelet.servicenet.io/exit-code": "2" }),
    );
    await step(workers, "default/o");
    clock.step(5_000);
    await step(workers, "default/o");
    const o = pods.get("default/o");
    expect(o.status?.phase).toBe("Running");
    expect(o.status?.containerStatuses?.[0]).toMatchObject({ restartCount: 1, lastState: { terminated: { exitCode: 2 } } });
  });

  it("stops a deleted Pod's containers within the grace period, writes the terminal status, then deletes it with grace 0 and frees its IPs", async () => {
    const { pods, workers, clock, nodes } = setup();
    pods.add(pod("d"));
    await step(workers, "default/d");
    const running = pods.get("default/d");
    pods.informer.set({
      ...running,
      metadata: { ...running.metadata, deletionTimestamp: "2026-01-01T00:00:00Z", deletionGracePeriodSeconds: 30 },
    });
    await step(workers, "default/d");
    // Terminating but still serving: Ready until the containers stop (default 3 s after SIGTERM).
    expect(condStatus(pods.get("default/d")).Ready).toBe("True");
    clock.step(2_999);
    await step(workers, "default/d");
    expect(pods.writes.at(-1)?.verb).toBe("patch");
    clock.step(1);
    await step(workers, "default/d");
    const patch = pods.writes.at(-2)?.body as { status: Pod["status"] };
    expect(patch.status?.phase).toBe("Succeeded");
    expect(patch.status?.containerStatuses?.[0]?.state?.terminated).toMatchObject({ exitCode: 0, reason: "Completed" });
    expect(patch.status?.conditions?.find((c) => c.type === "Ready")).toMatchObject({ status: "False", reason: "PodCompleted" });
    expect(pods.writes.at(-1)).toEqual({ verb: "delete", key: "default/d", body: { uid: "uid-d" } });
    await step(workers, "default/d");
    expect(nodes.get("node-1")?.ipam?.inUse()).toEqual([0, 0]);
    expect(workers.running).toBe(0);
  });

  it("kills containers that outlast the grace period (exit 137, Failed)", async () => {
    const { pods, workers, clock } = setup();
    pods.add(pod("k", {}, { "kubelet.servicenet.io/stop-seconds": "60" }));
    await step(workers, "default/k");
    const p = pods.get("default/k");
    pods.informer.set({ ...p, metadata: { ...p.metadata, deletionTimestamp: "2026-01-01T00:00:00Z", deletionGracePeriodSeconds: 2 } });
    await step(workers, "default/k");
    clock.step(2_000);
    await step(workers, "default/k");
    const patch = pods.writes.at(-2)?.body as { status: Pod["status"] };
    expect(patch.status?.phase).toBe("Failed");
    expect(patch.status?.containerStatuses?.[0]?.state?.terminated).toMatchObject({ exitCode: 137, reason: "Error" });
  });

  it("deletes at once a deleted Pod that never started", async () => {
    const { pods, workers } = setup(null);
    const p = pods.add(pod("n"));
    pods.informer.set({ ...p, metadata: { ...p.metadata, deletionTimestamp: "2026-01-01T00:00:00Z" } });
    await step(workers, "default/n");
    expect(pods.writes).toEqual([{ verb: "delete", key: "default/n", body: { uid: "uid-n" } }]);
  });

  it("does not write again from a stale copy of a Pod it just wrote", async () => {
    const { pods, workers } = setup();
    const stale = pods.add(pod("s"));
    await step(workers, "default/s");
    pods.informer.set(stale);
    await step(workers, "default/s");
    expect(pods.writes).toHaveLength(1);
  });
});
