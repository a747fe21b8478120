// Upstream's TestSlowStartBatch, TestGetPodsToDelete and TestGetPodKeys (replica_set_test.go).
import { describe, expect, it } from "vitest";
import type { Pod } from "@servicenet/api";
import { newPod, newReplicaSet } from "../testing/replicaset.ts";
import { getPodKeys, getPodsToDelete } from "./manage-replicas.ts";
import { slowStartBatch } from "./slow-start-batch.ts";

describe("slowStartBatch", () => {
  it.each([
    // name, count, callLimit, successes, error, calls
    ["callLimit = 0 (all fail)", 10, 0, 0, true, 1],
    ["callLimit = count (all succeed)", 10, 10, 10, false, 10], // 1 + 2 + 4 + 3
    ["callLimit < count (some succeed)", 10, 5, 5, true, 7], // 1 + 2 + 4
  ] as const)("TestSlowStartBatch: %s", async (_name, count, callLimit, wantSuccesses, wantErr, wantCalls) => {
    const fakeErr = new Error("fake error");
    let calls = 0;
    const fn = async () => {
      calls++;
      if (calls > callLimit) throw fakeErr;
    };
    const { successes, error } = await slowStartBatch(count, 1, fn);
    expect(successes).toBe(wantSuccesses);
    expect(error).toBe(wantErr ? fakeErr : undefined);
    expect(calls).toBe(wantCalls);
  });

  it("runs the calls of one batch concurrently", async () => {
    let inFlight = 0;
    let max = 0;
    await slowStartBatch(7, 1, async () => {
      max = Math.max(max, ++inFlight);
      await new Promise((r) => setImmediate(r));
      inFlight--;
    });
    expect(max).toBe(4); // batches 1, 2, 4
  });
});

describe("getPodsToDelete", () => {
  const rs = newReplicaSet(1, { name: "foo" });
  const withNode = (p: Pod, node: string, ready?: boolean): Pod => {
    p.spec.nodeName = node;
    if (ready !== undefined) p.status!.conditions = [{ type: "Ready", status: ready ? "True" : "False" }];
    return p;
  };
  const unscheduledPending = newPod("unscheduled-pending-pod", rs, "Pending", undefined, true);
  const scheduledPending = withNode(newPod("scheduled-pending-pod", rs, "Pending", undefined, true), "fake-node");
  const notReady = withNode(newPod("scheduled-running-not-ready-pod", rs, "Running", undefined, true), "fake-node", false);
  const readyOn1 = withNode(newPod("scheduled-running-ready-pod-on-node-1", rs, "Running", undefined, true), "fake-node-1", true);
  const readyOn2 = withNode(newPod("scheduled-running-ready-pod-on-node-2", rs, "Running", undefined, true), "fake-node-2", true);
  const all = [readyOn1, readyOn1, readyOn2, notReady, scheduledPending, unscheduledPending];
  const cases: [string, Pod[], Pod[] | undefined, number, Pod[]][] = [
    ["len(pods) = 0 (i.e., diff = 0 too)", [], undefined, 0, []],
    ["diff = len(pods)", [notReady, readyOn1], undefined, 2, [notReady, readyOn1]],
    ["diff < len(pods)", [readyOn1, notReady], undefined, 1, [notReady]],
    ["various pod phases and conditions, diff = len(pods)", all, undefined, 6, all],
    ["various pod phases and conditions, diff = len(pods), relatedPods empty", all, [], 6, all],
    ["scheduled vs unscheduled, diff < len(pods)", [scheduledPending, unscheduledPending], undefined, 1, [unscheduledPending]],
    ["ready vs not-ready, diff < len(pods)", [readyOn1, notReady, notReady], undefined, 2, [notReady, notReady]],
    [
      "ready and colocated with another ready pod vs not colocated, diff < len(pods)",
      [readyOn1, readyOn2],
      [readyOn1, readyOn2, readyOn2],
      1,
      [readyOn2],
    ],
    ["pending vs running, diff < len(pods)", [scheduledPending, notReady], undefined, 1, [scheduledPending]],
    [
      "various pod phases and conditions, diff < len(pods)",
      [readyOn1, readyOn2, notReady, scheduledPending, unscheduledPending],
      undefined,
      3,
      [unscheduledPending, scheduledPending, notReady],
    ],
  ];
  it.each(cases)("TestGetPodsToDelete: %s", (_name, pods, related, diff, want) => {
    expect(getPodsToDelete(pods, related ?? pods, diff).map((p) => p.metadata.name)).toEqual(want.map((p) => p.metadata.name));
  });

  it("TestGetPodKeys", () => {
    expect(getPodKeys([])).toEqual([]);
    expect(getPodKeys([newPod("pod1", rs, "Running", undefined, true), newPod("pod2", rs, "Running", undefined, true)])).toEqual([
      "default/pod1",
      "default/pod2",
    ]);
  });
});
