/** pkg/controller/deployment/deployment_controller_test.go, over the fake client and hand-driven informers. */
import { describe, expect, it } from "vitest";
import type { Deployment, ReplicaSet } from "@servicenet/api";
import { formatTime } from "@servicenet/api";
import { generatePodFromRS, newDeployment, newFixture, newReplicaSet } from "../testing/deployment-fixtures.ts";
import { computeHash } from "../controller/compute-hash.ts";
import { setRollbackTo } from "./rollback-annotation.ts";
import { revisionAnnotation } from "./util/annotations.ts";
import { defaultDeploymentUniqueLabelKey } from "./util/replicaset-util.ts";

const key = (d: Deployment) => `${d.metadata.namespace}/${d.metadata.name}`;
const queued = async (f: ReturnType<typeof newFixture>): Promise<string[]> => {
  const out: string[] = [];
  while (f.controller.queue.len() > 0) {
    const k = (await f.controller.queue.get())!;
    out.push(k);
    f.controller.queue.done(k);
  }
  return out;
};

describe("syncDeployment", () => {
  it("TestSyncDeploymentCreatesReplicaSet", async () => {
    const d = newDeployment("foo", 1, undefined, undefined, undefined, { foo: "bar" });
    const f = newFixture({ deployments: [d], objects: [d] });
    await f.controller.syncDeployment(key(d));
    expect(f.client.actions).toEqual(["create replicasets", "update deployments/status", "update deployments/status"]);
    const [created] = [...f.client.replicaSets.values()];
    const hash = created!.metadata.labels![defaultDeploymentUniqueLabelKey]!;
    expect(created!.metadata.name).toBe(`foo-${hash}`);
    expect(created!.spec.selector?.matchLabels).toEqual({ foo: "bar", [defaultDeploymentUniqueLabelKey]: hash });
    expect(created!.spec.template?.metadata.labels).toEqual({ foo: "bar", [defaultDeploymentUniqueLabelKey]: hash });
    expect(created!.spec.replicas).toBe(1);
    expect(created!.metadata.annotations).toEqual({
      [revisionAnnotation]: "1",
      "deployment.kubernetes.io/desired-replicas": "1",
      "deployment.kubernetes.io/max-replicas": "1",
    });
    expect(created!.metadata.ownerReferences).toEqual([
      { apiVersion: "apps/v1", kind: "Deployment", name: "foo", uid: d.metadata.uid, controller: true, blockOwnerDeletion: true },
    ]);
    expect(f.recorder.events).toEqual([`Normal ScalingReplicaSet Scaled up replica set foo-${hash} from 0 to 1`]);
  });

  it("a hash collision bumps status.collisionCount; the next sync creates under the next hash", async () => {
    const d = newDeployment("foo", 1, undefined, undefined, undefined, { foo: "bar" });
    const taken = newReplicaSet(d, `foo-${computeHash(d.spec.template)}`, 1);
    // Same name, different template, and not ours: a collision.
    taken.spec.template!.spec.containers[0]!.image = "other";
    taken.metadata.ownerReferences = undefined;
    taken.metadata.labels = { other: "x" };
    const f = newFixture({ deployments: [d], replicaSets: [taken], objects: [d, taken] });
    await expect(f.controller.syncDeployment(key(d))).rejects.toThrow(/already exists/);
    expect(f.client.actions).toEqual(["create replicasets", "update deployments/status"]);
    const bumped = f.client.deployments.get(key(d))!;
    expect(bumped.status?.collisionCount).toBe(1);
    f.deployments.set(bumped);
    f.client.actions.length = 0;
    await f.controller.syncDeployment(key(d));
    expect(f.client.actions[0]).toBe("create replicasets");
    const created = [...f.client.replicaSets.values()].find((r) => r.metadata.name !== taken.metadata.name)!;
    expect(created.metadata.name).toBe(`foo-${computeHash(d.spec.template, 1)}`);
  });

  it("an existing new ReplicaSet: FoundNewReplicaSet and the Deployment's revision", async () => {
    const d = newDeployment("foo", 1, undefined, undefined, undefined, { foo: "bar" });
    d.spec.progressDeadlineSeconds = 600;
    const r = newReplicaSet(d, "foo-abc", 1);
    r.metadata.annotations = {
      [revisionAnnotation]: "4",
      "deployment.kubernetes.io/desired-replicas": "1",
      "deployment.kubernetes.io/max-replicas": "1",
    };
    r.spec.minReadySeconds = 0;
    const f = newFixture({ deployments: [d], replicaSets: [r], objects: [d, r] });
    await f.controller.syncDeployment(key(d));
    expect(f.client.actions[0]).toBe("update deployments/status");
    const stored = f.client.deployments.get(key(d))!;
    expect(stored.metadata.annotations?.[revisionAnnotation]).toBe("4");
    expect(stored.status?.conditions?.find((c) => c.type === "Progressing")).toMatchObject({
      status: "True",
      reason: "FoundNewReplicaSet",
      message: 'Found new replica set "foo-abc"',
    });
  });

  it("TestSyncDeploymentDontDoAnythingDuringDeletion", async () => {
    const d = newDeployment("foo", 1, undefined, undefined, undefined, { foo: "bar" });
    d.metadata.deletionTimestamp = formatTime(new Date());
    const f = newFixture({ deployments: [d], objects: [d] });
    await f.controller.syncDeployment(key(d));
    expect(f.client.actions).toEqual(["update deployments/status"]);
  });

  it("TestSyncDeploymentDeletionRace", async () => {
    const d = newDeployment("foo", 1, undefined, undefined, undefined, { foo: "bar" });
    // The cache says not deleted; the API, more recent, says it is.
    const d2 = structuredClone(d);
    d2.metadata.deletionTimestamp = formatTime(new Date());
    const r = newReplicaSet(d, "rs1", 1);
    delete r.metadata.ownerReferences;
    const f = newFixture({ deployments: [d], replicaSets: [r], objects: [d2, r] });
    // Only the DeletionTimestamp recheck; the sync fails so the cache can catch up.
    await expect(f.controller.syncDeployment(key(d))).rejects.toThrow(/has just been deleted at/);
    expect(f.client.actions).toEqual(["get deployments"]);
  });

  it("TestDontSyncDeploymentsWithEmptyPodSelector", async () => {
    const d = newDeployment("foo", 1, undefined, undefined, undefined, { foo: "bar" });
    d.spec.selector = {};
    const f = newFixture({ deployments: [d], objects: [d] });
    await f.controller.syncDeployment(key(d));
    expect(f.client.actions).toEqual([]);
    expect(f.recorder.events).toEqual(["Warning SelectingAll This deployment is selecting all pods. A non-empty selector is required."]);
  });

  it("TestReentrantRollback", async () => {
    const d = newDeployment("foo", 1, undefined, undefined, undefined, { foo: "bar" });
    d.metadata.annotations = { [revisionAnnotation]: "2" };
    setRollbackTo(d, { revision: 0 });
    const rs1 = newReplicaSet(d, "deploymentrs-old", 0);
    rs1.metadata.annotations = { [revisionAnnotation]: "1" };
    rs1.spec.template!.spec.terminationGracePeriodSeconds = 1;
    rs1.spec.selector!.matchLabels![defaultDeploymentUniqueLabelKey] = "hash";
    const rs2 = newReplicaSet(d, "deploymentrs-new", 1);
    rs2.metadata.annotations = { [revisionAnnotation]: "2" };
    rs2.spec.selector!.matchLabels![defaultDeploymentUniqueLabelKey] = "hash";
    const f = newFixture({ deployments: [d], replicaSets: [rs1, rs2], objects: [d, rs1, rs2] });
    await f.controller.syncDeployment(key(d));
    // The rollback; no update of the ReplicaSets.
    expect(f.client.actions).toEqual(["update deployments"]);
    const stored = f.client.deployments.get(key(d))!;
    expect(stored.spec.template.spec.terminationGracePeriodSeconds).toBe(1);
    expect(stored.metadata.annotations?.["deprecated.deployment.rollback.to"]).toBeUndefined();
    expect(f.recorder.events).toEqual(['Normal DeploymentRollback Rolled back deployment "foo" to revision 1']);
  });
});

