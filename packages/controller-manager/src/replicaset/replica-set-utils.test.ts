// Upstream's replica_set_utils_test.go tables and replica_set_test.go's condition and status-update tests.
import { describe, expect, it } from "vitest";
import type { Pod, ReplicaSet, ReplicaSetCondition, ReplicaSetStatus } from "@servicenet/api";
import { newPod, newReplicaSet } from "../testing/replicaset.ts";
import {
  calculateStatus,
  getCondition,
  removeCondition,
  replicaSetReplicaFailure,
  setCondition,
  updateReplicaSetStatus,
  type ReplicaSetClient,
} from "./replica-set-utils.ts";

const now = Date.parse("2026-12-05T12:00:00Z");

describe("calculateStatus", () => {
  const labelMap = { name: "foo" };
  const fullLabelMap = { name: "foo", type: "production" };
  const notFullyLabelledRS = newReplicaSet(1, labelMap);
  const fullyLabelledRS = newReplicaSet(2, fullLabelMap);
  const longMinReadySecondsRS = newReplicaSet(1, fullLabelMap);
  longMinReadySecondsRS.spec.minReadySeconds = 3600;
  const counts = (replicas: number, fullyLabeledReplicas: number, readyReplicas: number, availableReplicas: number) => ({
    replicas,
    fullyLabeledReplicas,
    readyReplicas,
    availableReplicas,
  });
  const cases: [string, ReplicaSet, Pod[], ReplicaSetStatus][] = [
    ["1 fully labelled pod", fullyLabelledRS, [newPod("pod1", fullyLabelledRS, "Running", undefined, true)], counts(1, 1, 1, 1)],
    ["1 not fully labelled pod", notFullyLabelledRS, [newPod("pod1", notFullyLabelledRS, "Running", undefined, true)], counts(1, 0, 1, 1)],
    [
      "2 fully labelled pods",
      fullyLabelledRS,
      [newPod("pod1", fullyLabelledRS, "Running", undefined, true), newPod("pod2", fullyLabelledRS, "Running", undefined, true)],
      counts(2, 2, 2, 2),
    ],
    [
      "2 not fully labelled pods",
      notFullyLabelledRS,
      [newPod("pod1", notFullyLabelledRS, "Running", undefined, true), newPod("pod2", notFullyLabelledRS, "Running", undefined, true)],
      counts(2, 0, 2, 2),
    ],
    [
      "1 fully labelled pod, 1 not fully labelled pod",
      notFullyLabelledRS,
      [newPod("pod1", notFullyLabelledRS, "Running", undefined, true), newPod("pod2", fullyLabelledRS, "Running", undefined, true)],
      counts(2, 1, 2, 2),
    ],
    ["1 non-ready pod", fullyLabelledRS, [newPod("pod1", fullyLabelledRS, "Pending", undefined, true)], counts(1, 1, 0, 0)],
    [
      "1 ready but non-available pod",
      longMinReadySecondsRS,
      [newPod("pod1", longMinReadySecondsRS, "Running", undefined, true)],
      counts(1, 1, 1, 0),
    ],
    [
      "1 pod ready for longer than minReadySeconds",
      longMinReadySecondsRS,
      [newPod("pod1", longMinReadySecondsRS, "Running", "2026-12-05T10:59:59Z", true)],
      counts(1, 1, 1, 1),
    ],
    [
      "1 pod ready for exactly minReadySeconds",
      longMinReadySecondsRS,
      [newPod("pod1", longMinReadySecondsRS, "Running", "2026-12-05T11:00:00Z", true)],
      counts(1, 1, 1, 0),
    ],
  ];
  it.each(cases)("TestCalculateStatus: %s", (_name, rs, pods, want) => {
    // fullyLabelledRS has the template's labels as its selector; the template is the same for all.
    expect(calculateStatus(rs, pods, undefined, now)).toEqual(want);
  });

  const rs = newReplicaSet(2, labelMap);
  const replicaFailureRS = newReplicaSet(10, labelMap);
  replicaFailureRS.status = { replicas: 0, conditions: [{ type: replicaSetReplicaFailure, status: "True" }] };
  const fake = new Error("fake manageReplicasErr");
  const failed = (reason: string): ReplicaSetCondition[] => [
    {
      type: replicaSetReplicaFailure,
      status: "True",
      reason,
      message: "fake manageReplicasErr",
      lastTransitionTime: "2026-12-05T12:00:00Z",
    },
  ];
  const conditionCases: [string, ReplicaSet, Pod[], Error | undefined, ReplicaSetCondition[] | undefined][] = [
    [
      "manageReplicasErr != nil && failureCond == nil, diff < 0",
      rs,
      [newPod("pod1", rs, "Running", undefined, true)],
      fake,
      failed("FailedCreate"),
    ],
    [
      "manageReplicasErr != nil && failureCond == nil, diff > 0",
      rs,
      ["pod1", "pod2", "pod3"].map((n) => newPod(n, rs, "Running", undefined, true)),
      fake,
      failed("FailedDelete"),
    ],
    [
      "manageReplicasErr == nil && failureCond != nil",
      replicaFailureRS,
      [newPod("pod1", replicaFailureRS, "Running", undefined, true)],
      undefined,
      undefined,
    ],
    [
      "manageReplicasErr != nil && failureCond != nil",
      replicaFailureRS,
      [newPod("pod1", replicaFailureRS, "Running", undefined, true)],
      fake,
      [{ type: replicaSetReplicaFailure, status: "True" }],
    ],
    ["manageReplicasErr == nil && failureCond == nil", rs, [newPod("pod1", rs, "Running", undefined, true)], undefined, undefined],
  ];
  it.each(conditionCases)("TestCalculateStatusConditions: %s", (_name, set, pods, err, want) => {
    expect(calculateStatus(set, pods, err, now).conditions).toEqual(want);
  });
});

