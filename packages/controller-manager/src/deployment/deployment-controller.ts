/**
 * The Deployment controller (pkg/controller/deployment/deployment_controller.go): Deployment,
 * ReplicaSet and Pod events enqueue Deployment keys; `syncDeployment` claims the ReplicaSets and
 * runs a rollback, a scale, or one step of the Recreate or RollingUpdate strategy.
 */
import { everything, labelSelectorAsSelector, recreateDeploymentStrategyType, rollingUpdateDeploymentStrategyType } from "@servicenet/api";
import type { Deployment, Pod, ReplicaSet } from "@servicenet/api";
import { GenericLister, metaNamespaceKey, type IndexInformer } from "@servicenet/client/tools/cache";
import type { EventRecorder } from "@servicenet/client/tools/record";
import { RateLimitingQueue } from "@servicenet/client/util/workqueue";
import { realClock, type Clock } from "@servicenet/component-base/clock";
import { noopLogger, V, type Logger } from "@servicenet/component-base/logs";
import { getControllerOf, recheckDeletionTimestamp } from "../controller/controller-ref-manager.ts";
import { claimReplicaSets } from "../controller/replicaset-controller-ref-manager.ts";
import { Controller } from "../framework/controller.ts";
import { deploymentEvent, type DeploymentSyncContext } from "./context.ts";
import type { DeploymentClient } from "./deployment-client.ts";
import { rolloutRecreate } from "./recreate.ts";
import { rollback } from "./rollback.ts";
import { getRollbackTo } from "./rollback-annotation.ts";
import { rolloutRolling } from "./rolling.ts";
import { checkPausedConditions, deploymentOwnerKind, isScalingEvent, sync, syncStatusOnly } from "./sync.ts";
import { getDeploymentsForReplicaSet } from "./util/replicaset-util.ts";

/** The event source of upstream's recorder. */
export const deploymentControllerEventSource = { component: "deployment-controller" };

export interface DeploymentControllerDeps {
  deployments: IndexInformer<Deployment>;
  replicaSets: IndexInformer<ReplicaSet>;
  pods: IndexInformer<Pod>;
  client: DeploymentClient;
  recorder: EventRecorder;
  queue?: RateLimitingQueue<string>;
  clock?: Clock;
  logger?: Logger;
}

const isSet = (ts: string | null | undefined): boolean => ts !== undefined && ts !== null;

export class DeploymentController {
  readonly queue: RateLimitingQueue<string>;
  readonly #d: DeploymentControllerDeps;
  readonly #ctx: DeploymentSyncContext;
  readonly #log: Logger;
  readonly #runner: Controller;
  readonly #deployments: GenericLister<Deployment>;
  readonly #replicaSets: GenericLister<ReplicaSet>;
  readonly #pods: GenericLister<Pod>;