describe("deletePod", () => {
  const recreate = () => {
    const foo = newDeployment("foo", 1, undefined, undefined, undefined, { foo: "bar" });
    foo.spec.strategy = { type: "Recreate" };
    return foo;
  };

  it("TestPodDeletionEnqueuesRecreateDeployment", async () => {
    const foo = recreate();
    const r = newReplicaSet(foo, "foo-1", 1);
    const pod = generatePodFromRS(r);
    const f = newFixture({ deployments: [foo], replicaSets: [r] });
    await queued(f);
    f.controller.deletePod(pod);
    expect(await queued(f)).toEqual(["default/foo"]);
  });

  it("TestPodDeletionDoesntEnqueueRecreateDeployment", async () => {
    const foo = recreate();
    const rs1 = newReplicaSet(foo, "foo-1", 1);
    const rs2 = newReplicaSet(foo, "foo-1", 1);
    const pod1 = generatePodFromRS(rs1);
    const pod2 = { ...generatePodFromRS(rs2), metadata: { ...generatePodFromRS(rs2).metadata, name: "pod2" } };
    // rs2 replaces rs1 in the cache (same name): pod2 is still there, so no enqueue.
    const f = newFixture({ deployments: [foo], replicaSets: [rs2], pods: [pod2] });
    await queued(f);
    f.controller.deletePod(pod1);
    expect(await queued(f)).toEqual([]);
  });

  it("TestPodDeletionPartialReplicaSetOwnershipEnqueueRecreateDeployment", async () => {
    const foo = recreate();
    const rs1 = newReplicaSet(foo, "foo-1", 1);
    const rs2 = newReplicaSet(foo, "foo-2", 2);
    rs2.metadata.ownerReferences = undefined;
    const pod = generatePodFromRS(rs1);
    const f = newFixture({ deployments: [foo], replicaSets: [rs1, rs2] });
    await queued(f);
    f.controller.deletePod(pod);
    expect(await queued(f)).toEqual(["default/foo"]);
  });

  it("TestPodDeletionPartialReplicaSetOwnershipDoesntEnqueueRecreateDeployment", async () => {
    const foo = recreate();
    const rs1 = newReplicaSet(foo, "foo-1", 1);
    const rs2 = newReplicaSet(foo, "foo-2", 2);
    rs2.metadata.ownerReferences = undefined;
    const pod = generatePodFromRS(rs1);
    const other = { ...generatePodFromRS(rs1), metadata: { ...generatePodFromRS(rs1).metadata, name: "pod2" } };
    const f = newFixture({ deployments: [foo], replicaSets: [rs1, rs2], pods: [other] });
    await queued(f);
    f.controller.deletePod(pod);
    expect(await queued(f)).toEqual([]);
  });
});

