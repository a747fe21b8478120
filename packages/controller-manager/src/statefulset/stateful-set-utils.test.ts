/** pkg/controller/statefulset/stateful_set_utils_test.go: the identity, storage, state and revision helpers. */
import type { Pod } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import { newStatefulSet } from "../testing/statefulset.ts";
import {
  applyRevision,
  completeRollingUpdate,
  getParentNameAndOrdinal,
  getPatch,
  identityMatches,
  inconsistentStatus,
  isHealthy,
  isRunningAndReady,
  newRevision,
  newStatefulSetPod,
  newVersionedStatefulSetPod,
  storageMatches,
  updateIdentity,
  updateStorage,
} from "./stateful-set-utils.ts";

const named = (name: string): Pod => ({ metadata: { name }, spec: { containers: [] } });

describe("TestGetParentNameAndOrdinal", () => {
  it.each<[string, string, number]>([
    ["foo-1", "foo", 1],
    ["foo-bar-12", "foo-bar", 12],
    ["foo", "", -1],
    ["foo-", "", -1],
    ["foo-99999999999", "foo", -1],
  ])("%s", (name, parent, ordinal) => {
    expect(getParentNameAndOrdinal(named(name))).toEqual({ parent, ordinal });
  });
});

describe("TestIdentityMatches / TestUpdateIdentity", () => {
  const set = newStatefulSet(3);
  it("a new Pod matches; a changed name, namespace or pod-name label does not, until updateIdentity", () => {
    const pod = newStatefulSetPod(set, 1);
    expect(identityMatches(set, pod)).toBe(true);
    for (const change of [
      (p: Pod) => (p.metadata.name = "bar-1"),
      (p: Pod) => (p.metadata.namespace = "other"),
      (p: Pod) => delete p.metadata.labels!["statefulset.kubernetes.io/pod-name"],
    ]) {
      const p = structuredClone(pod);
      change(p);
      expect(identityMatches(set, p)).toBe(false);
      if (p.metadata.name === "foo-1") {
        updateIdentity(set, p);
        expect(identityMatches(set, p)).toBe(true);
      }
    }
  });
});

describe("TestStorageMatches / TestUpdateStorage", () => {
  const set = newStatefulSet(3, { volumeClaimTemplates: [{ metadata: { name: "datadir" } }] });
  it("the Pod mounts its own claim; a template volume of the same name is replaced", () => {
    const pod = newStatefulSetPod(set, 2);
    expect(storageMatches(set, pod)).toBe(true);
    (pod.spec as Record<string, unknown>)["volumes"] = [
      { name: "datadir", emptyDir: {} },
      { name: "other", emptyDir: {} },
    ];
    expect(storageMatches(set, pod)).toBe(false);
    updateStorage(set, pod);
    expect((pod.spec as Record<string, unknown>)["volumes"]).toEqual([
      { name: "datadir", persistentVolumeClaim: { claimName: "datadir-foo-2" } },
      { name: "other", emptyDir: {} },
    ]);
    expect(storageMatches(set, pod)).toBe(true);
  });
});

describe("TestIsRunningAndReady / isHealthy", () => {
  const ready = { type: "Ready", status: "True" };
  it.each<[string, Pod["status"], boolean]>([
    ["no status", undefined, false],
    ["pending", { phase: "Pending" }, false],
    ["running, not ready", { phase: "Running" }, false],
    ["running and ready", { phase: "Running", conditions: [ready] }, true],
  ])("%s", (_n, status, want) => {
    const pod: Pod = { ...named("foo-0"), ...(status !== undefined ? { status } : {}) };
    expect(isRunningAndReady(pod)).toBe(want);
    expect(isHealthy({ ...pod, metadata: { ...pod.metadata, deletionTimestamp: "2025-01-01T00:00:00Z" } })).toBe(false);
  });
});

describe("revisions", () => {
  it("getPatch replaces the template; applyRevision restores it", () => {
    const set = newStatefulSet(1);
    const patch = JSON.parse(getPatch(set)) as { spec: { template: Record<string, unknown> } };
    expect(Object.keys(patch)).toEqual(["spec"]);
    expect(Object.keys(patch.spec)).toEqual(["template"]);
    expect(patch.spec.template["$patch"]).toBe("replace");
    const rev = newRevision(set, 1, 0);
    expect(rev.metadata.labels).toMatchObject({ foo: "bar" });
    const changed = structuredClone(set);
    changed.spec.template.spec.containers[0]!.image = "other";
    expect(applyRevision(changed, rev).spec.template).toEqual(set.spec.template);
  });

  it("TestNewVersionedStatefulSetPod: below the partition the current revision, from it the update revision", () => {
    const current = newStatefulSet(3, { updateStrategy: { type: "RollingUpdate", rollingUpdate: { partition: 2 } } });
    const update = structuredClone(current);
    update.spec.template.spec.containers[0]!.image = "nginx:2";
    const at = (ord: number) => newVersionedStatefulSetPod(current, update, "cur", "upd", ord);
    expect([0, 1, 2].map((o) => [at(o).metadata.labels?.["controller-revision-hash"], at(o).spec.containers[0]?.image])).toEqual([
      ["cur", "nginx"],
      ["cur", "nginx"],
      ["upd", "nginx:2"],
    ]);
  });

  it("completeRollingUpdate and inconsistentStatus", () => {
    const set = newStatefulSet(2);
    const status = {
      replicas: 2,
      readyReplicas: 2,
      updatedReplicas: 2,
      currentReplicas: 0,
      availableReplicas: 2,
      currentRevision: "a",
      updateRevision: "b",
    };
    completeRollingUpdate(set, status);
    expect(status).toMatchObject({ currentReplicas: 2, currentRevision: "b" });
    expect(inconsistentStatus({ ...set, status }, { ...status })).toBe(false);
    expect(inconsistentStatus({ ...set, status }, { ...status, readyReplicas: 1 })).toBe(true);
  });
});
