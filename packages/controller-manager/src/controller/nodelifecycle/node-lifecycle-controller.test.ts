/** The node lifecycle controller, after pkg/controller/nodelifecycle/node_lifecycle_controller_test.go. */
import { describe, expect, it } from "vitest";
import { at, makeLease, makeNode, makePod, setup, t0 } from "../../testing/node-lifecycle.ts";

const taintsOf = (nodes: { get(k: string): { spec: { taints?: { key: string; effect: string }[] } } | undefined }, name: string) =>
  (nodes.get(name)?.spec.taints ?? []).map((t) => `${t.key}:${t.effect}`);

describe("NodeLifecycleController.monitorNodeHealth", () => {
  it("TestMonitorNodeHealthUpdateStatus: a silent Node turns Unknown after the grace period, its Pods not Ready", async () => {
    const { nc, clock, nodeInf, podInf, recorder } = setup(
      [makeNode("node0", { ready: "True" }), makeNode("node1", { ready: "True" })],
      [],
      [makePod("pod0", "node0")],
    );
    await nc.monitorNodeHealth();
    expect(recorder.events).toEqual([
      "Normal RegisteredNode Registered Node node0 in Controller",
      "Normal RegisteredNode Registered Node node1 in Controller",
    ]);
    // node1 keeps posting status; node0 falls silent.
    const beat = (ms: number) => nodeInf.set({ ...makeNode("node1", { ready: "True", heartbeat: ms }) });
    clock.step(40_000);
    beat(clock.now());
    await nc.monitorNodeHealth();
    expect(nodeInf.get("node0")?.status?.conditions?.[0]?.status).toBe("True");
    clock.step(11_000);
    beat(clock.now());
    await nc.monitorNodeHealth();
    const conditions = nodeInf.get("node0")?.status?.conditions ?? [];
    expect(conditions.map((c) => [c.type, c.status, c.reason, c.message])).toEqual([
      ["Ready", "Unknown", "NodeStatusUnknown", "Kubelet stopped posting node status."],
      ["MemoryPressure", "Unknown", "NodeStatusUnknown", "Kubelet stopped posting node status."],
      ["DiskPressure", "Unknown", "NodeStatusNeverUpdated", "Kubelet never posted node status."],
      ["PIDPressure", "Unknown", "NodeStatusNeverUpdated", "Kubelet never posted node status."],
    ]);
    expect(conditions[0]?.lastTransitionTime).toBe(at(t0 + 51_000));
    expect(conditions[0]?.lastHeartbeatTime).toBe(at(t0));
    expect(nodeInf.get("node1")?.status?.conditions?.[0]?.status).toBe("True");
    const ready = podInf.get("default/pod0")?.status?.conditions?.find((c) => c.type === "Ready");
    expect(ready).toMatchObject({ status: "False", lastTransitionTime: at(t0 + 51_000) });
    expect(recorder.events.slice(2)).toEqual([
      "Normal NodeNotReady Node node0 status is now: NodeNotReady",
      "Warning NodeNotReady Node is not ready",
    ]);
  });

  it("TestMonitorNodeHealthUpdateNodeAndPodStatusWithLease: a renewed Lease keeps the Node healthy", async () => {
    const { nc, clock, nodeInf, leaseInf } = setup([makeNode("node0", { ready: "True" })], [makeLease("node0", t0)]);
    await nc.monitorNodeHealth();
    for (let i = 1; i <= 12; i++) {
      clock.step(10_000);
      leaseInf.set(makeLease("node0", clock.now()));
      await nc.monitorNodeHealth();
    }
    expect(nodeInf.get("node0")?.status?.conditions?.[0]?.status).toBe("True");
    // The Lease stops too: Unknown once the grace period has passed since its last renewal.
    clock.step(50_000);
    await nc.monitorNodeHealth();
    expect(nodeInf.get("node0")?.status?.conditions?.[0]?.status).toBe("True");
    clock.step(1_000);
    await nc.monitorNodeHealth();
    expect(nodeInf.get("node0")?.status?.conditions?.[0]?.status).toBe("Unknown");
  });

  it("a Node that never posted status gets the startup grace period and NodeStatusNeverUpdated", async () => {
    const node = makeNode("new");
    node.metadata.creationTimestamp = at(t0);
    const { nc, clock, nodeInf } = setup([node]);
    await nc.monitorNodeHealth();
    clock.step(60_000);
    await nc.monitorNodeHealth();
    expect(nodeInf.get("new")?.status?.conditions).toBeUndefined();
    clock.step(1_000);
    await nc.monitorNodeHealth();
    expect(nodeInf.get("new")?.status?.conditions?.map((c) => [c.type, c.status, c.reason])).toEqual([
      ["Ready", "Unknown", "NodeStatusNeverUpdated"],
      ["MemoryPressure", "Unknown", "NodeStatusNeverUpdated"],
      ["DiskPressure", "Unknown", "NodeStatusNeverUpdated"],
      ["PIDPressure", "Unknown", "NodeStatusNeverUpdated"],
    ]);
  });
});

