// Upstream's pkg/controller/replicaset/replica_set_test.go: syncReplicaSet, expectations and bursts.
import { describe, expect, it } from "vitest";
import type { Pod } from "@servicenet/api";
import { StatusError } from "@servicenet/api/errors";
import { MemoryInformer } from "@servicenet/client/tools/cache";
import { UIDTrackingControllerExpectations } from "../controller/controller-expectations.ts";
import { newPod, newPodList, newReplicaSet } from "../testing/replicaset.ts";
import { drain, key, labelMap, setup, validateSyncReplicaSet } from "../testing/replicaset-controller.ts";
import { metav1Time } from "./replica-set-utils.ts";

describe("ReplicaSetController sync", () => {
  it("TestSyncReplicaSetDoesNothing", async () => {
    const rs = newReplicaSet(2, labelMap);
    const { manager, podControl } = setup({ rss: [rs], pods: newPodList(2, "Running", labelMap, rs, "pod") });
    await manager.syncReplicaSet(key(rs));
    validateSyncReplicaSet(podControl, 0, 0, 0);
  });

  it("TestSyncReplicaSetCreateFailures: a create limit of 10 stops the slow start", async () => {
    const rs = newReplicaSet(100, labelMap);
    const { manager, podControl } = setup({ rss: [rs] });
    podControl.createLimit = 10;
    await expect(manager.syncReplicaSet(key(rs))).rejects.toThrow("not creating pod, limit 10 already reached");
    validateSyncReplicaSet(podControl, 10, 0, 0);
    let expectedLimit = 0;
    for (let pass = 0; expectedLimit <= podControl.createLimit; pass++) expectedLimit += 1 << pass;
    expect(podControl.createCallCount).toBeLessThanOrEqual(expectedLimit);
  });

  it("TestSyncReplicaSetDormancy: expectations hold creates back but not status updates", async () => {
    const rs = newReplicaSet(2, labelMap);
    const { manager, podControl, actions } = setup({ rss: [rs], pods: newPodList(1, "Running", labelMap, rs, "pod") });
    // Creates a replica and sets expectations.
    rs.status = { replicas: 1, readyReplicas: 1, availableReplicas: 1 };
    await manager.syncReplicaSet(key(rs));
    validateSyncReplicaSet(podControl, 1, 0, 0);
    // Expectations prevent replicas but not an update of the status.
    rs.status = { replicas: 0, readyReplicas: 0, availableReplicas: 0 };
    podControl.clear();
    await manager.syncReplicaSet(key(rs));
    validateSyncReplicaSet(podControl, 0, 0, 0);
    // Lowering expectations leads to a create, which fails: expectations back at 0.
    manager.expectations.creationObserved(key(rs));
    rs.status = { replicas: 1, readyReplicas: 1, availableReplicas: 1 };
    podControl.clear();
    podControl.err = new Error("fake Error");
    await expect(manager.syncReplicaSet(key(rs))).rejects.toThrow("fake Error");
    validateSyncReplicaSet(podControl, 1, 0, 0);
    // No lowering needed, since the previous create failed.
    podControl.clear();
    podControl.err = undefined;
    await manager.syncReplicaSet(key(rs));
    validateSyncReplicaSet(podControl, 1, 0, 0);
    // Two status PUTs during the dormancy window (the pod creates go through the pod control).
    expect(actions.filter((a) => a.startsWith("update"))).toHaveLength(2);
  });

  it("TestControllerUpdateRequeue: a failed status update requeues the ReplicaSet", async () => {
    const rs = newReplicaSet(1, labelMap);
    rs.status = { replicas: 2 };
    const { manager, queue } = setup({
      rss: [rs],
      pods: newPodList(1, "Running", labelMap, rs, "pod"),
      client: { updateStatus: () => Promise.reject(new Error("failed to update status")) },
    });
    await drain(queue);
    queue.add(key(rs));
    await manager.processNextWorkItem();
    expect(queue.len()).toBe(1);
  });

  it("TestControllerBurstReplicas", async () => {
    for (const [burst, num] of [
      [5, 30],
      [5, 12],
      [3, 2],
    ] as const)
      await doTestControllerBurstReplicas(burst, num);
  });

  it("TestRSSyncExpectations: a pod cannot sneak in between counting pods and checking expectations", async () => {
    const rs = newReplicaSet(2, labelMap);
    const [pod0, postExpectationsPod] = newPodList(2, "Pending", labelMap, rs, "pod");
    const late: { pods?: MemoryInformer<Pod> } = {};
    // Satisfied, but checking adds the second pod: counted only if the pods are listed after the check.
    const expectations = new (class extends UIDTrackingControllerExpectations {
      override satisfied(): boolean {
        late.pods?.set(postExpectationsPod!);
        return true;
      }
    })();
    const s = setup({ rss: [rs], pods: [pod0!], expectations });
    late.pods = s.pods;
    await s.manager.syncReplicaSet(key(rs));
    validateSyncReplicaSet(s.podControl, 0, 0, 0);
  });

  it("TestDeleteControllerAndExpectations", async () => {
    const rs = newReplicaSet(1, labelMap);
    const { manager, podControl, replicaSets, pods } = setup({ rss: [rs], burst: 10 });
    await manager.syncReplicaSet(key(rs));
    validateSyncReplicaSet(podControl, 1, 0, 0);
    podControl.clear();
    expect(manager.expectations.get(key(rs))).toEqual({ add: 1, del: 0 });
    replicaSets.remove(key(rs));
    await manager.syncReplicaSet(key(rs));
    expect(manager.expectations.get(key(rs))).toBeUndefined();
    // No effect: the ReplicaSet is gone.
    manager.expectations.lower(key(rs), 1, 0);
    for (const p of pods.list()) pods.remove(`${p.metadata.namespace}/${p.metadata.name}`);
    await manager.syncReplicaSet(key(rs));
    validateSyncReplicaSet(podControl, 0, 0, 0);
  });

  it("TestExpectationsOnRecreate", async () => {
    const { manager, replicaSets, podControl, queue } = setup({ burst: 100 });
    expect(queue.len()).toBe(0);
    const oldRS = newReplicaSet(1, labelMap);
    replicaSets.set(oldRS);
    expect(queue.len()).toBe(1);
    expect(await manager.processNextWorkItem()).toBe(true);
    validateSyncReplicaSet(podControl, 1, 0, 0);
    podControl.clear();
    expect(manager.expectations.satisfied(key(oldRS))).toBe(false);
    expect(queue.len()).toBe(0);
    replicaSets.remove(key(oldRS));
    expect(queue.len()).toBe(1);
    expect(manager.expectations.get(key(oldRS))).toBeUndefined();
    // Skip the delete's sync so only the new ReplicaSet is synced.
    const k = await queue.get();
    queue.done(k!);
    expect(k).toBe(key(oldRS));
    const newRS = structuredClone(oldRS);
    newRS.metadata.uid = "new-uid";
    replicaSets.set(newRS);
    expect(queue.len()).toBe(1);
    expect(await manager.processNextWorkItem()).toBe(true);
    expect(manager.expectations.satisfied(key(newRS))).toBe(false);
    validateSyncReplicaSet(podControl, 1, 0, 0);
  });

  it("TestDoNotPatchPodWithOtherControlRef", async () => {
    const rs = newReplicaSet(2, labelMap);
    const pod = newPod("pod", rs, "Running", undefined, true);
    pod.metadata.ownerReferences = [{ uid: "other", apiVersion: "apps/v1", kind: "ReplicaSet", name: "AnotherRS", controller: true }];
    const { manager, podControl } = setup({ rss: [rs], pods: [pod] });
    await manager.syncReplicaSet(key(rs));
    // The matching pod already has a controller, so 2 pods are created.
    validateSyncReplicaSet(podControl, 2, 0, 0);
  });

  it("TestPatchPodFails: failed adoptions requeue the ReplicaSet", async () => {
    const rs = newReplicaSet(2, labelMap);
    const { manager, podControl, queue } = setup({
      rss: [rs],
      pods: [newPod("pod1", rs, "Running"), newPod("pod2", rs, "Running")],
    });
    await drain(queue);
    podControl.err = new Error("fake Error");
    await expect(manager.syncReplicaSet(key(rs))).rejects.toThrow("fake Error");
    validateSyncReplicaSet(podControl, 0, 0, 2);
    queue.add(key(rs));
    await manager.processNextWorkItem();
    expect(await queue.get()).toBe(key(rs));
  });

  it("a refused create sets ReplicaFailure (FailedCreate, the refusal as message); a working sync removes it", async () => {
    const rs = newReplicaSet(2, labelMap);
    rs.metadata.generation = 1;
    const { manager, podControl, statusUpdates, clock } = setup({ rss: [rs] });
    const quota = 'pods "foobar-x2k9p" is forbidden: exceeded quota: compute, requested: pods=1, used: pods=0, limited: pods=0';
    podControl.err = new StatusError("Forbidden", quota);
    await expect(manager.syncReplicaSet(key(rs))).rejects.toThrow(quota);
    expect(statusUpdates.at(-1)?.status).toEqual({
      replicas: 0,
      observedGeneration: 1,
      conditions: [
        { type: "ReplicaFailure", status: "True", reason: "FailedCreate", message: quota, lastTransitionTime: metav1Time(clock.now()) },
      ],
    });
    // The informer delivers the status written; the creates work again.
    rs.status = statusUpdates.at(-1)!.status!;
    podControl.clear();
    podControl.err = undefined;
    manager.expectations.delete(key(rs));
    await manager.syncReplicaSet(key(rs));
    validateSyncReplicaSet(podControl, 2, 0, 0);
    expect(statusUpdates.at(-1)?.status).toEqual({ replicas: 0, observedGeneration: 1 });
  });

  it("minReadySeconds: a Pod turning ready requeues its ReplicaSet minReadySeconds + 1 s later; a sync with all ready, not all available, after minReadySeconds", async () => {
    const rs = newReplicaSet(1, labelMap);
    rs.spec.minReadySeconds = 10;
    const [notReady] = newPodList(1, "Pending", labelMap, rs, "pod");
    const { manager, queue, clock } = setup({ rss: [rs], pods: [notReady!] });
    await drain(queue);
    const ready = structuredClone(notReady!);
    ready.metadata.resourceVersion = "2";
    ready.status = { phase: "Running", conditions: [{ type: "Ready", status: "True", lastTransitionTime: metav1Time(clock.now()) }] };
    manager.updatePod(notReady!, ready);
    await drain(queue); // the immediate enqueue
    clock.step(10_999);
    expect(queue.len()).toBe(0);
    clock.step(1);
    expect(queue.len()).toBe(1);
    await drain(queue);
    // The sync sees 1 ready, 0 available: it looks again after minReadySeconds.
    const s = setup({ rss: [rs], pods: [ready] });
    await drain(s.queue);
    await s.manager.syncReplicaSet(key(rs));
    expect(s.statusUpdates.at(-1)?.status).toMatchObject({ replicas: 1, readyReplicas: 1 });
    expect(s.statusUpdates.at(-1)?.status?.availableReplicas).toBeUndefined();
    s.clock.step(9_999);
    expect(s.queue.len()).toBe(0);
    s.clock.step(1);
    expect(s.queue.len()).toBe(1);
  });

  it("TestDoNotAdoptOrCreateIfBeingDeleted", async () => {
    const rs = newReplicaSet(2, labelMap);
    rs.metadata.deletionTimestamp = "2026-01-01T00:00:00Z";
    const { manager, podControl } = setup({ rss: [rs], pods: [newPod("pod1", rs, "Running")] });
    await manager.syncReplicaSet(key(rs));
    validateSyncReplicaSet(podControl, 0, 0, 0);
  });

  it("TestDoNotAdoptOrCreateIfBeingDeletedRace: the fresh read sees the deletion the cache does not", async () => {
    const rs = newReplicaSet(2, labelMap);
    const deleted = { ...rs, metadata: { ...rs.metadata, deletionTimestamp: "2026-01-01T00:00:00Z" } };
    const { manager, podControl, actions } = setup({
      rss: [rs],
      pods: [newPod("pod1", rs, "Running")],
      client: { get: () => Promise.resolve(deleted) },
    });
    await expect(manager.syncReplicaSet(key(rs))).rejects.toThrow(
      /^can't adopt Pod default\/pod1 \([0-9a-f-]+\): default\/foobar has just been deleted at 2026-01-01 00:00:00 \+0000 UTC$/,
    );
    validateSyncReplicaSet(podControl, 0, 0, 0);
    expect(actions).toEqual([]);
  });
});

