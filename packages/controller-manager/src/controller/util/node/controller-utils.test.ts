/** The node helpers, after pkg/controller/util/node/controller_utils_test.go and pkg/controller/controller_utils_test.go. */
import { StatusError, type Node, type Pod, type Taint } from "@servicenet/api";
import { FakeRecorder } from "@servicenet/client/tools/record";
import { describe, expect, it } from "vitest";
import { at, makeNode, makePod, t0 } from "../../../testing/node-lifecycle.ts";
import {
  markPodsNotReady,
  swapNodeControllerTaint,
  swappedTaints,
  updatePodCondition,
  type NodeLifecycleClient,
} from "./controller-utils.ts";

function fakeClient(node: Node, conflicts = 0) {
  const calls: string[] = [];
  let current = node;
  const client: NodeLifecycleClient = {
    getNode: () => (calls.push("get"), Promise.resolve(structuredClone(current))),
    patchNodeTaints(name, rv, taints) {
      calls.push(`patch rv=${rv} ${taints.map((t) => t.key).join(",")}`);
      if (conflicts-- > 0) {
        current = { ...current, metadata: { ...current.metadata, resourceVersion: String(Number(current.metadata.resourceVersion) + 1) } };
        return Promise.reject(StatusError.conflict({ group: "", resource: "nodes" }, name, "the object has been modified"));
      }
      current = { ...current, spec: { ...current.spec, taints } };
      return Promise.resolve();
    },
    updateNodeStatus: (n) => Promise.resolve(n),
    updatePodStatus: (p: Pod) => (calls.push(`pod ${p.metadata.name ?? ""}`), Promise.resolve(p)),
  };
  return { client, calls, node: () => current };
}

describe("updatePodCondition", () => {
  it("moves lastTransitionTime only with the status, and says whether anything changed", () => {
    const pod = makePod("p", "n");
    expect(updatePodCondition(pod, { type: "Ready", status: "True" }, t0)).toBe(false);
    expect(pod.status?.conditions?.[0]?.lastTransitionTime).toBe(at(t0 - 60_000));
    expect(updatePodCondition(pod, { type: "Ready", status: "False" }, t0)).toBe(true);
    expect(pod.status?.conditions?.[0]).toEqual({ type: "Ready", status: "False", lastTransitionTime: at(t0) });
  });
});

describe("markPodsNotReady", () => {
  it("TestMarkPodsNotReady: only the Node's Pods with Ready True are written; each gets the NodeNotReady event", async () => {
    const { client, calls } = fakeClient(makeNode("node0"));
    const recorder = new FakeRecorder();
    const notReady = makePod("already", "node0");
    notReady.status!.conditions![0]!.status = "False";
    await markPodsNotReady(client, recorder, [makePod("a", "node0"), makePod("b", "node1"), notReady], "node0", t0);
    expect(calls).toEqual(["pod a"]);
    expect(recorder.events).toEqual(["Warning NodeNotReady Node is not ready"]);
  });

  it("a Pod gone meanwhile (404) is skipped; other failures are returned", async () => {
    const { client } = fakeClient(makeNode("node0"));
    const recorder = new FakeRecorder();
    client.updatePodStatus = (p) =>
      Promise.reject(p.metadata.name === "gone" ? StatusError.notFound({ group: "", resource: "pods" }, "gone") : new Error("boom"));
    await expect(markPodsNotReady(client, recorder, [makePod("gone", "node0")], "node0", t0)).resolves.toBeUndefined();
    await expect(markPodsNotReady(client, recorder, [makePod("x", "node0")], "node0", t0)).rejects.toThrow("boom");
    expect(recorder.events).toEqual([]);
  });
});

describe("swapNodeControllerTaint", () => {
  const unreachable: Taint = { key: "node.kubernetes.io/unreachable", effect: "NoExecute" };
  const notReady: Taint = { key: "node.kubernetes.io/not-ready", effect: "NoExecute" };

  it("swappedTaints: removes by key and effect, adds or replaces", () => {
    const other: Taint = { key: "dedicated", value: "x", effect: "NoSchedule" };
    expect(swappedTaints([other, unreachable], [notReady], [unreachable])).toEqual([other, notReady]);
    expect(swappedTaints([{ ...notReady, value: "old" }], [notReady], [])).toEqual([notReady]);
  });

  it("stamps timeAdded, sends the resourceVersion, and retries a Conflict on a fresh Node", async () => {
    const f = fakeClient(makeNode("node0", { taints: [unreachable] }), 1);
    expect(await swapNodeControllerTaint(f.client, [notReady], [unreachable], makeNode("node0", { taints: [unreachable] }), t0)).toBe(true);
    expect(f.calls).toEqual(["patch rv=1 node.kubernetes.io/not-ready", "get", "patch rv=2 node.kubernetes.io/not-ready"]);
    expect(f.node().spec.taints).toEqual([{ ...notReady, timeAdded: at(t0) }]);
  });

  it("writes nothing when the taints are already as asked", async () => {
    const f = fakeClient(makeNode("node0"));
    expect(await swapNodeControllerTaint(f.client, [], [unreachable], makeNode("node0"), t0)).toBe(true);
    expect(f.calls).toEqual([]);
  });
});
