/** pkg/controller/deployment/sync_test.go: TestScale and TestDeploymentController_cleanupDeployment. */
import { describe, expect, it } from "vitest";
import type { Deployment, ReplicaSet } from "@servicenet/api";
import { newDeployment, newRSWithStatus, newSyncContext, rs } from "../testing/deployment-fixtures.ts";
import { cleanupDeployment, scale } from "./scale.ts";
import { calculateStatus } from "./sync.ts";
import { setReplicasAnnotations } from "./util/annotations.ts";
import { maxSurge } from "./util/replicas.ts";

const newTimestamp = "2016-05-20T02:00:00Z";
const oldTimestamp = "2016-05-20T01:00:00Z";
const olderTimestamp = "2016-05-20T00:00:00Z";

interface ScaleCase {
  name: string;
  deployment: Deployment;
  oldDeployment: Deployment;
  newRS?: ReplicaSet;
  oldRSs: ReplicaSet[];
  expectedNew?: number;
  expectedOld: number[];
}

const dep = (replicas: number, surge?: number, unavailable?: number) => newDeployment("foo", replicas, undefined, surge, unavailable, {});

const cases: ScaleCase[] = [
  {
    name: "normal scaling event: 10 -> 12",
    deployment: dep(12),
    oldDeployment: dep(10),
    newRS: rs("foo-v1", 10, {}, newTimestamp),
    oldRSs: [],
    expectedNew: 12,
    expectedOld: [],
  },
  {
    name: "normal scaling event: 10 -> 5",
    deployment: dep(5),
    oldDeployment: dep(10),
    newRS: rs("foo-v1", 10, {}, newTimestamp),
    oldRSs: [],
    expectedNew: 5,
    expectedOld: [],
  },
  {
    name: "proportional scaling: 5 -> 10",
    deployment: dep(10),
    oldDeployment: dep(5),
    newRS: rs("foo-v2", 2, {}, newTimestamp),
    oldRSs: [rs("foo-v1", 3, {}, oldTimestamp)],
    expectedNew: 4,
    expectedOld: [6],
  },
  {
    name: "proportional scaling: 5 -> 3",
    deployment: dep(3),
    oldDeployment: dep(5),
    newRS: rs("foo-v2", 2, {}, newTimestamp),
    oldRSs: [rs("foo-v1", 3, {}, oldTimestamp)],
    expectedNew: 1,
    expectedOld: [2],
  },
  {
    name: "proportional scaling: 9 -> 4",
    deployment: dep(4),
    oldDeployment: dep(9),
    newRS: rs("foo-v2", 8, {}, newTimestamp),
    oldRSs: [rs("foo-v1", 1, {}, oldTimestamp)],
    expectedNew: 4,
    expectedOld: [0],
  },
  {
    name: "proportional scaling: 7 -> 10",
    deployment: dep(10),
    oldDeployment: dep(7),
    newRS: rs("foo-v3", 2, {}, newTimestamp),
    oldRSs: [rs("foo-v2", 3, {}, oldTimestamp), rs("foo-v1", 2, {}, olderTimestamp)],
    expectedNew: 3,
    expectedOld: [4, 3],
  },
  {
    name: "proportional scaling: 13 -> 8",
    deployment: dep(8),
    oldDeployment: dep(13),
    newRS: rs("foo-v3", 2, {}, newTimestamp),
    oldRSs: [rs("foo-v2", 8, {}, oldTimestamp), rs("foo-v1", 3, {}, olderTimestamp)],
    expectedNew: 1,
    expectedOld: [5, 2],
  },
  {
    // Scales up the new replica set.
    name: "leftover distribution: 3 -> 4",
    deployment: dep(4),
    oldDeployment: dep(3),
    newRS: rs("foo-v3", 1, {}, newTimestamp),
    oldRSs: [rs("foo-v2", 1, {}, oldTimestamp), rs("foo-v1", 1, {}, olderTimestamp)],
    expectedNew: 2,
    expectedOld: [1, 1],
  },
  {
    // Scales down the older replica set.
    name: "leftover distribution: 3 -> 2",
    deployment: dep(2),
    oldDeployment: dep(3),
    newRS: rs("foo-v3", 1, {}, newTimestamp),
    oldRSs: [rs("foo-v2", 1, {}, oldTimestamp), rs("foo-v1", 1, {}, olderTimestamp)],
    expectedNew: 1,
    expectedOld: [1, 0],
  },
  {
    // Scales up the latest replica set first.
    name: "proportional scaling (no new rs): 4 -> 5",
    deployment: dep(5),
    oldDeployment: dep(4),
    oldRSs: [rs("foo-v2", 2, {}, oldTimestamp), rs("foo-v1", 2, {}, olderTimestamp)],
    expectedOld: [3, 2],
  },
  {
    name: "proportional scaling: 6 -> 0",
    deployment: dep(0),
    oldDeployment: dep(6),
    newRS: rs("foo-v3", 3, {}, newTimestamp),
    oldRSs: [rs("foo-v2", 2, {}, oldTimestamp), rs("foo-v1", 1, {}, olderTimestamp)],
    expectedNew: 0,
    expectedOld: [0, 0],
  },
  {
    name: "proportional scaling: 0 -> 6",
    deployment: dep(6),
    oldDeployment: dep(0),
    newRS: rs("foo-v3", 0, {}, newTimestamp),
    oldRSs: [rs("foo-v2", 0, {}, oldTimestamp), rs("foo-v1", 0, {}, olderTimestamp)],
    expectedNew: 6,
    expectedOld: [0, 0],
  },
  {
    name: "deployment with surge pods",
    deployment: dep(20, 2),
    oldDeployment: dep(10, 2),
    newRS: rs("foo-v2", 6, {}, newTimestamp),
    oldRSs: [rs("foo-v1", 6, {}, oldTimestamp)],
    expectedNew: 11,
    expectedOld: [11],
  },
  {
    name: "change both surge and size",
    deployment: dep(50, 6),
    oldDeployment: dep(10, 3),
    newRS: rs("foo-v2", 5, {}, newTimestamp),
    oldRSs: [rs("foo-v1", 8, {}, oldTimestamp)],
    expectedNew: 22,
    expectedOld: [34],
  },
  {
    name: "saturated but broken new replica set does not affect old pods",
    deployment: dep(2, 1, 1),
    oldDeployment: dep(2, 1, 1),
    newRS: { ...rs("foo-v2", 2, {}, newTimestamp), status: { replicas: 2, availableReplicas: 0 } },
    oldRSs: [rs("foo-v1", 1, {}, oldTimestamp)],
    expectedNew: 2,
    expectedOld: [1],
  },
];

