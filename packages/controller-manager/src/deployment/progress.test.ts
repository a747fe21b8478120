/** pkg/controller/deployment/progress_test.go. */
import { describe, expect, it } from "vitest";
import type { Deployment, DeploymentCondition, ReplicaSet } from "@servicenet/api";
import { newSyncContext } from "../testing/deployment-fixtures.ts";
import { requeueStuckDeployment, syncRolloutStatus } from "./progress.ts";
import { getDeploymentCondition, newRSAvailableReason, replicaSetUpdatedReason, timedOutReason } from "./util/conditions.ts";

function currentDeployment(
  pds: number | undefined,
  replicas: number,
  statusReplicas: number,
  updatedReplicas: number,
  availableReplicas: number,
  conditions: DeploymentCondition[] | undefined,
): Deployment {
  return {
    metadata: { name: "progress-test", namespace: "default" },
    spec: {
      ...(pds !== undefined ? { progressDeadlineSeconds: pds } : {}),
      replicas,
      strategy: { type: "Recreate" },
      template: { metadata: {}, spec: { containers: [] } },
    },
    status: { replicas: statusReplicas, updatedReplicas, availableReplicas, ...(conditions ? { conditions } : {}) },
  };
}

const newDeploymentStatus = (replicas: number, updatedReplicas: number, availableReplicas: number) => ({
  replicas,
  updatedReplicas,
  availableReplicas,
});

function newRSWithAvailable(name: string, specReplicas: number, statusReplicas: number, availableReplicas: number): ReplicaSet {
  return {
    metadata: { name, namespace: "default", uid: name },
    spec: { replicas: specReplicas },
    status: { replicas: statusReplicas, availableReplicas },
  };
}

describe("TestRequeueStuckDeployment", () => {
  const pds = 60;
  const infinite = 2 ** 31 - 1;
  const failed = [{ type: "Progressing", status: "False", reason: timedOutReason }];
  const stuck = [{ type: "Progressing", status: "True", lastUpdateTime: "2017-02-15T18:49:00Z" }];
  const at = (s: string) => Date.parse(s);
  it.each<[string, Deployment, ReturnType<typeof newDeploymentStatus>, number | undefined, number]>([
    [
      "nil progressDeadlineSeconds specified",
      currentDeployment(undefined, 4, 3, 3, 2, undefined),
      newDeploymentStatus(3, 3, 2),
      undefined,
      -1,
    ],
    [
      "infinite progressDeadlineSeconds specified",
      currentDeployment(infinite, 4, 3, 3, 2, undefined),
      newDeploymentStatus(3, 3, 2),
      undefined,
      -1,
    ],
    ["no progressing condition found", currentDeployment(pds, 4, 3, 3, 2, undefined), newDeploymentStatus(3, 3, 2), undefined, -1],
    [
      "complete deployment does not need to be requeued",
      currentDeployment(pds, 3, 3, 3, 3, undefined),
      newDeploymentStatus(3, 3, 3),
      undefined,
      -1,
    ],
    [
      "already failed deployment does not need to be requeued",
      currentDeployment(pds, 3, 3, 3, 0, failed),
      newDeploymentStatus(3, 3, 0),
      undefined,
      -1,
    ],
    ["stuck deployment - 30s", currentDeployment(pds, 3, 3, 3, 1, stuck), newDeploymentStatus(3, 3, 1), at("2017-02-15T18:49:30Z"), 30_000],
    ["stuck deployment - 1s", currentDeployment(pds, 3, 3, 3, 1, stuck), newDeploymentStatus(3, 3, 1), at("2017-02-15T18:49:59Z"), 1000],
    [
      "failed deployment - less than a second => now",
      currentDeployment(pds, 3, 3, 3, 1, stuck),
      newDeploymentStatus(3, 3, 1),
      at("2017-02-15T18:49:59.100Z"),
      0,
    ],
    ["failed deployment - now", currentDeployment(pds, 3, 3, 3, 1, stuck), newDeploymentStatus(3, 3, 1), at("2017-02-15T18:50:00Z"), 0],
    [
      "failed deployment - 1s after deadline",
      currentDeployment(pds, 3, 3, 3, 1, stuck),
      newDeploymentStatus(3, 3, 1),
      at("2017-02-15T18:50:01Z"),
      0,
    ],
    [
      "failed deployment - 60s after deadline",
      currentDeployment(pds, 3, 3, 3, 1, stuck),
      newDeploymentStatus(3, 3, 1),
      at("2017-02-15T18:51:00Z"),
      0,
    ],
  ])("%s", (_n, d, status, now, expected) => {
    const { ctx, clock, enqueued } = newSyncContext();
    if (now !== undefined) clock.setTime(now);
    expect(requeueStuckDeployment(ctx, d, status)).toBe(expected);
    if (expected > 0) expect(enqueued).toEqual([{ key: "default/progress-test", afterMs: expected + 1000 }]);
    if (expected === 0) expect(enqueued).toEqual([{ key: "default/progress-test", afterMs: "ratelimited" }]);
    if (expected < 0) expect(enqueued).toEqual([]);
  });
});

