/**
 * The StatefulSet controller (pkg/controller/statefulset/stateful_set.go): StatefulSet and Pod
 * events enqueue StatefulSet keys; `sync` adopts orphaned ControllerRevisions, claims the set's
 * Pods and runs one pass of the control loop (stateful-set-control.ts).
 */
import {
  labelSelectorAsSelector,
  type ControllerRevision,
  type LabelMatcher,
  type OwnerReference,
  type Pod,
  type StatefulSet,
} from "@servicenet/api";
import { describeError } from "@servicenet/client/errors";
import { GenericLister, metaNamespaceKey, splitMetaNamespaceKey, type IndexInformer } from "@servicenet/client/tools/cache";
import { RateLimitingQueue } from "@servicenet/client/util/workqueue";
import { realClock, type Clock } from "@servicenet/component-base/clock";
import { noopLogger, V, type Logger } from "@servicenet/component-base/logs";
import {
  getControllerOf,
  ownerRefControllerPatch,
  PodControllerRefManager,
  recheckDeletionTimestamp,
} from "../controller/controller-ref-manager.ts";
import type { PodControlInterface } from "../controller/pod-control.ts";
import { Controller } from "../framework/controller.ts";
import { StatefulSetControl } from "./stateful-set-control.ts";
import { asControllerObject, isMemberOf, statefulSetKind } from "./stateful-set-utils.ts";
import type { StatefulSetClient } from "./statefulset-client.ts";
import type { StatefulPodControl } from "./stateful-pod-control.ts";

/** The event source of upstream's recorder. */
export const statefulSetControllerEventSource = { component: "statefulset-controller" };

export interface StatefulSetControllerDeps {
  statefulSets: IndexInformer<StatefulSet>;
  pods: IndexInformer<Pod>;
  revisions: IndexInformer<ControllerRevision>;
  client: StatefulSetClient;
  /** Pod writes with events (create, update, delete of the set's Pods). */
  statefulPodControl: StatefulPodControl;
  /** The adoption and release patches of claimed Pods (RealPodControl). */
  podControl: PodControlInterface;
  queue?: RateLimitingQueue<string>;
  clock?: Clock;
  logger?: Logger;
}

const isDeleting = (o: { metadata: { deletionTimestamp?: unknown } }) =>
  o.metadata.deletionTimestamp !== undefined && o.metadata.deletionTimestamp !== null;

export class StatefulSetController {
  readonly queue: RateLimitingQueue<string>;
  readonly control: StatefulSetControl;
  readonly #d: StatefulSetControllerDeps;
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #runner: Controller;
  readonly #sets: GenericLister<StatefulSet>;
  readonly #pods: GenericLister<Pod>;
  readonly #revisions: GenericLister<ControllerRevision>;