describe("TestScale", () => {
  it.each(cases)("$name", async (c) => {
    const { ctx, client, recorder } = newSyncContext();
    const desired = c.oldDeployment.spec.replicas!;
    for (const r of [...(c.newRS ? [c.newRS] : []), ...c.oldRSs]) setReplicasAnnotations(r, desired, desired + maxSurge(c.oldDeployment));
    c.deployment.status = { replicas: desired };
    await scale(ctx, c.deployment, c.newRS, c.oldRSs);
    const size = (r: ReplicaSet) => client.replicaSets.get(`default/${r.metadata.name}`)?.spec.replicas ?? r.spec.replicas;
    if (c.newRS !== undefined) expect(size(c.newRS)).toBe(c.expectedNew);
    expect(c.oldRSs.map(size)).toEqual(c.expectedOld);
    for (const e of recorder.events) expect(e).toMatch(/^Normal ScalingReplicaSet Scaled (up|down) replica set foo-v\d from \d+ to \d+$/);
  });

  it("the event names the direction and sizes", async () => {
    const { ctx, recorder } = newSyncContext();
    const r = rs("web-5d8b9c7f6", 0, {}, newTimestamp);
    await scale(ctx, newDeployment("web", 3, undefined, undefined, undefined, {}), r, []);
    expect(recorder.events).toEqual(["Normal ScalingReplicaSet Scaled up replica set web-5d8b9c7f6 from 0 to 3"]);
  });
});