describe("getReplicaSetsForDeployment", () => {
  it("TestGetReplicaSetsForDeployment", async () => {
    const d1 = newDeployment("d1", 1, undefined, undefined, undefined, { foo: "bar" });
    const d2 = newDeployment("d2", 1, undefined, undefined, undefined, { foo: "bar" });
    const rs1 = newReplicaSet(d1, "rs1", 1);
    const rs2 = newReplicaSet(d2, "rs2", 1);
    const f = newFixture({ deployments: [d1, d2], replicaSets: [rs1, rs2], objects: [d1, d2, rs1, rs2] });
    expect((await f.controller.getReplicaSetsForDeployment(d1)).map((r) => r.metadata.name)).toEqual(["rs1"]);
    expect((await f.controller.getReplicaSetsForDeployment(d2)).map((r) => r.metadata.name)).toEqual(["rs2"]);
  });

  it("TestGetReplicaSetsForDeploymentAdoptRelease", async () => {
    const d = newDeployment("foo", 1, undefined, undefined, undefined, { foo: "bar" });
    // An orphan that matches: adopted.
    const rsAdopt = newReplicaSet(d, "rsAdopt", 1);
    rsAdopt.metadata.ownerReferences = undefined;
    // Owned but no longer matching: released.
    const rsRelease = newReplicaSet(d, "rsRelease", 1);
    rsRelease.metadata.labels = { foo: "notbar" };
    const f = newFixture({ deployments: [d], replicaSets: [rsAdopt, rsRelease], objects: [d, rsAdopt, rsRelease] });
    const got = await f.controller.getReplicaSetsForDeployment(d);
    expect(got.map((r) => r.metadata.name)).toEqual(["rsAdopt"]);
    expect(f.client.actions).toEqual(["get deployments", "patch replicasets", "patch replicasets"]);
  });

  it("owned by another controller: ignored", async () => {
    const d = newDeployment("foo", 1, undefined, undefined, undefined, { foo: "bar" });
    const other = newDeployment("other", 1, undefined, undefined, undefined, { foo: "bar" });
    const r = newReplicaSet(other, "rs", 1);
    const f = newFixture({ deployments: [d], replicaSets: [r], objects: [d, r] });
    expect(await f.controller.getReplicaSetsForDeployment(d)).toEqual([]);
    expect(f.client.actions).toEqual([]);
  });
});

