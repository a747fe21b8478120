/**
 * The taint-eviction controller's Node updates, after pkg/controller/tainteviction/taint_eviction_test.go
 * (TestUpdateNode and the tests after it): the same tables, on a fake clock instead of wall-clock sleeps.
 */
import { describe, expect, it } from "vitest";
import type { Node, Pod, Taint, Toleration } from "@servicenet/api";
import {
  addTaintsToNode,
  addToleration,
  createNoExecuteTaint,
  newNode,
  newPod,
  podActions,
  stoppedAfterEach,
} from "../../testing/taint-eviction.ts";
import { getMinTolerationTime } from "./tolerations.ts";

const setup = stoppedAfterEach();
describe("TaintEvictionController Node updates", () => {
  const twoTolerations: Toleration[] = [
    { key: "testTaint1", value: "test1", effect: "NoExecute", tolerationSeconds: 1 },
    { key: "testTaint2", value: "test2", effect: "NoExecute", tolerationSeconds: 100 },
  ];
  it.each<{
    description: string;
    pods: Pod[];
    oldNode: Node;
    newNode: Node;
    expectPatch: boolean;
    expectDelete: boolean;
    additionalSleepMs?: number;
  }>([
    {
      description: "Added taint, expect node patched and deleted",
      pods: [newPod("pod1", "node1")],
      oldNode: newNode("node1"),
      newNode: addTaintsToNode(newNode("node1"), [1]),
      expectPatch: true,
      expectDelete: true,
    },
    {
      description: "Added tolerated taint",
      pods: [addToleration(newPod("pod1", "node1"), 1, 100)],
      oldNode: newNode("node1"),
      newNode: addTaintsToNode(newNode("node1"), [1]),
      expectPatch: false,
      expectDelete: false,
    },
    {
      description: "Only one added taint tolerated",
      pods: [addToleration(newPod("pod1", "node1"), 1, 100)],
      oldNode: newNode("node1"),
      newNode: addTaintsToNode(newNode("node1"), [1, 2]),
      expectPatch: true,
      expectDelete: true,
    },
    {
      description: "Taint removed",
      pods: [addToleration(newPod("pod1", "node1"), 1, 1)],
      oldNode: addTaintsToNode(newNode("node1"), [1]),
      newNode: newNode("node1"),
      expectPatch: false,
      expectDelete: false,
      additionalSleepMs: 1500,
    },
    {
      description: "Pod with multiple tolerations are evicted when first one runs out",
      pods: [{ ...newPod("pod1", "node1"), spec: { containers: [], nodeName: "node1", tolerations: twoTolerations } }],
      oldNode: newNode("node1"),
      newNode: addTaintsToNode(newNode("node1"), [1, 2]),
      expectPatch: true,
      expectDelete: true,
      additionalSleepMs: 1000,
    },
  ])("TestUpdateNode: $description", async ({ pods, oldNode, newNode: next, expectPatch, expectDelete, additionalSleepMs }) => {
    const { nodeInf, actions, clock, settle } = setup({ pods, nodes: [oldNode] });
    await settle();
    nodeInf.set(next);
    await settle();
    if (additionalSleepMs !== undefined) clock.step(additionalSleepMs);
    await settle();
    expect(podActions(actions)).toEqual({ patch: expectPatch, delete: expectDelete });
  });

  it("TestUpdateNode: Taint removed cancels the scheduled deletion, with an event", async () => {
    const { nodeInf, actions, recorder, clock, settle } = setup({
      pods: [addToleration(newPod("pod1", "node1"), 1, 1)],
      nodes: [newNode("node1")],
    });
    await settle();
    nodeInf.set(addTaintsToNode(newNode("node1"), [1]));
    await settle();
    nodeInf.set(newNode("node1"));
    await settle();
    clock.step(1500);
    await settle();
    expect(actions).toEqual([]);
    expect(recorder.events).toEqual(["Normal TaintManagerEviction Cancelling deletion of Pod default/pod1"]);
  });

  it("TestUpdateNodeWithMultipleTaints", async () => {
    const taint1 = createNoExecuteTaint(1);
    const taint2 = createNoExecuteTaint(2);
    const pod = newPod("pod1", "node1");
    pod.spec.tolerations = [
      { key: taint1.key, operator: "Exists", effect: "NoExecute" },
      { key: taint2.key, operator: "Exists", effect: "NoExecute", tolerationSeconds: 60 },
    ];
    const { controller, nodeInf, actions } = setup({ pods: [pod] });
    const scheduled = () => controller.taintEvictionQueue.getWorkerUnsafe("default/pod1");
    const step = (taints: Taint[]) => {
      nodeInf.set({ ...newNode("node1"), spec: { taints } });
      controller.handleNodeUpdate("node1");
    };
    step([]);
    expect(scheduled(), "pod queued for deletion with no taints").toBeUndefined();
    step([taint1]);
    expect(scheduled(), "pod queued for deletion with permanently tolerated taint").toBeUndefined();
    step([taint1, taint2]);
    expect(scheduled(), "pod not queued for deletion after addition of temporarily tolerated taint").toBeDefined();
    step([taint1]);
    expect(scheduled(), "pod queued for deletion after removal of temporarily tolerated taint").toBeUndefined();
    expect(actions.filter((a) => a.startsWith("delete"))).toEqual([]);
  });

  it.each<{ description: string; pods: Pod[]; newNode: Node; expectedDeleteTimes: [number, string[]][] }>([
    {
      description: "Pods with different toleration times are evicted appropriately",
      pods: [newPod("pod1", "node1"), addToleration(newPod("pod2", "node1"), 1, 1), addToleration(newPod("pod3", "node1"), 1, -1)],
      newNode: addTaintsToNode(newNode("node1"), [1]),
      expectedDeleteTimes: [
        [0, ["pod1"]],
        [1000, ["pod2"]],
      ],
    },
    {
      description: "Evict all pods not matching all taints instantly",
      pods: [newPod("pod1", "node1"), addToleration(newPod("pod2", "node1"), 1, 1), addToleration(newPod("pod3", "node1"), 1, -1)],
      newNode: addTaintsToNode(newNode("node1"), [1, 2]),
      expectedDeleteTimes: [[0, ["pod1", "pod2", "pod3"]]],
    },
  ])("TestUpdateNodeWithMultiplePods: $description", async ({ pods, newNode: next, expectedDeleteTimes }) => {
    const { nodeInf, clock, settle, deleted, actions } = setup({ pods, nodes: [newNode("node1")] });
    await settle();
    const start = clock.now();
    nodeInf.set(next);
    for (const [at, names] of expectedDeleteTimes) {
      clock.step(at - (clock.now() - start));
      await settle();
      expect(deleted().sort(), `deleted at ${at} ms`).toEqual(names);
      actions.length = 0;
    }
    // And nothing later: the forever-tolerating Pod stays.
    clock.step(600_000);
    await settle();
    expect(deleted()).toEqual([]);
  });

  it.each<{ tolerations: Toleration[]; expected: number }>([
    { tolerations: [], expected: 0 },
    { tolerations: [{}], expected: -1 },
    { tolerations: [{ tolerationSeconds: 1 }, { tolerationSeconds: 2 }], expected: 1000 },
    { tolerations: [{ tolerationSeconds: 1 }, {}], expected: 1000 },
    { tolerations: [{}, { tolerationSeconds: 1 }], expected: 1000 },
    { tolerations: [{ tolerationSeconds: 5 }, { tolerationSeconds: 0 }], expected: 0 },
  ])("TestGetMinTolerationTime: $tolerations -> $expected", ({ tolerations, expected }) => {
    expect(getMinTolerationTime(tolerations)).toBe(expected);
  });

  it.each<{ description: string; prevPod: Pod | undefined; newPod: Pod }>([
    { description: "existing pod2 scheduled onto tainted Node", prevPod: newPod("pod2", ""), newPod: newPod("pod2", "node1") },
    {
      description: "existing pod2 with taint toleration scheduled onto tainted Node",
      prevPod: addToleration(newPod("pod2", ""), 1, 100),
      newPod: addToleration(newPod("pod2", "node1"), 1, 100),
    },
    { description: "new pod2 created on tainted Node", prevPod: undefined, newPod: newPod("pod2", "node1") },
    {
      description: "new pod2 with tait toleration created on tainted Node",
      prevPod: undefined,
      newPod: addToleration(newPod("pod2", "node1"), 1, 100),
    },
  ])("TestEventualConsistency: $description", async ({ prevPod, newPod: next }) => {
    const pods = [newPod("pod1", "node1"), ...(prevPod ? [prevPod] : [])];
    const { nodeInf, podInf, api, clock, settle, deleted, actions } = setup({ pods, nodes: [newNode("node1")] });
    api.set("default/pod2", structuredClone(next));
    await settle();
    // First the Node update that deletes pod1; the cache does not have pod2 on the Node yet.
    nodeInf.set(addTaintsToNode(newNode("node1"), [1]));
    await settle();
    expect(podActions(actions)).toEqual({ patch: true, delete: true });
    expect(deleted()).toEqual(["pod1"]);
    actions.length = 0;
    // Then pod2's delayed update: it goes too, at once or when its toleration runs out.
    podInf.set(next);
    await settle();
    clock.step(100_000);
    await settle();
    expect(deleted()).toEqual(["pod2"]);
  });
});