describe("TestDeploymentController_cleanupDeployment", () => {
  const selector = { foo: "bar" };
  const alreadyDeleted = {
    ...newRSWithStatus("foo-1", 0, 0, selector),
    metadata: { ...newRSWithStatus("foo-1", 0, 0, selector).metadata, deletionTimestamp: newTimestamp },
  };
  const notObserved = newRSWithStatus("foo-1", 0, 0, selector);
  notObserved.metadata.generation = 2;
  notObserved.status!.observedGeneration = 1;
  it.each([
    [[newRSWithStatus("foo-1", 0, 0, selector), newRSWithStatus("foo-2", 0, 0, selector), newRSWithStatus("foo-3", 0, 0, selector)], 1, 2],
    // Only the ReplicaSet with spec.replicas = status.replicas = 0 goes.
    [
      [
        newRSWithStatus("foo-1", 0, 0, selector),
        newRSWithStatus("foo-2", 0, 1, selector),
        newRSWithStatus("foo-3", 1, 0, selector),
        newRSWithStatus("foo-4", 1, 1, selector),
      ],
      0,
      1,
    ],
    [[newRSWithStatus("foo-1", 0, 0, selector), newRSWithStatus("foo-2", 0, 0, selector)], 0, 2],
    [[newRSWithStatus("foo-1", 1, 1, selector), newRSWithStatus("foo-2", 1, 1, selector)], 0, 0],
    [[alreadyDeleted], 0, 0],
    [[notObserved], 0, 0],
    // Unlimited history.
    [
      [newRSWithStatus("foo-1", 0, 0, selector), newRSWithStatus("foo-2", 0, 0, selector), newRSWithStatus("foo-3", 0, 0, selector)],
      2 ** 31 - 1,
      0,
    ],
  ] as const)("case %#", async (oldRSs, revisionHistoryLimit, expectedDeletions) => {
    const { ctx, client } = newSyncContext();
    const d = newDeployment("foo", 1, revisionHistoryLimit, undefined, undefined, selector);
    await cleanupDeployment(ctx, [...oldRSs], d);
    expect(client.actions.filter((a) => a === "delete replicasets")).toHaveLength(expectedDeletions);
  });

  it("deletes the lowest revisions first", async () => {
    const { ctx, client } = newSyncContext();
    const withRev = (name: string, rev: string) => ({
      ...newRSWithStatus(name, 0, 0, selector),
      metadata: { name, namespace: "default", annotations: { "deployment.kubernetes.io/revision": rev } },
    });
    const d = newDeployment("foo", 1, 1, undefined, undefined, selector);
    const deleted: string[] = [];
    client.fail = (action, obj) => {
      if (action === "delete replicasets") deleted.push(obj as string);
      return undefined;
    };
    await cleanupDeployment(ctx, [withRev("c", "10"), withRev("a", "2"), withRev("b", "9")], d);
    expect(deleted).toEqual(["a", "b"]);
  });
});

describe("calculateStatus", () => {
  it("sums the ReplicaSets and sets Available", () => {
    const d = newDeployment("foo", 3, undefined, 1, 1, {});
    d.metadata.generation = 4;
    const a = { ...rs("a", 2, {}), status: { replicas: 2, readyReplicas: 2, availableReplicas: 2 } };
    const b = { ...rs("b", 2, {}), status: { replicas: 1, readyReplicas: 0, availableReplicas: 0 } };
    const s = calculateStatus([a, b], b, d, Date.parse("2026-01-01T00:00:00Z"));
    expect(s).toEqual({
      observedGeneration: 4,
      replicas: 3,
      updatedReplicas: 1,
      readyReplicas: 2,
      availableReplicas: 2,
      unavailableReplicas: 2,
      conditions: [
        {
          type: "Available",
          status: "True",
          reason: "MinimumReplicasAvailable",
          message: "Deployment has minimum availability.",
          lastUpdateTime: "2026-01-01T00:00:00Z",
          lastTransitionTime: "2026-01-01T00:00:00Z",
        },
      ],
    });
    const none = calculateStatus([{ ...a, status: { replicas: 2 } }], undefined, d, 0);
    expect(none.conditions?.[0]).toMatchObject({
      status: "False",
      reason: "MinimumReplicasUnavailable",
      message: "Deployment does not have minimum availability.",
    });
  });
});