  constructor(deps: StatefulSetControllerDeps) {
    this.#d = deps;
    this.#clock = deps.clock ?? realClock;
    this.#log = deps.logger ?? noopLogger;
    this.#sets = new GenericLister(deps.statefulSets);
    this.#pods = new GenericLister(deps.pods);
    this.#revisions = new GenericLister(deps.revisions);
    this.queue = deps.queue ?? new RateLimitingQueue<string>("statefulset", this.#clock);
    this.control = new StatefulSetControl({
      podControl: deps.statefulPodControl,
      history: deps.client,
      listRevisions: (set) => this.listRevisions(set),
      statusClient: deps.client,
      now: () => this.#clock.now(),
      logger: this.#log,
    });
    deps.pods.addEventHandler({
      onAdd: (p) => this.addPod(p),
      onUpdate: (o, n) => this.updatePod(o, n),
      onDelete: (p) => this.deletePod(p),
    });
    deps.statefulSets.addEventHandler({
      onAdd: (s) => this.#enqueue(s),
      onUpdate: (o, n) => {
        if (o.status?.replicas !== n.status?.replicas)
          V(this.#log, 4).info("Observed updated replica count for StatefulSet", {
            statefulSet: metaNamespaceKey(n),
            oldReplicas: o.status?.replicas,
            newReplicas: n.status?.replicas,
          });
        this.#enqueue(n);
      },
      onDelete: (s) => this.#enqueue(s),
    });
    this.#runner = new Controller({
      name: "statefulset",
      queue: this.queue,
      sync: (k) => this.sync(k),
      informers: [deps.pods, deps.statefulSets, deps.revisions],
      maxRetries: Number.POSITIVE_INFINITY,
      logger: this.#log,
    });
  }

  /** `Run`: waits for the caches, then `workers` workers (--concurrent-statefulset-syncs). */
  run(signal: AbortSignal, workers: number): Promise<void> {
    return this.#runner.run(signal, workers);
  }

  /** Syncs the next queued key (a worker's step); false once the queue is shut down. */
  processNextWorkItem(): Promise<boolean> {
    return this.#runner.processNextWorkItem();
  }

  #enqueue(set: StatefulSet): void {
    this.queue.add(metaNamespaceKey(set));
  }

  /** `resolveControllerRef`: the StatefulSet a controller reference names, if it still has that uid. */
  resolveControllerRef(namespace: string, ref: OwnerReference): StatefulSet | undefined {
    if (ref.kind !== statefulSetKind.kind) return undefined;
    const set = this.#sets.byNamespace(namespace).get(ref.name);
    return set?.metadata.uid === ref.uid ? set : undefined;
  }

  /** `getStatefulSetsForPod`: the sets of the Pod's namespace whose selector matches it. */
  getStatefulSetsForPod(pod: Pod): StatefulSet[] {
    return this.#sets
      .byNamespace(pod.metadata.namespace ?? "")
      .list()
      .filter((s) => {
        try {
          const sel = labelSelectorAsSelector(s.spec.selector);
          const empty = Object.keys(s.spec.selector?.matchLabels ?? {}).length + (s.spec.selector?.matchExpressions ?? []).length === 0;
          return !empty && sel(pod.metadata.labels ?? {});
        } catch {
          return false;
        }
      });
  }

  /** `addPod`: a Pod of a set wakes it; an orphan wakes every set that could adopt it. */
  addPod(pod: Pod): void {
    if (isDeleting(pod)) {
      this.deletePod(pod);
      return;
    }
    const ref = getControllerOf(pod);
    if (ref !== undefined) {
      const set = this.resolveControllerRef(pod.metadata.namespace ?? "", ref);
      if (set === undefined) return;
      V(this.#log, 4).info("Pod created with labels", { pod: metaNamespaceKey(pod), labels: pod.metadata.labels });
      this.#enqueue(set);
      return;
    }
    const sets = this.getStatefulSetsForPod(pod);
    if (sets.length === 0) return;
    V(this.#log, 4).info("Orphan Pod created with labels", { pod: metaNamespaceKey(pod), labels: pod.metadata.labels });
    for (const s of sets) this.#enqueue(s);
  }

  /** `updatePod`: wakes the old and new owners (and, for an orphan whose labels changed, the sets that could adopt it). */
  updatePod(oldPod: Pod, curPod: Pod): void {
    if (curPod.metadata.resourceVersion === oldPod.metadata.resourceVersion) return;
    const labelChanged = JSON.stringify(curPod.metadata.labels ?? {}) !== JSON.stringify(oldPod.metadata.labels ?? {});
    const curRef = getControllerOf(curPod);
    const oldRef = getControllerOf(oldPod);
    const refChanged = JSON.stringify(curRef ?? null) !== JSON.stringify(oldRef ?? null);
    if (refChanged && oldRef !== undefined) {
      const set = this.resolveControllerRef(oldPod.metadata.namespace ?? "", oldRef);
      if (set !== undefined) this.#enqueue(set);
    }
    if (curRef !== undefined) {
      const set = this.resolveControllerRef(curPod.metadata.namespace ?? "", curRef);
      if (set === undefined) return;
      this.#enqueue(set);
      // A Pod turning ready is looked at again once it should be available.
      const minReadySeconds = set.spec.minReadySeconds ?? 0;
      if (minReadySeconds > 0) this.queue.addAfter(metaNamespaceKey(set), minReadySeconds * 1000);
      return;
    }
    if (labelChanged || refChanged) for (const s of this.getStatefulSetsForPod(curPod)) this.#enqueue(s);
  }

  /** `deletePod`: wakes the Pod's set. */
  deletePod(pod: Pod): void {
    const ref = getControllerOf(pod);
    if (ref === undefined) return;
    const set = this.resolveControllerRef(pod.metadata.namespace ?? "", ref);
    if (set === undefined) return;
    V(this.#log, 4).info("Pod deleted.", { pod: metaNamespaceKey(pod) });
    this.#enqueue(set);
  }

  /** realHistory `ListControllerRevisions`: the revisions the set's selector matches that it owns or nobody does. */
  listRevisions(set: StatefulSet): ControllerRevision[] {
    let selector: LabelMatcher;
    try {
      selector = labelSelectorAsSelector(set.spec.selector);
    } catch {
      return [];
    }
    return this.#revisions
      .byNamespace(set.metadata.namespace ?? "")
      .list(selector)
      .filter((r) => {
        const ref = getControllerOf(r);
        return ref === undefined || ref.uid === set.metadata.uid;
      })
      .map((r) => structuredClone(r));
  }

  #canAdopt(set: StatefulSet): () => Promise<void> {
    return recheckDeletionTimestamp(async () => {
      const fresh = await this.#d.client.getStatefulSet(set.metadata.namespace ?? "", set.metadata.name ?? "");
      if (fresh.metadata.uid !== set.metadata.uid)
        throw new Error(
          `original StatefulSet ${metaNamespaceKey(set)} is gone: got uid ${fresh.metadata.uid ?? ""}, wanted ${set.metadata.uid ?? ""}`,
        );
      return asControllerObject(fresh);
    });
  }

  /** `adoptOrphanRevisions`: the orphaned revisions the selector matches become the set's. */
  async adoptOrphanRevisions(set: StatefulSet): Promise<void> {
    const orphans = this.listRevisions(set).filter((r) => getControllerOf(r) === undefined);
    if (orphans.length === 0) return;
    await this.#canAdopt(set)();
    for (const r of orphans)
      await this.#d.client.patchRevision(
        r.metadata.namespace ?? "",
        r.metadata.name ?? "",
        ownerRefControllerPatch(asControllerObject(set), r.metadata.uid ?? ""),
      );
  }

  /** `getPodsForStatefulSet`: the namespace's Pods named as the set's members, adopted and released by selector. */
  async getPodsForStatefulSet(set: StatefulSet, selector: LabelMatcher): Promise<Pod[]> {
    const pods = this.#pods.byNamespace(set.metadata.namespace ?? "").list();
    const cm = new PodControllerRefManager(this.#d.podControl, asControllerObject(set), selector, this.#canAdopt(set));
    return cm.claimPods(pods, [(p) => isMemberOf(set, p)]);
  }

  /** `sync`: one StatefulSet key. @throws what the pass could not do (the key is retried with backoff). */
  async sync(key: string): Promise<void> {
    const start = this.#clock.now();
    try {
      await this.#sync(key);
    } finally {
      V(this.#log, 4).info("Finished syncing statefulset", { key, duration: `${this.#clock.now() - start}ms` });
    }
  }

  async #sync(key: string): Promise<void> {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const cached = this.#sets.byNamespace(namespace).get(name);
    if (cached === undefined) {
      this.#log.info("StatefulSet has been deleted", { key });
      return;
    }
    const set = structuredClone(cached);
    let selector: LabelMatcher;
    try {
      selector = labelSelectorAsSelector(set.spec.selector);
    } catch (err) {
      // A non-transient error: no retry.
      this.#log.error("error converting StatefulSet selector", { key, err: describeError(err) });
      return;
    }
    await this.adoptOrphanRevisions(set);
    const pods = await this.getPodsForStatefulSet(set, selector);
    const status = await this.control.updateStatefulSet(set, pods);
    V(this.#log, 4).info("Successfully synced StatefulSet", { statefulSet: key });
    // One more sync against clock skew, and to look again once ready Pods are available.
    const minReadySeconds = set.spec.minReadySeconds ?? 0;
    if (minReadySeconds > 0 && status.availableReplicas !== (set.spec.replicas ?? 1)) this.queue.addAfter(key, minReadySeconds * 1000);
  }
}
