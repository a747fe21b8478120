/**
 * The ReplicaSet controller (pkg/controller/replicaset/replica_set.go): keeps each ReplicaSet's
 * number of active Pods at `spec.replicas`, creating Pods from its template in slow-start
 * batches and deleting the surplus by upstream's ranking, adopts and releases Pods by selector,
 * and writes the status its Pods give it.
 */
import { labelSelectorAsSelector, type OwnerReference, type Pod, type ReplicaSet } from "@servicenet/api";
import { realClock, type Clock } from "@servicenet/component-base/clock";
import { noopLogger, V, type Logger } from "@servicenet/component-base/logs";
import { metaNamespaceKey, splitMetaNamespaceKey, type IndexInformer } from "@servicenet/client/tools/cache";
import { RateLimitingQueue } from "@servicenet/client/util/workqueue";
import { describeError } from "@servicenet/client/errors";
import { Controller } from "../framework/controller.ts";
import { UIDTrackingControllerExpectations } from "../controller/controller-expectations.ts";
import { getControllerOf, PodControllerRefManager, recheckDeletionTimestamp } from "../controller/controller-ref-manager.ts";
import type { ControllerObject, PodControlInterface } from "../controller/pod-control.ts";
import { defaultRankingGates, type RankingGates } from "../controller/controller-utils.ts";
import { isPodReady } from "../util/endpoint/pod.ts";
import { filterPodsByOwner } from "../controller/pod-index.ts";
import { calculateStatus, updateReplicaSetStatus, type ReplicaSetClient } from "./replica-set-utils.ts";
import { filterActivePods, getIndirectlyRelatedPods, getPodReplicaSets, getReplicaSetsWithSameController, podKey } from "./related.ts";
import { manageReplicas, type ManageDeps } from "./manage-replicas.ts";

/** `BurstReplicas`: at most this many creates or deletes per sync before the controller waits for their events. */
export const burstReplicas = 500;

/** The kind the controller manages (`apps.SchemeGroupVersion.WithKind("ReplicaSet")`). */
export const replicaSetKind = { apiVersion: "apps/v1", kind: "ReplicaSet" } as const;

export interface ReplicaSetControllerDeps {
  /** With the `controllerUID` index (`controllerUIDIndexFunc`). */
  replicaSets: IndexInformer<ReplicaSet>;
  /** With the `podControllerUID` index (`podControllerUIDIndexFunc`). */
  pods: IndexInformer<Pod>;
  podControl: PodControlInterface;
  client: ReplicaSetClient;
  burstReplicas?: number;
  /** Workers when run by the controller-manager (--concurrent-replicaset-syncs). */
  workers?: number;
  queue?: RateLimitingQueue<string>;
  expectations?: UIDTrackingControllerExpectations;
  clock?: Clock;
  logger?: Logger;
  /** PodDeletionCost and LogarithmicScaleDown (both on by default in 1.33). */
  gates?: RankingGates;
}

const isDeleting = (o: { metadata: { deletionTimestamp?: unknown } }) =>
  o.metadata.deletionTimestamp !== undefined && o.metadata.deletionTimestamp !== null;

/** The ReplicaSet as the controller object its Pods and events refer to. */
export const asControllerObject = (rs: ReplicaSet): ControllerObject => ({ ...replicaSetKind, metadata: rs.metadata });

export class ReplicaSetController {
  readonly queue: RateLimitingQueue<string>;
  readonly expectations: UIDTrackingControllerExpectations;
  readonly workers: number | undefined;
  readonly #d: ReplicaSetControllerDeps;
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #runner: Controller;

  constructor(deps: ReplicaSetControllerDeps) {
    this.#d = deps;
    this.workers = deps.workers;
    this.#clock = deps.clock ?? realClock;
    this.#log = deps.logger ?? noopLogger;
    this.queue = deps.queue ?? new RateLimitingQueue<string>("replicaset", this.#clock);
    this.expectations = deps.expectations ?? new UIDTrackingControllerExpectations(this.#clock);
    deps.replicaSets.addEventHandler({
      onAdd: (rs) => this.#enqueue(rs),
      onUpdate: (o, n) => this.updateRS(o, n),
      onDelete: (rs) => this.deleteRS(rs),
    });
    deps.pods.addEventHandler({
      onAdd: (p) => this.addPod(p),
      onUpdate: (o, n) => this.updatePod(o, n),
      onDelete: (p) => this.deletePod(p),
    });
    // Upstream retries a failing ReplicaSet for ever (rate limited), never dropping its key.
    this.#runner = new Controller({
      name: "replicaset",
      queue: this.queue,
      sync: (k) => this.syncReplicaSet(k),
      informers: [deps.pods, deps.replicaSets],
      maxRetries: Number.POSITIVE_INFINITY,
      logger: this.#log,
    });
  }