/** `doTestControllerBurstReplicas`: size up, then down, in bursts, each waiting for its events. */
async function doTestControllerBurstReplicas(burst: number, numReplicas: number): Promise<void> {
  const rs = newReplicaSet(numReplicas, labelMap);
  const { manager, podControl, pods: podInformer, replicaSets } = setup({ rss: [rs], burst });
  const rsKey = key(rs);
  let pods = newPodList(numReplicas, "Pending", labelMap, rs, "pod");
  let lastDelete: string | undefined;
  for (const replicas of [numReplicas, 0]) {
    rs.spec.replicas = replicas;
    replicaSets.set({ ...rs });
    for (let i = 0; i < numReplicas; i += burst) {
      await manager.syncReplicaSet(rsKey).catch(() => undefined);
      const activePods = podInformer.list().length;
      let expectedPods: number;
      if (replicas !== 0) {
        // In flight: created, the ReplicaSet asleep until all are observed.
        expectedPods = Math.min(replicas - activePods, burst);
        validateSyncReplicaSet(podControl, expectedPods, 0, 0);
        // Watch events for all but one: none wakes the controller.
        for (let j = 0; j < expectedPods - 1; j++) podInformer.set(pods[j]!);
        expect(manager.expectations.get(rsKey)?.add).toBe(1);
      } else {
        expectedPods = Math.min(activePods - replicas, burst);
        validateSyncReplicaSet(podControl, 0, expectedPods, 0);
        // Delete exactly the pods the ReplicaSet waits for, all but one.
        const dels = podControl.deletePodName.map((n) => `default/${n}`);
        for (const k of dels.slice(1)) podInformer.remove(k);
        expect(manager.expectations.get(rsKey)?.del).toBe(1);
        lastDelete = dels[0];
      }
      // No action while expectations are pending.
      podControl.clear();
      await manager.syncReplicaSet(rsKey);
      validateSyncReplicaSet(podControl, 0, 0, 0);
      // The last create or delete observed: the next sync acts again.
      if (replicas !== 0) podInformer.set(pods[expectedPods - 1]!);
      else podInformer.remove(lastDelete!);
      pods = pods.slice(expectedPods);
    }
    expect(podInformer.list()).toHaveLength(replicas);
    pods = newPodList(replicas, "Running", labelMap, rs, "pod");
  }
}