  constructor(deps: DeploymentControllerDeps) {
    this.#d = deps;
    this.#deployments = new GenericLister(deps.deployments);
    this.#replicaSets = new GenericLister(deps.replicaSets);
    this.#pods = new GenericLister(deps.pods);
    const clock = deps.clock ?? realClock;
    this.#log = deps.logger ?? noopLogger;
    this.queue = deps.queue ?? new RateLimitingQueue<string>("deployment", clock);
    this.#ctx = {
      client: deps.client,
      recorder: deps.recorder,
      clock,
      log: this.#log,
      replicaSets: deps.replicaSets,
      enqueueRateLimited: (d) => this.queue.addRateLimited(metaNamespaceKey(d)),
      enqueueAfter: (d, ms) => this.queue.addAfter(metaNamespaceKey(d), ms),
    };
    deps.deployments.addEventHandler({
      onAdd: (d) => this.enqueue(d),
      onUpdate: (_old, d) => this.enqueue(d),
      onDelete: (d) => this.enqueue(d),
    });
    deps.replicaSets.addEventHandler({
      onAdd: (rs) => this.addReplicaSet(rs),
      onUpdate: (old, rs) => this.updateReplicaSet(old, rs),
      onDelete: (rs) => this.deleteReplicaSet(rs),
    });
    deps.pods.addEventHandler({ onDelete: (p) => this.deletePod(p) });
    this.#runner = new Controller({
      name: "deployment",
      queue: this.queue,
      sync: (k) => this.syncDeployment(k),
      informers: [deps.deployments, deps.replicaSets, deps.pods],
      logger: this.#log,
    });
  }

  run(signal: AbortSignal, workers: number): Promise<void> {
    return this.#runner.run(signal, workers);
  }

  enqueue(d: Deployment): void {
    this.queue.add(metaNamespaceKey(d));
  }

  /** `resolveControllerRef`: the Deployment a controller reference names, if it is that very one (UID). */
  #resolveControllerRef(namespace: string, ref: { kind: string; name: string; uid: string } | undefined): Deployment | undefined {
    if (ref === undefined || ref.kind !== "Deployment") return undefined;
    const d = this.#d.deployments.get(`${namespace}/${ref.name}`);
    return d !== undefined && d.metadata.uid === ref.uid ? d : undefined;
  }

  /** `getDeploymentsForReplicaSet` over the lister of the ReplicaSet's namespace: Deployments that could adopt an orphan. */
  #deploymentsForOrphan(rs: ReplicaSet): Deployment[] {
    try {
      return getDeploymentsForReplicaSet(this.#deployments.byNamespace(rs.metadata.namespace ?? "").list(everything), rs);
    } catch {
      return [];
    }
  }

  /** `addReplicaSet`: its owner, or for an orphan every Deployment that may adopt it. */
  addReplicaSet(rs: ReplicaSet): void {
    if (isSet(rs.metadata.deletionTimestamp)) return this.deleteReplicaSet(rs);
    const ref = getControllerOf(rs);
    if (ref !== undefined) {
      const d = this.#resolveControllerRef(rs.metadata.namespace ?? "", ref);
      if (d !== undefined) this.enqueue(d);
      return;
    }
    for (const d of this.#deploymentsForOrphan(rs)) this.enqueue(d);
  }

  /** `updateReplicaSet`: old and new owners; an orphan whose labels or owner changed wakes its candidates. */
  updateReplicaSet(old: ReplicaSet, cur: ReplicaSet): void {
    if (cur.metadata.resourceVersion === old.metadata.resourceVersion) return;
    const curRef = getControllerOf(cur);
    const oldRef = getControllerOf(old);
    const refChanged = curRef?.uid !== oldRef?.uid;
    const ns = cur.metadata.namespace ?? "";
    if (refChanged && oldRef !== undefined) {
      const d = this.#resolveControllerRef(ns, oldRef);
      if (d !== undefined) this.enqueue(d);
    }
    if (curRef !== undefined) {
      const d = this.#resolveControllerRef(ns, curRef);
      if (d !== undefined) this.enqueue(d);
      return;
    }
    const labelChanged = JSON.stringify(cur.metadata.labels ?? {}) !== JSON.stringify(old.metadata.labels ?? {});
    if (labelChanged || refChanged) for (const d of this.#deploymentsForOrphan(cur)) this.enqueue(d);
  }

  /** `deleteReplicaSet`: only its owner cares (an orphan's deletion changes no Deployment). */
  deleteReplicaSet(rs: ReplicaSet): void {
    const d = this.#resolveControllerRef(rs.metadata.namespace ?? "", getControllerOf(rs));
    if (d !== undefined) this.enqueue(d);
  }

  /** `deletePod`: a Recreate Deployment is woken when the last Pod of its ReplicaSets is gone. */
  deletePod(pod: Pod): void {
    const d = this.#getDeploymentForPod(pod);
    if (d === undefined || d.spec.strategy?.type !== recreateDeploymentStrategyType) return;
    const owned = this.#ownedReplicaSets(d);
    const podMap = this.#podMap(d, owned);
    let numPods = 0;
    for (const pods of podMap.values()) numPods += pods.length;
    if (numPods === 0) this.enqueue(d);
  }

  #getDeploymentForPod(pod: Pod): Deployment | undefined {
    const ref = getControllerOf(pod);
    if (ref === undefined || ref.kind !== "ReplicaSet") return undefined;
    const rs = this.#d.replicaSets.get(`${pod.metadata.namespace ?? ""}/${ref.name}`);
    if (rs === undefined || rs.metadata.uid !== ref.uid) return undefined;
    return this.#resolveControllerRef(rs.metadata.namespace ?? "", getControllerOf(rs));
  }

  /** The cached ReplicaSets this Deployment controls (upstream lists them through the client here). */
  #ownedReplicaSets(d: Deployment): ReplicaSet[] {
    return this.#replicaSets
      .byNamespace(d.metadata.namespace ?? "")
      .list(everything)
      .filter((rs) => getControllerOf(rs)?.uid === d.metadata.uid);
  }

  /** `getPodMapForDeployment`: the Deployment's Pods grouped by the ReplicaSet (UID) controlling them. */
  #podMap(d: Deployment, rsList: readonly ReplicaSet[]): Map<string, Pod[]> {
    const podMap = new Map<string, Pod[]>(rsList.map((rs) => [rs.metadata.uid ?? "", []]));
    // `podLister.Pods(d.Namespace).List(selector)`.
    for (const pod of this.#pods.byNamespace(d.metadata.namespace ?? "").list(labelSelectorAsSelector(d.spec.selector))) {
      const ref = getControllerOf(pod);
      if (ref !== undefined) podMap.get(ref.uid)?.push(pod);
    }
    return podMap;
  }

  /** `getReplicaSetsForDeployment`: the namespace's ReplicaSets claimed (adopted/released) for `d`. */
  async getReplicaSetsForDeployment(d: Deployment): Promise<ReplicaSet[]> {
    const ns = d.metadata.namespace ?? "";
    const all = this.#replicaSets.byNamespace(ns).list(everything);
    let selector: (l: Readonly<Record<string, string>> | undefined) => boolean;
    try {
      selector = labelSelectorAsSelector(d.spec.selector);
    } catch (err) {
      throw new Error(
        `deployment ${ns}/${d.metadata.name ?? ""} has invalid label selector: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    const canAdopt = recheckDeletionTimestamp(async () => {
      const fresh = await this.#d.client.getDeployment(ns, d.metadata.name ?? "");
      if (fresh.metadata.uid !== d.metadata.uid)
        throw new Error(
          `original Deployment ${ns}/${d.metadata.name ?? ""} is gone: got uid ${fresh.metadata.uid ?? ""}, wanted ${d.metadata.uid ?? ""}`,
        );
      return { ...deploymentOwnerKind, metadata: fresh.metadata };
    });
    return claimReplicaSets(
      {
        owner: { ...deploymentOwnerKind, metadata: d.metadata },
        selector,
        patch: (ns, name, p) => this.#d.client.patchReplicaSet(ns, name, p),
        canAdopt,
      },
      all,
    );
  }

  /** `syncDeployment`. */
  async syncDeployment(key: string): Promise<void> {
    const start = this.#ctx.clock.now();
    V(this.#log, 4).info("Started syncing deployment", { deployment: key });
    try {
      await this.#syncDeployment(key);
    } finally {
      V(this.#log, 4).info("Finished syncing deployment", { deployment: key, duration: `${this.#ctx.clock.now() - start}ms` });
    }
  }

  async #syncDeployment(key: string): Promise<void> {
    const cached = this.#d.deployments.get(key);
    if (cached === undefined) {
      V(this.#log, 2).info("Deployment has been deleted", { deployment: key });
      return;
    }
    // Never mutate the cache.
    const d = structuredClone(cached);
    const s = d.spec.selector;
    if (s !== undefined && s.matchLabels === undefined && s.matchExpressions === undefined) {
      deploymentEvent(this.#ctx, d, "Warning", "SelectingAll", "This deployment is selecting all pods. A non-empty selector is required.");
      if ((d.status?.observedGeneration ?? 0) < (d.metadata.generation ?? 0)) {
        d.status = { ...d.status, observedGeneration: d.metadata.generation ?? 0 };
        await this.#d.client.updateDeploymentStatus(d).catch(() => undefined);
      }
      return;
    }
    const rsList = await this.getReplicaSetsForDeployment(d);
    // The Pods are only needed to tell whether a Recreate may start its new ReplicaSet.
    const podMap = this.#podMap(d, rsList);
    if (isSet(d.metadata.deletionTimestamp)) return syncStatusOnly(this.#ctx, d, rsList);
    await checkPausedConditions(this.#ctx, d);
    if (d.spec.paused === true) return sync(this.#ctx, d, rsList);
    // A rollback is not re-entrant: the annotation must be gone before ReplicaSets change again.
    if (getRollbackTo(d) !== undefined) return rollback(this.#ctx, d, rsList);
    if (await isScalingEvent(this.#ctx, d, rsList)) return sync(this.#ctx, d, rsList);
    switch (d.spec.strategy?.type) {
      case recreateDeploymentStrategyType:
        return rolloutRecreate(this.#ctx, d, rsList, podMap);
      case rollingUpdateDeploymentStrategyType:
        return rolloutRolling(this.#ctx, d, rsList);
    }
    throw new Error(`unexpected deployment strategy type: ${d.spec.strategy?.type ?? ""}`);
  }
}
