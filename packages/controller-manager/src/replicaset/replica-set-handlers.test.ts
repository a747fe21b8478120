// Upstream's pkg/controller/replicaset/replica_set_test.go: the event handlers and lookups.
import { describe, expect, it } from "vitest";
import type { Pod, ReplicaSet } from "@servicenet/api";
import { controllerRefOf, newPod, newPodList, newReplicaSet } from "../testing/replicaset.ts";
import { drain, key, labelMap, setup, validateSyncReplicaSet } from "../testing/replicaset-controller.ts";

describe("ReplicaSetController handlers", () => {
  it("TestDeleteFinalStateUnknown: the deleted pod's last state names the ReplicaSet to sync", async () => {
    const rs = newReplicaSet(1, labelMap);
    const { manager, queue, replicaSets } = setup({ rss: [rs] });
    await drain(queue);
    const [pod] = newPodList(1, "Running", labelMap, rs, "pod");
    expect(replicaSets.get(key(rs))).toBe(rs);
    manager.deletePod(pod!);
    expect(await queue.get()).toBe(key(rs));
  });

  it("TestGetReplicaSetsWithSameController", () => {
    const someRS = { ...newReplicaSet(1, { foo: "bar" }), metadata: { ...newReplicaSet(1, {}).metadata, name: "rs1" } };
    const related = newReplicaSet(1, { foo: "baz" });
    related.metadata.name = "rs2";
    const unrelated = newReplicaSet(1, { foo: "quux" });
    unrelated.metadata.name = "rs3";
    unrelated.metadata.ownerReferences![0]!.uid = "456";
    const pendingDeletion = newReplicaSet(1, { foo: "xyzzy" });
    pendingDeletion.metadata.name = "rs4";
    pendingDeletion.metadata.ownerReferences![0]!.uid = "789";
    pendingDeletion.metadata.deletionTimestamp = "2026-01-01T00:00:00Z";
    const cases: [string, ReplicaSet[], ReplicaSet, string[]][] = [
      ["a ReplicaSet that is pending deletion", [pendingDeletion, unrelated], pendingDeletion, ["rs4"]],
      ["only the given ReplicaSet if there is no related ReplicaSet", [someRS, unrelated], someRS, ["rs1"]],
      ["the given ReplicaSet and related ones, not an unrelated one", [someRS, related, unrelated], someRS, ["rs1", "rs2"]],
    ];
    for (const [name, rss, rs, want] of cases) {
      const { manager } = setup({ rss });
      expect(
        manager
          .getReplicaSetsWithSameController(rs)
          .map((r) => r.metadata.name)
          .sort(),
        name,
      ).toEqual(want);
    }
  });

  it("TestPodControllerLookup", () => {
    const cases: [ReplicaSet[], Pod, string][] = [
      // Pods without labels match no ReplicaSet.
      [[{ metadata: { name: "basic" }, spec: {} }], { metadata: { name: "foo1" }, spec: { containers: [] } }, ""],
      // Matching labels, not namespace.
      [
        [{ metadata: { name: "foo" }, spec: { selector: { matchLabels: { foo: "bar" } } } }],
        { metadata: { name: "foo2", namespace: "ns", labels: { foo: "bar" } }, spec: { containers: [] } },
        "",
      ],
      // Matching namespace and labels.
      [
        [{ metadata: { name: "bar", namespace: "ns" }, spec: { selector: { matchLabels: { foo: "bar" } } } }],
        { metadata: { name: "foo3", namespace: "ns", labels: { foo: "bar" } }, spec: { containers: [] } },
        "bar",
      ],
    ];
    for (const [rss, pod, want] of cases) {
      const { manager } = setup({ rss });
      expect(manager.getPodReplicaSets(pod).map((r) => r.metadata.name ?? "")).toEqual(want === "" ? [] : [want]);
    }
  });

  it("TestRelatedPodsLookup", () => {
    const someRS = newReplicaSet(1, { foo: "bar" });
    someRS.metadata.name = "foo1";
    const related = newReplicaSet(1, { foo: "baz" });
    related.metadata.name = "foo2";
    const unrelated = newReplicaSet(1, { foo: "quux" });
    unrelated.metadata.name = "bar1";
    unrelated.metadata.ownerReferences![0]!.uid = "456";
    const pendingDeletion = newReplicaSet(1, { foo: "xyzzy" });
    pendingDeletion.metadata.name = "foo3";
    pendingDeletion.metadata.ownerReferences![0]!.uid = "789";
    pendingDeletion.metadata.deletionTimestamp = "2026-01-01T00:00:00Z";
    const pod1 = newPod("pod1", someRS, "Running", undefined, true);
    const pod2 = newPod("pod2", someRS, "Running", undefined, true);
    const pod3 = newPod("pod3", related, "Running", undefined, true);
    const pod4 = newPod("pod4", unrelated, "Running", undefined, true);
    const cases: [string, ReplicaSet[], Pod[], ReplicaSet, string[]][] = [
      [
        "a pod even if its owning ReplicaSet is pending deletion",
        [pendingDeletion, unrelated],
        [newPod("pod", pendingDeletion, "Running", undefined, true)],
        pendingDeletion,
        ["pod"],
      ],
      ["only the ReplicaSet's own pods without a related ReplicaSet", [someRS, unrelated], [pod1, pod2, pod4], someRS, ["pod1", "pod2"]],
      [
        "own pods and a related ReplicaSet's, not an unrelated one's",
        [someRS, related, unrelated],
        [pod1, pod2, pod3, pod4],
        someRS,
        ["pod1", "pod2", "pod3"],
      ],
    ];
    for (const [name, rss, pods, rs, want] of cases) {
      const { manager } = setup({ rss, pods });
      expect(
        manager
          .getIndirectlyRelatedPods(rs)
          .map((p) => p.metadata.name)
          .sort(),
        name,
      ).toEqual(want);
    }
  });

  it("TestWatchControllers: a ReplicaSet from the watch reaches the sync handler", async () => {
    const { manager, replicaSets, podControl, statusUpdates } = setup();
    const rs = newReplicaSet(1, labelMap);
    replicaSets.set(rs);
    expect(await manager.processNextWorkItem()).toBe(true);
    validateSyncReplicaSet(podControl, 1, 0, 0);
    // No Pod seen yet: a status of 0 replicas is already current.
    expect(statusUpdates).toEqual([]);
  });

  it("TestWatchPods: a pod event wakes the ReplicaSet that owns it", async () => {
    const rs = newReplicaSet(1, labelMap);
    const { manager, pods, queue } = setup({ rss: [rs] });
    await drain(queue);
    const [pod] = newPodList(1, "Failed", labelMap, rs, "pod");
    pods.set(pod!);
    expect(queue.len()).toBe(1);
    expect(await manager.processNextWorkItem()).toBe(true);
  });

  it("TestUpdatePods: label and controller reference changes wake the old and new owners", async () => {
    const rs1 = newReplicaSet(1, { foo: "bar" });
    const rs2 = { ...newReplicaSet(1, { bar: "foo" }), metadata: { ...rs1.metadata, name: "barfoo", uid: "uid-barfoo" } };
    const { manager, queue } = setup({ rss: [rs1, rs2] });
    await drain(queue);
    const queued = async () => {
      const out: string[] = [];
      while (queue.len() > 0) {
        const k = (await queue.get())!;
        queue.done(k);
        out.push(k);
      }
      return out.sort();
    };
    const pod = (labels: Record<string, string>, owner: ReplicaSet | undefined, rv: string): Pod => {
      const p = newPod("pod0", rs1, "Running");
      p.metadata.labels = labels;
      p.metadata.resourceVersion = rv;
      if (owner) p.metadata.ownerReferences = [controllerRefOf(owner)];
      return p;
    };
    // Case 1: a Pod with a ControllerRef: its owner.
    manager.updatePod(pod({ foo: "bar" }, rs1, "1"), pod({ bar: "foo" }, rs1, "2"));
    expect(await queued()).toEqual(["default/foobar"]);
    // Case 2: the ControllerRef removed (an orphan): the label-matching ReplicaSet.
    manager.updatePod(pod({ bar: "foo" }, rs2, "1"), pod({ bar: "foo" }, undefined, "2"));
    expect(await queued()).toEqual(["default/barfoo"]);
    // Case 3: the ControllerRef removed: the former owner and the label-matching one.
    manager.updatePod(pod({ bar: "foo" }, rs1, "1"), pod({ bar: "foo" }, undefined, "2"));
    expect(await queued()).toEqual(["default/barfoo", "default/foobar"]);
    // Case 4: ControllerRef kept, labels changed: the owner.
    manager.updatePod(pod({ foo: "bar" }, rs2, "1"), pod({ bar: "foo" }, rs2, "2"));
    expect(await queued()).toEqual(["default/barfoo"]);
  });

  it("TestOverlappingRSs: a pod with a ControllerRef syncs only its owner", async () => {
    const controllers = Array.from({ length: 9 }, (_, j) => {
      const rs = newReplicaSet(1, labelMap);
      rs.metadata.name = `rs${j + 1}`;
      rs.metadata.creationTimestamp = "2014-11-30T00:00:00Z";
      return rs;
    });
    const { manager, queue } = setup({ rss: [...controllers].sort(() => Math.random() - 0.5), burst: 10 });
    await drain(queue);
    const rs = controllers[3]!;
    const [pod] = newPodList(1, "Pending", labelMap, rs, "pod");
    manager.addPod(pod!);
    expect(await queue.get()).toBe(key(rs));
  });

  it("TestDeletionTimestamp: a terminating pod counts once, as a deletion", async () => {
    const rs = newReplicaSet(1, labelMap);
    const { manager, queue } = setup({ rss: [rs], burst: 10 });
    await drain(queue);
    const rsKey = key(rs);
    const [pod] = newPodList(1, "Pending", labelMap, rs, "pod");
    pod!.metadata.deletionTimestamp = "2026-01-01T00:00:00Z";
    pod!.metadata.resourceVersion = "1";
    manager.expectations.expectDeletionsOf(rsKey, ["default/pod0"]);
    // A pod added with a deletion timestamp decrements deletions, not creations.
    manager.addPod(pod!);
    expect(await queue.get()).toBe(rsKey);
    queue.done(rsKey);
    expect(manager.expectations.satisfied(rsKey)).toBe(true);
    // An update setting the deletion timestamp is a deletion.
    const [oldPod] = newPodList(1, "Pending", labelMap, rs, "pod");
    oldPod!.metadata.resourceVersion = "2";
    manager.expectations.expectDeletionsOf(rsKey, ["default/pod0"]);
    manager.updatePod(oldPod!, pod!);
    expect(await queue.get()).toBe(rsKey);
    queue.done(rsKey);
    expect(manager.expectations.satisfied(rsKey)).toBe(true);
    // A further update (the deletion timestamp changed) is no second delete.
    manager.expectations.expectDeletionsOf(rsKey, ["default/secondPod"]);
    oldPod!.metadata.deletionTimestamp = "2026-01-01T00:00:00Z";
    manager.updatePod(oldPod!, pod!);
    expect(manager.expectations.satisfied(rsKey)).toBe(false);
    // Nor is the delete of that pod.
    manager.deletePod(pod!);
    expect(manager.expectations.satisfied(rsKey)).toBe(false);
    // Deleting the second pod clears the expectations.
    const secondPod = {
      metadata: { namespace: "default", name: "secondPod", labels: labelMap, ownerReferences: [controllerRefOf(rs)] },
      spec: { containers: [] },
    } as Pod;
    manager.deletePod(secondPod);
    expect(await queue.get()).toBe(rsKey);
    queue.done(rsKey);
    expect(manager.expectations.satisfied(rsKey)).toBe(true);
  });
});
