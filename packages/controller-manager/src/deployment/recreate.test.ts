/** pkg/controller/deployment/recreate_test.go. */
import { describe, expect, it } from "vitest";
import type { Pod, ReplicaSet } from "@servicenet/api";
import { newDeployment, newReplicaSet, newRSWithStatus, newSyncContext } from "../testing/deployment-fixtures.ts";
import { oldPodsRunning, rolloutRecreate, scaleDownOldReplicaSetsForRecreate } from "./recreate.ts";

describe("TestScaleDownOldReplicaSets", () => {
  it.each([[[3]], [[3, 2, 0]]])("sizes %j", async (sizes) => {
    const d = newDeployment("foo", 3, undefined, undefined, undefined, { foo: "bar" });
    d.spec.strategy = { type: "Recreate" };
    const oldRSs = sizes.map((n, i) => newReplicaSet(d, `foo-${i}`, n));
    const { ctx, client } = newSyncContext(oldRSs);
    await scaleDownOldReplicaSetsForRecreate(ctx, oldRSs, d);
    expect(client.actions).toEqual(sizes.filter((n) => n > 0).map(() => "update replicasets"));
    for (const r of client.replicaSets.values()) expect(r.spec.replicas).toBe(0);
  });
});

describe("TestOldPodsRunning", () => {
  const rsWithUID = (uid: string): ReplicaSet => ({
    ...newRSWithStatus("rs", 0, 0, {}),
    metadata: { name: "rs", namespace: "default", uid },
  });
  const pod = (phase?: string): Pod => ({ metadata: {}, spec: { containers: [] }, ...(phase ? { status: { phase } } : {}) });
  const podMap = (uids: string[]) => new Map(uids.map((u) => [u, [pod("Running")]]));
  it.each<[string, ReplicaSet | undefined, ReplicaSet[], Map<string, Pod[]>, boolean]>([
    ["no old RSs", undefined, [], new Map(), false],
    ["old RSs with running pods", undefined, [rsWithUID("some-uid"), rsWithUID("other-uid")], podMap(["some-uid", "other-uid"]), true],
    ["old RSs without pods but with non-zero status replicas", undefined, [newRSWithStatus("rs-1", 0, 1, {})], new Map(), true],
    ["old RSs without pods or non-zero status replicas", undefined, [newRSWithStatus("rs-1", 0, 0, {})], new Map(), false],
    [
      "old RSs with zero status replicas but pods in terminal state are present",
      undefined,
      [newRSWithStatus("rs-1", 0, 0, {})],
      new Map([["uid-1", [pod("Failed"), pod("Succeeded")]]]),
      false,
    ],
    [
      "old RSs with zero status replicas but pod in unknown phase present",
      undefined,
      [newRSWithStatus("rs-1", 0, 0, {})],
      new Map([["uid-1", [pod("Unknown")]]]),
      true,
    ],
    [
      "old RSs with zero status replicas with pending pod present",
      undefined,
      [newRSWithStatus("rs-1", 0, 0, {})],
      new Map([["uid-1", [pod("Pending")]]]),
      true,
    ],
    [
      "old RSs with zero status replicas with running pod present",
      undefined,
      [newRSWithStatus("rs-1", 0, 0, {})],
      new Map([["uid-1", [pod("Running")]]]),
      true,
    ],
    [
      "old RSs with zero status replicas but pods in terminal state and pending are present",
      undefined,
      [newRSWithStatus("rs-1", 0, 0, {})],
      new Map([["uid-1", [pod("Failed"), pod("Succeeded"), pod("Pending")]]]),
      true,
    ],
    ["pods of the new ReplicaSet do not count", rsWithUID("new"), [], new Map([["new", [pod("Running")]]]), false],
  ])("%s", (_n, newRS, oldRSs, pm, expected) => {
    expect(oldPodsRunning(newRS, oldRSs, pm)).toBe(expected);
  });
});

describe("rolloutRecreate", () => {
  it("scales the old ReplicaSet down first, creates the new one only once its Pods are gone", async () => {
    const d = newDeployment("foo", 2, undefined, undefined, undefined, { foo: "bar" });
    d.spec.strategy = { type: "Recreate" };
    const old = newReplicaSet(d, "foo-old", 2);
    old.spec.template!.spec.containers[0]!.image = "foo/old";
    old.status = { replicas: 2 };
    const { ctx, client } = newSyncContext([d, old], [old]);
    await rolloutRecreate(ctx, d, [old], new Map());
    expect(client.actions).toEqual(["update replicasets", "update deployments/status"]);
    const scaledDown = client.replicaSets.get("default/foo-old")!;
    expect(scaledDown.spec.replicas).toBe(0);
    // Scaled to 0 but its Pod still runs: no new ReplicaSet yet.
    scaledDown.status = { replicas: 0 };
    client.actions.length = 0;
    const podOf = { metadata: { name: "p" }, spec: { containers: [] }, status: { phase: "Running" } } as Pod;
    await rolloutRecreate(ctx, d, [scaledDown], new Map([[scaledDown.metadata.uid!, [podOf]]]));
    expect(client.actions).not.toContain("create replicasets");
    // The Pod is gone: the new ReplicaSet is created at full size.
    client.actions.length = 0;
    await rolloutRecreate(ctx, d, [scaledDown], new Map([[scaledDown.metadata.uid!, []]]));
    expect(client.actions[0]).toBe("create replicasets");
    const created = [...client.replicaSets.values()].find((r) => r.metadata.name !== "foo-old")!;
    expect(created.spec.replicas).toBe(2);
  });
});
