/**
 * The taint-eviction controller, after pkg/controller/tainteviction/taint_eviction_test.go: the
 * same tables, on a fake clock instead of wall-clock sleeps, against informers and a fake client.
 */
import { describe, expect, it } from "vitest";
import type { Node, Pod, Taint } from "@servicenet/api";
import {
  addTaintsToNode,
  addToleration,
  createNoExecuteTaint,
  newNode,
  newPod,
  podActions,
  stoppedAfterEach,
} from "../../testing/taint-eviction.ts";
import { getNoExecuteTaints } from "./tolerations.ts";

const setup = stoppedAfterEach();
const tainted = (...indices: number[]) => new Map<string, Taint[]>([["node1", indices.map(createNoExecuteTaint)]]);

describe("TaintEvictionController", () => {
  it("TestFilterNoExecuteTaints", () => {
    const taints = getNoExecuteTaints([
      { key: "one", value: "one", effect: "NoExecute" },
      { key: "two", value: "two", effect: "NoSchedule" },
    ]);
    expect(taints.map((t) => t.key)).toEqual(["one"]);
  });

  it.each<{ description: string; pod: Pod; taintedNodes: Map<string, Taint[]>; expectPatch: boolean; expectDelete: boolean }>([
    { description: "not scheduled - ignore", pod: newPod("pod1", ""), taintedNodes: new Map(), expectPatch: false, expectDelete: false },
    {
      description: "scheduled on untainted Node",
      pod: newPod("pod1", "node1"),
      taintedNodes: new Map(),
      expectPatch: false,
      expectDelete: false,
    },
    {
      description: "schedule on tainted Node",
      pod: newPod("pod1", "node1"),
      taintedNodes: tainted(1),
      expectPatch: true,
      expectDelete: true,
    },
    {
      description: "schedule on tainted Node with finite toleration",
      pod: addToleration(newPod("pod1", "node1"), 1, 100),
      taintedNodes: tainted(1),
      expectPatch: false,
      expectDelete: false,
    },
    {
      description: "schedule on tainted Node with infinite toleration",
      pod: addToleration(newPod("pod1", "node1"), 1, -1),
      taintedNodes: tainted(1),
      expectPatch: false,
      expectDelete: false,
    },
    {
      description: "schedule on tainted Node with infinite invalid toleration",
      pod: addToleration(newPod("pod1", "node1"), 2, -1),
      taintedNodes: tainted(1),
      expectPatch: true,
      expectDelete: true,
    },
  ])("TestCreatePod: $description", async ({ pod, taintedNodes, expectPatch, expectDelete }) => {
    const { controller, podInf, api, actions, settle } = setup();
    for (const [k, v] of taintedNodes) controller.taintedNodes.set(k, v);
    api.set("default/pod1", structuredClone(pod));
    podInf.set(pod);
    await settle();
    expect(podActions(actions)).toEqual({ patch: expectPatch, delete: expectDelete });
  });

  it("TestCreatePod: the deleted Pod carries DisruptionTarget (DeletionByTaintManager) and the events say so", async () => {
    const { controller, podInf, api, patches, recorder, settle } = setup();
    controller.taintedNodes.set("node1", [createNoExecuteTaint(1)]);
    api.set("default/pod1", newPod("pod1", "node1"));
    podInf.set(newPod("pod1", "node1"));
    await settle();
    expect(patches).toEqual([
      {
        metadata: { uid: "uid-pod1" },
        status: {
          "$setElementOrder/conditions": [{ type: "Ready" }, { type: "DisruptionTarget" }],
          conditions: [
            {
              type: "DisruptionTarget",
              status: "True",
              reason: "DeletionByTaintManager",
              message: "Taint manager: deleting due to NoExecute taint",
              lastTransitionTime: "2026-01-01T00:00:00Z",
            },
          ],
        },
      },
    ]);
    expect(recorder.events).toEqual(["Normal TaintManagerEviction Marking for deletion Pod default/pod1"]);
    expect(podInf.get("default/pod1")).toBeUndefined();
  });

  it("TestDeletePod: a deleted Pod on a tainted Node is nothing to do", async () => {
    const { controller, actions, settle } = setup();
    controller.taintedNodes.set("node1", [createNoExecuteTaint(1)]);
    controller.podUpdated(newPod("pod1", "node1"), undefined);
    await settle();
    expect(actions).toEqual([]);
  });

  it.each<{
    description: string;
    prevPod: Pod;
    newPod: Pod;
    awaitForScheduledEviction?: boolean;
    expectPatch: boolean;
    expectDelete: boolean;
  }>([
    {
      description: "scheduling onto tainted Node",
      prevPod: newPod("pod1", ""),
      newPod: newPod("pod1", "node1"),
      expectPatch: true,
      expectDelete: true,
    },
    {
      description: "scheduling onto tainted Node with toleration",
      prevPod: addToleration(newPod("pod1", ""), 1, -1),
      newPod: addToleration(newPod("pod1", "node1"), 1, -1),
      expectPatch: false,
      expectDelete: false,
    },
    {
      description: "removing toleration",
      prevPod: addToleration(newPod("pod1", "node1"), 1, 100),
      newPod: newPod("pod1", "node1"),
      awaitForScheduledEviction: true,
      expectPatch: true,
      expectDelete: true,
    },
    {
      description: "lengthening toleration shouldn't work",
      prevPod: addToleration(newPod("pod1", "node1"), 1, 1),
      newPod: addToleration(newPod("pod1", "node1"), 1, 100),
      awaitForScheduledEviction: true,
      expectPatch: true,
      expectDelete: true,
    },
  ])("TestUpdatePod: $description", async ({ prevPod, newPod: next, awaitForScheduledEviction, expectPatch, expectDelete }) => {
    const { controller, podInf, api, actions, clock, settle } = setup();
    controller.taintedNodes.set("node1", [createNoExecuteTaint(1)]);
    api.set("default/pod1", structuredClone(prevPod));
    podInf.set(prevPod);
    await settle();
    if (awaitForScheduledEviction === true) expect(controller.taintEvictionQueue.getWorkerUnsafe("default/pod1")).toBeDefined();
    // Time passes between the two updates, as it does in upstream's test.
    clock.step(10);
    podInf.set(next);
    await settle();
    // The shorter toleration's deadline (1 s) is kept; nothing waits longer than that.
    clock.step(1000);
    await settle();
    expect(podActions(actions)).toEqual({ patch: expectPatch, delete: expectDelete });
  });

  it.each<{ description: string; pods: Pod[]; node: Node; expectPatch: boolean; expectDelete: boolean }>([
    {
      description: "Creating Node matching already assigned Pod",
      pods: [newPod("pod1", "node1")],
      node: newNode("node1"),
      expectPatch: false,
      expectDelete: false,
    },
    {
      description: "Creating tainted Node matching already assigned Pod",
      pods: [newPod("pod1", "node1")],
      node: addTaintsToNode(newNode("node1"), [1]),
      expectPatch: true,
      expectDelete: true,
    },
    {
      description: "Creating tainted Node matching already assigned tolerating Pod",
      pods: [addToleration(newPod("pod1", "node1"), 1, -1)],
      node: addTaintsToNode(newNode("node1"), [1]),
      expectPatch: false,
      expectDelete: false,
    },
  ])("TestCreateNode: $description", async ({ pods, node, expectPatch, expectDelete }) => {
    const { nodeInf, actions, settle } = setup({ pods });
    nodeInf.set(node);
    await settle();
    expect(podActions(actions)).toEqual({ patch: expectPatch, delete: expectDelete });
  });

  it("TestDeleteNode: a deleted Node is forgotten", async () => {
    const { controller, nodeInf, settle } = setup({ nodes: [addTaintsToNode(newNode("node1"), [1])] });
    await settle();
    expect(controller.taintedNodes.has("node1")).toBe(true);
    nodeInf.remove("node1");
    await settle();
    expect(controller.taintedNodes.has("node1")).toBe(false);
  });
});
