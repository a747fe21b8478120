import { describe, expect, it } from "vitest";
import { defaultProfile } from "./framework/plugins/registry.ts";
import { Algorithm, errNoNodesAvailable, numFeasibleNodesToFind } from "./scheduler.ts";
import { makeNode, makePod, requests } from "./testing/wrappers.ts";

describe("Algorithm.schedule", () => {
  const algo = (nodes = 3) => {
    const a = new Algorithm({ ...defaultProfile(() => undefined), random: () => 0.99 });
    for (let i = 0; i < nodes; i++) a.cache.setNode(makeNode(`node-${i}`, { allocatable: { cpu: "2", memory: "4Gi", pods: "110" } }));
    return a;
  };

  it("says no nodes are available without Nodes", () => {
    expect(algo(0).schedule(makePod("p"))).toEqual({ error: errNoNodesAvailable });
  });

  it("prefers the least allocated Node", () => {
    const a = algo();
    a.cache.addPod(makePod("x", requests({ cpu: "1" })), "node-0");
    a.cache.addPod(makePod("y", requests({ cpu: "1" })), "node-1");
    expect(a.schedule(makePod("p", requests({ cpu: "100m" })))).toEqual({ node: "node-2" });
  });

  it("gives upstream's FitError message when nothing fits", () => {
    const a = algo();
    a.cache.setNode(
      makeNode("node-0", {
        spec: { taints: [{ key: "node-role.kubernetes.io/control-plane", effect: "NoSchedule" }] },
        allocatable: { cpu: "2", memory: "4Gi", pods: "110" },
      }),
    );
    a.cache.addPod(makePod("x", requests({ cpu: "1500m" })), "node-1");
    a.cache.addPod(makePod("y", requests({ cpu: "1500m" })), "node-2");
    expect(a.schedule(makePod("p", requests({ cpu: "1" })))).toEqual({
      error:
        "0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.",
    });
  });

  it("numFeasibleNodesToFind: all below 100 Nodes, an adaptive share above", () => {
    expect([50, 100, 1000, 5000].map(numFeasibleNodesToFind)).toEqual([50, 100, 420, 500]);
  });
});
