/** pkg/controller/controller_utils_test.go: TestSortingActivePodsWithRanks, and getPodsToDelete's order. */
import type { Pod } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import { activePodsLess, defaultRankingGates, podsToDelete, ranksByRelatedPodsOnSameNode } from "./controller-utils.ts";

const now = Date.parse("2025-01-01T12:00:00Z");
const ago = (h: number) => new Date(now - h * 3600_000).toISOString().replace(".000Z", "Z");

function pod(
  name: string,
  o: { node?: string; phase?: string; ready?: string | null; restarts?: number; created?: string; cost?: string } = {},
): Pod {
  const conditions =
    o.ready === undefined
      ? []
      : o.ready === null
        ? [{ type: "Ready", status: "True" }]
        : [{ type: "Ready", status: "True", lastTransitionTime: o.ready }];
  return {
    metadata: {
      name,
      uid: name,
      creationTimestamp: o.created ?? ago(24),
      ...(o.cost !== undefined ? { annotations: { "controller.kubernetes.io/pod-deletion-cost": o.cost } } : {}),
    },
    spec: { containers: [], ...(o.node !== undefined ? { nodeName: o.node } : {}) },
    status: { phase: o.phase ?? "Running", conditions, containerStatuses: [{ name: "c", restartCount: o.restarts ?? 0 }] },
  };
}

const unscheduledPod = pod("unscheduled", { phase: "Pending" });
const scheduledPendingPod = pod("pending", { node: "bar", phase: "Pending" });
const unknownPhasePod = pod("unknown", { node: "foo", phase: "Unknown" });
const runningNotReadyPod = pod("notready", { node: "foo" });
const runningReadyNoLastTransitionTimePod = pod("readynotime", { node: "foo", ready: null });
const runningReadyNow = pod("readynow", { node: "foo", ready: ago(0) });
const runningReadyThen = pod("readythen", { node: "foo", ready: ago(1) });
const runningReadyNowHighRestarts = pod("readynowhighrestarts", { node: "foo", ready: ago(0), restarts: 42 });
const runningReadyNowCreatedThen = pod("readynowcreatedthen", { node: "foo", ready: ago(0), created: ago(48) });
const lowPodDeletionCost = pod("lowdeletioncost", { node: "foo", ready: ago(0), cost: "10" });
const highPodDeletionCost = pod("highdeletioncost", { node: "foo", ready: ago(0), cost: "100" });
const ready2Hours = pod("ready2hours", { node: "foo", ready: ago(2) });
const ready5Hours = pod("ready5hours", { node: "foo", ready: ago(5) });
const ready10Hours = pod("ready10hours", { node: "foo", ready: ago(10) });

describe("TestSortingActivePodsWithRanks", () => {
  it.each<[Pod, number, Pod, number, { podDeletionCost?: boolean }?]>([
    [unscheduledPod, 1, scheduledPendingPod, 2],
    [unscheduledPod, 2, scheduledPendingPod, 1],
    [scheduledPendingPod, 1, unknownPhasePod, 2],
    [unknownPhasePod, 1, runningNotReadyPod, 2],
    [runningNotReadyPod, 1, runningReadyNoLastTransitionTimePod, 1],
    [runningReadyNoLastTransitionTimePod, 1, runningReadyNow, 1],
    [runningReadyNow, 2, runningReadyNoLastTransitionTimePod, 1],
    [runningReadyNow, 1, runningReadyThen, 1],
    [runningReadyNow, 2, runningReadyThen, 1],
    [runningReadyNowHighRestarts, 1, runningReadyNow, 1],
    [runningReadyNow, 2, runningReadyNowHighRestarts, 1],
    [runningReadyNow, 1, runningReadyNowCreatedThen, 1],
    [runningReadyNowCreatedThen, 2, runningReadyNow, 1],
    [lowPodDeletionCost, 2, highPodDeletionCost, 1],
    [highPodDeletionCost, 2, lowPodDeletionCost, 1, { podDeletionCost: false }],
    [ready2Hours, 1, ready5Hours, 1],
    [ready5Hours, 1, ready10Hours, 1],
  ])("%#: %o (rank %i) is deleted before the other", (lesser, lr, greater, gr, gates) => {
    const g = { ...defaultRankingGates, ...gates };
    expect(activePodsLess(lesser, lr, greater, gr, now, g)).toBe(true);
    expect(activePodsLess(greater, gr, lesser, lr, now, g)).toBe(false);
  });

  it("with LogarithmicScaleDown, ready times in one power-of-two bucket tie and the uid decides", () => {
    const a = pod("a", { node: "foo", ready: ago(5) });
    const b = pod("b", { node: "foo", ready: ago(5.5) });
    expect(activePodsLess(a, 1, b, 1, now)).toBe(true);
    expect(activePodsLess(b, 1, a, 1, now)).toBe(false);
    // Without it the one ready for less time goes first.
    expect(activePodsLess(b, 1, a, 1, now, { podDeletionCost: true, logarithmicScaleDown: false })).toBe(false);
  });
});

describe("getPodsToDelete", () => {
  it("deletes the doubled-up Pods first among equals", () => {
    const pods = [
      pod("x", { node: "n1", ready: ago(3) }),
      pod("y", { node: "n2", ready: ago(3) }),
      pod("z", { node: "n2", ready: ago(3) }),
    ];
    const ranks = ranksByRelatedPodsOnSameNode(pods, pods);
    expect(ranks).toEqual([1, 2, 2]);
    expect(podsToDelete(pods, ranks, 2, now).map((p) => p.metadata.name)).toEqual(["y", "z"]);
  });
});