describe("ReplicaSet events", () => {
  const setup = () => {
    const d1 = newDeployment("d1", 1, undefined, undefined, undefined, { foo: "bar" });
    const d2 = newDeployment("d2", 1, undefined, undefined, undefined, { foo: "bar" });
    return { d1, d2 };
  };

  it("TestAddReplicaSet", async () => {
    const { d1, d2 } = setup();
    const f = newFixture({ deployments: [d1, d2] });
    await queued(f);
    f.controller.addReplicaSet(newReplicaSet(d1, "rs1", 1));
    expect(await queued(f)).toEqual(["default/d1"]);
    f.controller.addReplicaSet(newReplicaSet(d2, "rs2", 1));
    expect(await queued(f)).toEqual(["default/d2"]);
  });

  it("TestAddReplicaSetOrphan", async () => {
    const { d1, d2 } = setup();
    const d3 = newDeployment("d3", 1, undefined, undefined, undefined, { foo: "bar" });
    d3.spec.selector!.matchLabels = { foo: "notbar" };
    const f = newFixture({ deployments: [d1, d2, d3] });
    await queued(f);
    const r = newReplicaSet(d1, "rs1", 1);
    r.metadata.ownerReferences = undefined;
    f.controller.addReplicaSet(r);
    expect((await queued(f)).sort()).toEqual(["default/d1", "default/d2"]);
  });

  it("TestUpdateReplicaSet", async () => {
    const { d1, d2 } = setup();
    const f = newFixture({ deployments: [d1, d2] });
    await queued(f);
    const rs1 = newReplicaSet(d1, "rs1", 1);
    const prev = { ...rs1, metadata: { ...rs1.metadata, resourceVersion: "1" } };
    const next = { ...rs1, metadata: { ...rs1.metadata, resourceVersion: "2" } };
    f.controller.updateReplicaSet(prev, next);
    expect(await queued(f)).toEqual(["default/d1"]);
    // Same resourceVersion: a resync, nothing to do.
    f.controller.updateReplicaSet(next, next);
    expect(await queued(f)).toEqual([]);
  });

  it("TestUpdateReplicaSetOrphanWithNewLabels", async () => {
    const { d1, d2 } = setup();
    const f = newFixture({ deployments: [d1, d2] });
    await queued(f);
    const r = newReplicaSet(d1, "rs1", 1);
    r.metadata.ownerReferences = undefined;
    const prev: ReplicaSet = { ...r, metadata: { ...r.metadata, labels: { foo: "notbar" }, resourceVersion: "1" } };
    const next: ReplicaSet = { ...r, metadata: { ...r.metadata, resourceVersion: "2" } };
    f.controller.updateReplicaSet(prev, next);
    expect((await queued(f)).sort()).toEqual(["default/d1", "default/d2"]);
  });

  it("TestUpdateReplicaSetChangeControllerRef", async () => {
    const { d1, d2 } = setup();
    const f = newFixture({ deployments: [d1, d2] });
    await queued(f);
    const r = newReplicaSet(d1, "rs1", 1);
    const prev: ReplicaSet = {
      ...r,
      metadata: { ...r.metadata, resourceVersion: "1", ownerReferences: newReplicaSet(d2, "x", 1).metadata.ownerReferences },
    };
    const next: ReplicaSet = { ...r, metadata: { ...r.metadata, resourceVersion: "2" } };
    f.controller.updateReplicaSet(prev, next);
    expect((await queued(f)).sort()).toEqual(["default/d1", "default/d2"]);
  });

  it("TestUpdateReplicaSetRelease", async () => {
    const { d1, d2 } = setup();
    const f = newFixture({ deployments: [d1, d2] });
    await queued(f);
    const r = newReplicaSet(d1, "rs1", 1);
    const prev: ReplicaSet = { ...r, metadata: { ...r.metadata, resourceVersion: "1" } };
    const next: ReplicaSet = { ...r, metadata: { ...r.metadata, resourceVersion: "2", ownerReferences: undefined } };
    f.controller.updateReplicaSet(prev, next);
    expect((await queued(f)).sort()).toEqual(["default/d1", "default/d2"]);
  });

  it("TestDeleteReplicaSet", async () => {
    const { d1, d2 } = setup();
    const f = newFixture({ deployments: [d1, d2] });
    await queued(f);
    f.controller.deleteReplicaSet(newReplicaSet(d1, "rs1", 1));
    expect(await queued(f)).toEqual(["default/d1"]);
    f.controller.deleteReplicaSet(newReplicaSet(d2, "rs2", 1));
    expect(await queued(f)).toEqual(["default/d2"]);
  });

  it("TestDeleteReplicaSetOrphan", async () => {
    const { d1, d2 } = setup();
    const f = newFixture({ deployments: [d1, d2] });
    await queued(f);
    const r = newReplicaSet(d1, "rs1", 1);
    r.metadata.ownerReferences = undefined;
    f.controller.deleteReplicaSet(r);
    expect(await queued(f)).toEqual([]);
  });
});