describe("conditions", () => {
  const condImagePullBackOff = (): ReplicaSetCondition => ({ type: "ImagePullBackOff", status: "True", reason: "NonExistentImage" });
  const condReplicaFailure = (): ReplicaSetCondition => ({ type: replicaSetReplicaFailure, status: "True", reason: "OtherFailure" });
  const condReplicaFailure2 = (): ReplicaSetCondition => ({ type: replicaSetReplicaFailure, status: "True", reason: "AnotherFailure" });
  const status = (): ReplicaSetStatus => ({ replicas: 0, conditions: [condReplicaFailure()] });

  it("TestGetCondition", () => {
    expect(getCondition(status(), replicaSetReplicaFailure)).toBeDefined();
    expect(getCondition(status(), "ImagePullBackOff")).toBeUndefined();
  });

  it.each([
    ["set for the first time", { replicas: 0 }, condReplicaFailure(), { replicas: 0, conditions: [condReplicaFailure()] }],
    [
      "simple set",
      { replicas: 0, conditions: [condImagePullBackOff()] },
      condReplicaFailure(),
      { replicas: 0, conditions: [condImagePullBackOff(), condReplicaFailure()] },
    ],
    [
      "overwrite",
      { replicas: 0, conditions: [condReplicaFailure()] },
      condReplicaFailure2(),
      { replicas: 0, conditions: [condReplicaFailure2()] },
    ],
  ] as [string, ReplicaSetStatus, ReplicaSetCondition, ReplicaSetStatus][])("TestSetCondition: %s", (_n, s, cond, want) => {
    setCondition(s, cond);
    expect(s).toEqual(want);
  });

  it.each([
    ["remove from empty status", { replicas: 0 }, replicaSetReplicaFailure, { replicas: 0 }],
    ["simple remove", { replicas: 0, conditions: [condReplicaFailure()] }, replicaSetReplicaFailure, { replicas: 0 }],
    ["doesn't remove anything", status(), "ImagePullBackOff", status()],
  ] as [string, ReplicaSetStatus, string, ReplicaSetStatus][])("TestRemoveCondition: %s", (_n, s, type, want) => {
    removeCondition(s, type);
    expect(s).toEqual(want);
  });
});

describe("updateReplicaSetStatus", () => {
  it("TestControllerUpdateStatusWithFailure: one GET, two PUTs with the new status", async () => {
    const rs = newReplicaSet(1, { foo: "bar" });
    const actions: string[] = [];
    const client: ReplicaSetClient = {
      async get(_ns, name) {
        actions.push(`get ${name}`);
        return rs;
      },
      async updateStatus(o) {
        actions.push(`update replicas=${o.status?.replicas}`);
        throw new Error("fake error");
      },
    };
    await expect(updateReplicaSetStatus(client, rs, { replicas: 10 })).rejects.toThrow("fake error");
    expect(actions).toEqual(["update replicas=10", "get foobar", "update replicas=10"]);
  });

  it("writes nothing when the status is current, and stamps the generation acted on", async () => {
    const rs = newReplicaSet(1, { foo: "bar" });
    rs.metadata.generation = 3;
    rs.status = { replicas: 1, readyReplicas: 1, availableReplicas: 1, fullyLabeledReplicas: 1, observedGeneration: 3 };
    const sent: ReplicaSet[] = [];
    const client: ReplicaSetClient = { get: () => Promise.reject(new Error("no get")), updateStatus: async (o) => (sent.push(o), o) };
    expect(await updateReplicaSetStatus(client, rs, { ...rs.status })).toBe(rs);
    rs.metadata.generation = 4;
    await updateReplicaSetStatus(client, rs, { ...rs.status, readyReplicas: 0, availableReplicas: 0 });
    // readyReplicas and availableReplicas are omitempty: a 0 is left out, as Go encodes it.
    expect(sent.map((o) => o.status)).toEqual([{ replicas: 1, fullyLabeledReplicas: 1, observedGeneration: 4 }]);
  });
});
