/** pkg/controller/deployment/rolling_test.go. */
import { describe, expect, it } from "vitest";
import type { IntOrString } from "@servicenet/api";
import { newDeployment, newSyncContext, rs } from "../testing/deployment-fixtures.ts";
import {
  cleanupUnhealthyReplicas,
  reconcileNewReplicaSet,
  reconcileOldReplicaSets,
  scaleDownOldReplicaSetsForRollingUpdate,
} from "./rolling.ts";

describe("TestDeploymentController_reconcileNewReplicaSet", () => {
  it.each<[number, IntOrString, number, number, boolean, number?]>([
    // Should not scale up.
    [10, 0, 10, 0, false],
    [10, 2, 10, 0, true, 2],
    [10, 2, 5, 0, true, 7],
    [10, 2, 10, 2, false],
    // Should scale down.
    [2, 0, 0, 4, true, 2],
  ])(
    "replicas %i maxSurge %s old %i new %i",
    async (deploymentReplicas, maxSurge, oldReplicas, newReplicas, scaleExpected, expectedNewReplicas) => {
      const newRS = rs("foo-v2", newReplicas, {});
      const oldRS = rs("foo-v2", oldReplicas, {});
      const d = newDeployment("foo", deploymentReplicas, undefined, maxSurge, 0, { foo: "bar" });
      const { ctx, client } = newSyncContext();
      const scaled = await reconcileNewReplicaSet(ctx, [newRS, oldRS], newRS, d);
      expect(scaled).toBe(scaleExpected);
      if (!scaleExpected) {
        expect(client.actions).toEqual([]);
        return;
      }
      expect(client.actions).toEqual(["update replicasets"]);
      expect(client.replicaSets.get("default/foo-v2")?.spec.replicas).toBe(expectedNewReplicas);
    },
  );
});

describe("TestDeploymentController_reconcileOldReplicaSets", () => {
  it.each<[number, IntOrString, number, number, number, number, boolean, number?]>([
    [10, 0, 10, 0, 10, 0, true, 9],
    [10, 2, 10, 0, 10, 0, true, 8],
    // The unhealthy replicas of old ReplicaSets are cleaned up.
    [10, 2, 10, 0, 8, 0, true, 8],
    // One unhealthy replica cleaned up and one ready Pod scaled down.
    [10, 2, 10, 0, 9, 0, true, 8],
    // The new ReplicaSet's unavailable Pods keep old ones from going further.
    [10, 2, 8, 2, 8, 0, false],
  ])(
    "replicas %i maxUnavailable %s old %i new %i readyOld %i readyNew %i",
    async (deploymentReplicas, maxUnavailable, oldReplicas, newReplicas, readyOld, readyNew, scaleExpected, expectedOld) => {
      const newSelector = { foo: "new" };
      const newRS = { ...rs("foo-new", newReplicas, newSelector), status: { replicas: newReplicas, availableReplicas: readyNew } };
      const oldRS = { ...rs("foo-old", oldReplicas, { foo: "old" }), status: { replicas: oldReplicas, availableReplicas: readyOld } };
      const d = newDeployment("foo", deploymentReplicas, undefined, 0, maxUnavailable, newSelector);
      const { ctx, client } = newSyncContext();
      expect(await reconcileOldReplicaSets(ctx, [oldRS, newRS], [oldRS], newRS, d)).toBe(scaleExpected);
      if (expectedOld !== undefined) expect(client.replicaSets.get("default/foo-old")?.spec.replicas).toBe(expectedOld);
    },
  );

  it("a failed scale ends the step without an error", async () => {
    const newRS = { ...rs("foo-new", 0, {}), status: { replicas: 0 } };
    const oldRS = { ...rs("foo-old", 10, {}), status: { replicas: 10, availableReplicas: 10 } };
    const { ctx, client } = newSyncContext();
    client.fail = () => new Error("boom");
    expect(await reconcileOldReplicaSets(ctx, [oldRS, newRS], [oldRS], newRS, newDeployment("foo", 10, undefined, 0, 2, {}))).toBe(false);
  });
});

describe("TestDeploymentController_cleanupUnhealthyReplicas", () => {
  it.each([
    [10, 8, 1, 1],
    [10, 8, 3, 2],
    [10, 8, 0, 0],
    [10, 10, 3, 0],
  ])("old %i ready %i maxCleanup %i", async (oldReplicas, readyPods, maxCleanupCount, cleanupCountExpected) => {
    const oldRS = { ...rs("foo-v2", oldReplicas, {}), status: { replicas: oldReplicas, availableReplicas: readyPods } };
    const d = newDeployment("foo", 10, undefined, 2, 2, {});
    const { ctx } = newSyncContext();
    const [, cleanupCount] = await cleanupUnhealthyReplicas(ctx, [oldRS], d, maxCleanupCount);
    expect(cleanupCount).toBe(cleanupCountExpected);
  });
});

describe("TestDeploymentController_scaleDownOldReplicaSetsForRollingUpdate", () => {
  it.each<[number, IntOrString, number, number, boolean, number?]>([
    [10, 0, 10, 10, true, 9],
    [10, 2, 10, 10, true, 8],
    // No old Pods are ready.
    [10, 2, 8, 10, false],
    [10, 2, 10, 0, false],
  ])(
    "replicas %i maxUnavailable %s ready %i old %i",
    async (deploymentReplicas, maxUnavailable, readyPods, oldReplicas, scaleExpected, expectedOld) => {
      const oldRS = { ...rs("foo-v2", oldReplicas, {}), status: { replicas: oldReplicas, availableReplicas: readyPods } };
      const d = newDeployment("foo", deploymentReplicas, undefined, 0, maxUnavailable, { foo: "bar" });
      const { ctx, client } = newSyncContext();
      const scaled = await scaleDownOldReplicaSetsForRollingUpdate(ctx, [oldRS], [oldRS], d);
      if (!scaleExpected) {
        expect(scaled).toBe(0);
        return;
      }
      expect(scaled).toBeGreaterThan(0);
      expect(client.replicaSets.get("default/foo-v2")?.spec.replicas).toBe(expectedOld);
    },
  );
});