describe("NodeLifecycleController NoExecute tainting", () => {
  it("TestApplyNoExecuteTaints: an unreachable Node is tainted at the zone's rate, and untainted once Ready", async () => {
    const { nc, clock, nodeInf } = setup([
      makeNode("node0", { ready: "True" }),
      makeNode("node1", { ready: "True" }),
      makeNode("node2", { ready: "True" }),
    ]);
    await nc.monitorNodeHealth();
    const beat = () => {
      for (const n of ["node1", "node2"]) nodeInf.set(makeNode(n, { ready: "True", heartbeat: clock.now() }));
    };
    clock.step(51_000);
    beat();
    await nc.monitorNodeHealth();
    // The pass that saw the transition marks the Pods; the next one queues the taint.
    await nc.doNoExecuteTaintingPass();
    expect(taintsOf(nodeInf, "node0")).toEqual([]);
    clock.step(5_000);
    beat();
    await nc.monitorNodeHealth();
    expect(
      nc
        .tainterOf("")
        ?.values()
        .map((v) => v.value),
    ).toEqual(["node0"]);
    await nc.doNoExecuteTaintingPass();
    expect(taintsOf(nodeInf, "node0")).toEqual(["node.kubernetes.io/unreachable:NoExecute"]);
    expect(nodeInf.get("node0")?.spec.taints?.[0]?.timeAdded).toBe(at(t0 + 56_000));
    // The kubelet comes back: Ready again, the taint goes.
    nodeInf.set({ ...makeNode("node0", { ready: "True", heartbeat: clock.now() + 1000 }), spec: nodeInf.get("node0")?.spec ?? {} });
    nodeInf.set({ ...nodeInf.get("node0")!, metadata: { ...nodeInf.get("node0")!.metadata, resourceVersion: "500" } });
    clock.step(5_000);
    beat();
    await nc.monitorNodeHealth();
    expect(taintsOf(nodeInf, "node0")).toEqual([]);
  });

  it("TestSwapUnreachableNotReadyTaints: a tainted Node whose Ready turns False is swapped at once", async () => {
    const tainted = makeNode("node0", { ready: "False", taints: [{ key: "node.kubernetes.io/unreachable", effect: "NoExecute" }] });
    const { nc, nodeInf } = setup([tainted, makeNode("node1", { ready: "True" })]);
    await nc.monitorNodeHealth();
    // No wait for the zone's rate limiter: the tainter queue stays empty.
    expect(taintsOf(nodeInf, "node0")).toEqual(["node.kubernetes.io/not-ready:NoExecute"]);
    expect(nc.tainterOf("")?.values()).toEqual([]);
  });

  it("TestMonitorNodeHealthEvictPodsWithDisruption: with every Node down nothing is tainted (master disruption mode)", async () => {
    const { nc, clock, nodeInf } = setup([makeNode("node0", { ready: "True" }), makeNode("node1", { ready: "True" })]);
    await nc.monitorNodeHealth();
    clock.step(51_000);
    await nc.monitorNodeHealth();
    clock.step(5_000);
    await nc.monitorNodeHealth();
    expect(nc.tainterOf("")?.qps()).toBe(0);
    clock.step(60_000);
    await nc.doNoExecuteTaintingPass();
    expect(taintsOf(nodeInf, "node0")).toEqual([]);
    expect(taintsOf(nodeInf, "node1")).toEqual([]);
  });
});

describe("NodeLifecycleController.doNoScheduleTaintingPass", () => {
  const cases: {
    name: string;
    ready?: string;
    pressure?: boolean;
    unschedulable?: boolean;
    taints?: { key: string; effect: string }[];
    want: string[];
  }[] = [
    {
      name: "Ready: the admission plugin's not-ready taint goes",
      ready: "True",
      taints: [{ key: "node.kubernetes.io/not-ready", effect: "NoSchedule" }],
      want: [],
    },
    { name: "NotReady", ready: "False", want: ["node.kubernetes.io/not-ready:NoSchedule"] },
    {
      name: "Unknown replaces not-ready",
      ready: "Unknown",
      taints: [{ key: "node.kubernetes.io/not-ready", effect: "NoSchedule" }],
      want: ["node.kubernetes.io/unreachable:NoSchedule"],
    },
    { name: "MemoryPressure", ready: "True", pressure: true, want: ["node.kubernetes.io/memory-pressure:NoSchedule"] },
    { name: "unschedulable", ready: "True", unschedulable: true, want: ["node.kubernetes.io/unschedulable:NoSchedule"] },
    { name: "other taints stay", ready: "True", taints: [{ key: "dedicated", effect: "NoSchedule" }], want: ["dedicated:NoSchedule"] },
  ];
  for (const c of cases)
    it(`TestTaintsNodeByCondition: ${c.name}`, async () => {
      const node = makeNode("node0", { ready: c.ready ?? "True", ...(c.taints ? { taints: c.taints } : {}) });
      if (c.pressure) node.status!.conditions![1]!.status = "True";
      if (c.unschedulable) node.spec.unschedulable = true;
      const { nc, nodeInf } = setup([node]);
      await nc.doNoScheduleTaintingPass("node0");
      expect(taintsOf(nodeInf, "node0")).toEqual(c.want);
    });
});

describe("NodeLifecycleController.processPod", () => {
  it("TestReconcileNodeLabels-free path: a Pod bound to a not-Ready Node is marked not Ready", async () => {
    const { nc, clock, podInf, nodeInf } = setup([makeNode("node0", { ready: "True" }), makeNode("node1", { ready: "True" })]);
    await nc.monitorNodeHealth();
    clock.step(51_000);
    nodeInf.set(makeNode("node1", { ready: "True", heartbeat: clock.now() }));
    await nc.monitorNodeHealth();
    podInf.set(makePod("late", "node0"));
    podInf.set(makePod("fine", "node1"));
    await nc.processPod("default/late");
    await nc.processPod("default/fine");
    expect(podInf.get("default/late")?.status?.conditions?.[0]?.status).toBe("False");
    expect(podInf.get("default/fine")?.status?.conditions?.[0]?.status).toBe("True");
  });
});