describe("TestSyncRolloutStatus", () => {
  const pds = 60;
  const testTime = "2017-02-15T18:49:00Z";
  const failedTimedOut = { type: "Progressing", status: "False", reason: timedOutReason };
  const newRSAvailable = {
    type: "Progressing",
    status: "True",
    reason: newRSAvailableReason,
    lastUpdateTime: testTime,
    lastTransitionTime: testTime,
  };
  const replicaSetUpdated = {
    type: "Progressing",
    status: "True",
    reason: replicaSetUpdatedReason,
    lastUpdateTime: testTime,
    lastTransitionTime: testTime,
  };

  interface Case {
    name: string;
    d: Deployment;
    allRSs: ReplicaSet[];
    newRS?: ReplicaSet;
    condition?: { status: string; reason: string; lastUpdate?: boolean; lastTransition?: boolean };
  }
  const cases: Case[] = [
    {
      name: "General: remove Progressing condition and do not estimate progress if deployment has no Progress Deadline",
      d: currentDeployment(undefined, 3, 2, 2, 2, [replicaSetUpdated]),
      allRSs: [newRSWithAvailable("bar", 0, 1, 1)],
      newRS: newRSWithAvailable("foo", 3, 2, 2),
    },
    {
      name: "General: do not estimate progress of deployment with only one active ReplicaSet",
      d: currentDeployment(pds, 3, 3, 3, 3, [newRSAvailable]),
      allRSs: [newRSWithAvailable("bar", 3, 3, 3)],
      condition: { status: "True", reason: newRSAvailableReason, lastUpdate: true, lastTransition: true },
    },
    {
      name: "DeploymentProgressing: dont update lastTransitionTime if deployment already has Progressing=True",
      d: currentDeployment(pds, 3, 2, 2, 2, [replicaSetUpdated]),
      allRSs: [newRSWithAvailable("bar", 0, 1, 1)],
      newRS: newRSWithAvailable("foo", 3, 2, 2),
      condition: { status: "True", reason: replicaSetUpdatedReason, lastTransition: true },
    },
    {
      name: "DeploymentProgressing: update everything if deployment has Progressing=False",
      d: currentDeployment(pds, 3, 2, 2, 2, [failedTimedOut]),
      allRSs: [newRSWithAvailable("bar", 0, 1, 1)],
      newRS: newRSWithAvailable("foo", 3, 2, 2),
      condition: { status: "True", reason: replicaSetUpdatedReason },
    },
    {
      name: "DeploymentProgressing: create Progressing condition if it does not exist",
      d: currentDeployment(pds, 3, 2, 2, 2, []),
      allRSs: [newRSWithAvailable("bar", 0, 1, 1)],
      newRS: newRSWithAvailable("foo", 3, 2, 2),
      condition: { status: "True", reason: replicaSetUpdatedReason },
    },
    {
      name: "DeploymentComplete: dont update lastTransitionTime if deployment already has Progressing=True",
      d: currentDeployment(pds, 3, 3, 3, 3, [replicaSetUpdated]),
      allRSs: [],
      newRS: newRSWithAvailable("foo", 3, 3, 3),
      condition: { status: "True", reason: newRSAvailableReason, lastTransition: true },
    },
    {
      name: "DeploymentComplete: update everything if deployment has Progressing=False",
      d: currentDeployment(pds, 3, 3, 3, 3, [failedTimedOut]),
      allRSs: [],
      newRS: newRSWithAvailable("foo", 3, 3, 3),
      condition: { status: "True", reason: newRSAvailableReason },
    },
    {
      name: "DeploymentComplete: create Progressing condition if it does not exist",
      d: currentDeployment(pds, 3, 3, 3, 3, []),
      allRSs: [],
      newRS: newRSWithAvailable("foo", 3, 3, 3),
      condition: { status: "True", reason: newRSAvailableReason },
    },
    {
      name: "DeploymentComplete: defend against NPE when newRS=nil",
      d: currentDeployment(pds, 0, 3, 3, 3, [replicaSetUpdated]),
      allRSs: [newRSWithAvailable("foo", 0, 0, 0)],
      condition: { status: "True", reason: newRSAvailableReason },
    },
    {
      name: "DeploymentTimedOut: update status if rollout exceeds Progress Deadline",
      d: currentDeployment(pds, 3, 2, 2, 2, [replicaSetUpdated]),
      allRSs: [],
      newRS: newRSWithAvailable("foo", 3, 2, 2),
      condition: { status: "False", reason: timedOutReason },
    },
    {
      name: "DeploymentTimedOut: do not update status if deployment has existing timedOut condition",
      d: currentDeployment(pds, 3, 2, 2, 2, [failedTimedOut]),
      allRSs: [],
      newRS: newRSWithAvailable("foo", 3, 2, 2),
      condition: { status: "False", reason: timedOutReason },
    },
  ];

  it.each(cases)("$name", async (c) => {
    const { ctx, client } = newSyncContext();
    const allRSs = c.newRS !== undefined ? [...c.allRSs, c.newRS] : c.allRSs;
    await syncRolloutStatus(ctx, allRSs, c.newRS, c.d);
    const written = client.deployments.get("default/progress-test") ?? c.d;
    const cond = getDeploymentCondition(written.status, "Progressing");
    if (c.condition === undefined) {
      expect(cond).toBeUndefined();
      return;
    }
    expect(cond).toMatchObject({ status: c.condition.status, reason: c.condition.reason });
    if (c.condition.lastUpdate) expect(cond?.lastUpdateTime).toBe(testTime);
    if (c.condition.lastTransition) expect(cond?.lastTransitionTime).toBe(testTime);
  });

  it("messages name the new ReplicaSet", async () => {
    const { ctx, client } = newSyncContext();
    await syncRolloutStatus(
      ctx,
      [newRSWithAvailable("web-abc", 3, 3, 3)],
      newRSWithAvailable("web-abc", 3, 3, 3),
      currentDeployment(pds, 3, 3, 3, 3, []),
    );
    expect(getDeploymentCondition(client.deployments.get("default/progress-test")!.status, "Progressing")?.message).toBe(
      'ReplicaSet "web-abc" has successfully progressed.',
    );
  });

  it("ReplicaFailure of the new ReplicaSet is copied", async () => {
    const { ctx, client } = newSyncContext();
    const failing = newRSWithAvailable("foo", 3, 0, 0);
    failing.status!.conditions = [
      { type: "ReplicaFailure", status: "True", reason: "FailedCreate", message: "quota", lastTransitionTime: testTime },
    ];
    await syncRolloutStatus(ctx, [failing], failing, currentDeployment(pds, 3, 0, 0, 0, []));
    expect(getDeploymentCondition(client.deployments.get("default/progress-test")!.status, "ReplicaFailure")).toEqual({
      type: "ReplicaFailure",
      status: "True",
      reason: "FailedCreate",
      message: "quota",
      lastUpdateTime: testTime,
      lastTransitionTime: testTime,
    });
  });
});