  /** `Run`: waits for the caches, then `workers` workers (--concurrent-replicaset-syncs). */
  run(signal: AbortSignal, workers: number): Promise<void> {
    return this.#runner.run(signal, workers);
  }

  /** Syncs the next queued key (a worker's step); false once the queue is shut down. */
  processNextWorkItem(): Promise<boolean> {
    return this.#runner.processNextWorkItem();
  }

  #enqueue(rs: ReplicaSet): void {
    this.queue.add(metaNamespaceKey(rs));
  }

  /** `updateRS`: a changed uid is a delete and a create the informer merged. */
  updateRS(oldRS: ReplicaSet, curRS: ReplicaSet): void {
    if (curRS.metadata.uid !== oldRS.metadata.uid) this.deleteRS(oldRS);
    if (oldRS.spec.replicas !== curRS.spec.replicas)
      V(this.#log, 4).info("replicaSet updated. Desired pod count change.", {
        replicaSet: metaNamespaceKey(oldRS),
        oldReplicas: oldRS.spec.replicas,
        newReplicas: curRS.spec.replicas,
      });
    this.#enqueue(curRS);
  }

  /** `deleteRS`: forgets the expectations so a ReplicaSet recreated under the name starts clean. */
  deleteRS(rs: ReplicaSet): void {
    const key = metaNamespaceKey(rs);
    V(this.#log, 4).info("Deleting", { replicaSet: key });
    this.expectations.delete(key);
    this.queue.add(key);
  }

  /** `resolveControllerRef`: the ReplicaSet a controller reference names, if it still has that uid. */
  resolveControllerRef(namespace: string, ref: OwnerReference): ReplicaSet | undefined {
    if (ref.kind !== replicaSetKind.kind) return undefined;
    const rs = this.#d.replicaSets.get(`${namespace}/${ref.name}`);
    return rs?.metadata.uid === ref.uid ? rs : undefined;
  }

  /** `GetPodReplicaSets`: the ReplicaSets of the Pod's namespace whose (non-empty) selector matches it. */
  getPodReplicaSets(pod: Pod): ReplicaSet[] {
    return getPodReplicaSets(this.#d.replicaSets, pod, this.#log);
  }

  /** `addPod`: a Pod of ours counts as an observed creation; an orphan wakes the ReplicaSets that could adopt it. */
  addPod(pod: Pod): void {
    if (isDeleting(pod)) {
      // After a restart a Pod may first show up already terminating: no creation observed.
      this.deletePod(pod);
      return;
    }
    const ref = getControllerOf(pod);
    if (ref !== undefined) {
      const rs = this.resolveControllerRef(pod.metadata.namespace ?? "", ref);
      if (rs === undefined) return;
      const key = metaNamespaceKey(rs);
      V(this.#log, 4).info("Pod created", { pod: podKey(pod) });
      this.expectations.creationObserved(key);
      this.queue.add(key);
      return;
    }
    for (const rs of this.getPodReplicaSets(pod)) this.#enqueue(rs);
  }

  /** `updatePod`: wakes the old and new owners; a Pod turning ready is looked at again after minReadySeconds. */
  updatePod(oldPod: Pod, curPod: Pod): void {
    if (curPod.metadata.resourceVersion === oldPod.metadata.resourceVersion) return; // a resync
    const labelChanged = JSON.stringify(curPod.metadata.labels ?? {}) !== JSON.stringify(oldPod.metadata.labels ?? {});
    if (isDeleting(curPod)) {
      // A graceful delete: replace the Pod now rather than when the kubelet is done with it.
      this.deletePod(curPod);
      if (labelChanged) this.deletePod(oldPod);
      return;
    }
    const curRef = getControllerOf(curPod);
    const oldRef = getControllerOf(oldPod);
    const refChanged = JSON.stringify(curRef ?? null) !== JSON.stringify(oldRef ?? null);
    if (refChanged && oldRef !== undefined) {
      const rs = this.resolveControllerRef(oldPod.metadata.namespace ?? "", oldRef);
      if (rs !== undefined) this.#enqueue(rs);
    }
    if (curRef !== undefined) {
      const rs = this.resolveControllerRef(curPod.metadata.namespace ?? "", curRef);
      if (rs === undefined) return;
      this.#enqueue(rs);
      const minReadySeconds = rs.spec.minReadySeconds ?? 0;
      if (!isPodReady(oldPod) && isPodReady(curPod) && minReadySeconds > 0) {
        V(this.#log, 2).info("pod will be enqueued after a while for availability check", {
          duration: minReadySeconds,
          pod: podKey(oldPod),
        });
        // One more second against millisecond skew in addAfter (upstream's comment on issue 39785).
        this.queue.addAfter(metaNamespaceKey(rs), (minReadySeconds + 1) * 1000);
      }
      return;
    }
    if (labelChanged || refChanged) for (const rs of this.getPodReplicaSets(curPod)) this.#enqueue(rs);
  }

  /** `deletePod`: an observed deletion (counted once per Pod) for the owning ReplicaSet. */
  deletePod(pod: Pod): void {
    const ref = getControllerOf(pod);
    if (ref === undefined) return;
    const rs = this.resolveControllerRef(pod.metadata.namespace ?? "", ref);
    if (rs === undefined) return;
    const key = metaNamespaceKey(rs);
    V(this.#log, 4).info("Pod deleted", { pod: podKey(pod), deletionTimestamp: pod.metadata.deletionTimestamp });
    this.expectations.deletionObservedOf(key, podKey(pod));
    this.queue.add(key);
  }

  /**
   * `syncReplicaSet`: claims the active Pods, creates or deletes Pods when no earlier create or
   * delete is still awaited, and writes the status.
   * @throws the create/delete failure (after the status recorded it), a claim or status error.
   */
  async syncReplicaSet(key: string): Promise<void> {
    const start = this.#clock.now();
    try {
      await this.#sync(key);
    } finally {
      V(this.#log, 4).info("Finished syncing", { kind: "ReplicaSet", key, duration: `${this.#clock.now() - start}ms` });
    }
  }

  async #sync(key: string): Promise<void> {
    const rs = this.#d.replicaSets.get(key);
    if (rs === undefined) {
      V(this.#log, 4).info("deleted", { kind: "ReplicaSet", key });
      this.expectations.delete(key);
      return;
    }
    const rsNeedsSync = this.expectations.satisfied(key);
    let selector;
    try {
      selector = labelSelectorAsSelector(rs.spec.selector);
    } catch (err) {
      this.#log.error("error converting pod selector to selector", { replicaSet: key, err: describeError(err) });
      return;
    }
    const { namespace } = splitMetaNamespaceKey(key);
    // Its own Pods (also those that stopped matching, to release them) and the namespace's orphans.
    const allPods = filterPodsByOwner(this.#d.pods, rs.metadata, true);
    const activePods = filterActivePods(allPods, this.#log);
    const canAdopt = recheckDeletionTimestamp(async () => {
      const fresh = await this.#d.client.get(namespace, rs.metadata.name ?? "");
      if (fresh.metadata.uid !== rs.metadata.uid)
        throw new Error(`original ReplicaSet ${key} is gone: got uid ${fresh.metadata.uid ?? ""}, wanted ${rs.metadata.uid ?? ""}`);
      return asControllerObject(fresh);
    });
    const cm = new PodControllerRefManager(this.#d.podControl, asControllerObject(rs), selector, canAdopt);
    const filteredPods = await cm.claimPods(activePods);
    let manageReplicasErr: Error | undefined;
    if (rsNeedsSync && !isDeleting(rs)) {
      try {
        await manageReplicas(this.#manageDeps(), filteredPods, rs);
      } catch (err) {
        manageReplicasErr = err as Error;
      }
    }
    const now = this.#clock.now();
    const newStatus = calculateStatus(rs, filteredPods, manageReplicasErr, now);
    const updated = await updateReplicaSetStatus(this.#d.client, rs, newStatus, this.#log);
    // A last line of defence against clock skew: look again once the ready Pods should be available.
    const replicas = updated.spec.replicas ?? 1;
    const minReadySeconds = updated.spec.minReadySeconds ?? 0;
    if (
      manageReplicasErr === undefined &&
      minReadySeconds > 0 &&
      (updated.status?.readyReplicas ?? 0) === replicas &&
      (updated.status?.availableReplicas ?? 0) !== replicas
    )
      this.queue.addAfter(key, minReadySeconds * 1000);
    if (manageReplicasErr !== undefined) throw manageReplicasErr;
  }

  #manageDeps(): ManageDeps {
    return {
      podControl: this.#d.podControl,
      expectations: this.expectations,
      burstReplicas: this.#d.burstReplicas ?? burstReplicas,
      relatedPods: (rs) => this.getIndirectlyRelatedPods(rs),
      now: () => this.#clock.now(),
      gates: this.#d.gates ?? defaultRankingGates,
      logger: this.#log,
    };
  }

  /** `getReplicaSetsWithSameController`: the ReplicaSets under the same controller (one Deployment's). */
  getReplicaSetsWithSameController(rs: ReplicaSet): ReplicaSet[] {
    return getReplicaSetsWithSameController(this.#d.replicaSets, rs, this.#log);
  }

  /** `getIndirectlyRelatedPods`: the Pods selected by any ReplicaSet of the same controller, each once. */
  getIndirectlyRelatedPods(rs: ReplicaSet): Pod[] {
    return getIndirectlyRelatedPods(this.#d.pods, this.#d.replicaSets, rs, this.#log);
  }
}
