/**
 * The DaemonSet controller (pkg/controller/daemon/daemon_controller.go): DaemonSet, Pod and Node
 * events enqueue DaemonSet keys; `syncDaemonSet` keeps one Pod on each eligible Node (pinned by
 * node affinity, with the daemon tolerations), deletes Pods on Nodes that may no longer run them,
 * replaces failed ones, rolls the template out (update.ts) and writes the status.
 */
import { labelSelectorAsSelector, type ControllerRevision, type DaemonSet, type LabelMatcher, type Node, type Pod } from "@servicenet/api";
import { describeError } from "@servicenet/client/errors";
import { GenericLister, metaNamespaceKey, splitMetaNamespaceKey, type IndexInformer } from "@servicenet/client/tools/cache";
import { getReference, type EventRecorder } from "@servicenet/client/tools/record";
import { RateLimitingQueue } from "@servicenet/client/util/workqueue";
import { realClock, type Clock } from "@servicenet/component-base/clock";
import { noopLogger, V, type Logger } from "@servicenet/component-base/logs";
import { ControllerExpectations } from "../controller/controller-expectations.ts";
import {
  AggregateError,
  getControllerOf,
  newControllerRef,
  PodControllerRefManager,
  recheckDeletionTimestamp,
} from "../controller/controller-ref-manager.ts";
import type { ControllerObject, PodControlInterface } from "../controller/pod-control.ts";
import { Controller } from "../framework/controller.ts";
import { isPodAvailable } from "../replicaset/replica-set-utils.ts";
import { slowStartBatch } from "../replicaset/slow-start-batch.ts";
import { isPodReady } from "../util/endpoint/pod.ts";
import type { DaemonSetClient } from "./daemon-client.ts";
import { cleanupHistory, constructHistory, daemonSetKind, rollingUpdate } from "./update.ts";
import {
  createPodTemplate,
  defaultDaemonSetUniqueLabelKey,
  getTargetNodeName,
  getTemplateGeneration,
  isPodUpdated,
  nodeShouldRunDaemonPod,
  replaceDaemonSetPodNodeNameNodeAffinity,
} from "./util/daemonset-util.ts";

/** The event source of upstream's recorder. */
export const daemonSetControllerEventSource = { component: "daemonset-controller" };
/** `BurstReplicas`: at most this many creates or deletes per sync. */
export const daemonBurstReplicas = 250;
const failedDaemonPodReason = "FailedDaemonPod";
const selectingAllReason = "SelectingAll";

export interface DaemonSetControllerDeps {
  daemonSets: IndexInformer<DaemonSet>;
  pods: IndexInformer<Pod>;
  nodes: IndexInformer<Node>;
  revisions: IndexInformer<ControllerRevision>;
  client: DaemonSetClient;
  /** Pod creates, deletes and claims, with their events (RealPodControl). */
  podControl: PodControlInterface;
  recorder: EventRecorder;
  queue?: RateLimitingQueue<string>;
  clock?: Clock;
  logger?: Logger;
}

const isDeleting = (o: { metadata: { deletionTimestamp?: unknown } }) =>
  o.metadata.deletionTimestamp !== undefined && o.metadata.deletionTimestamp !== null;
const asController = (ds: DaemonSet): ControllerObject => ({ ...daemonSetKind, metadata: ds.metadata });

/** `podByCreationTimestampAndPhase`: scheduled first... upstream puts Pods with a node first, then the oldest. */
function byCreation(a: Pod, b: Pod): number {
  const na = (a.spec.nodeName ?? "") !== "" ? 0 : 1;
  const nb = (b.spec.nodeName ?? "") !== "" ? 0 : 1;
  if (na !== nb) return na - nb;
  const ta = String(a.metadata.creationTimestamp ?? "");
  const tb = String(b.metadata.creationTimestamp ?? "");
  if (ta !== tb) return ta < tb ? -1 : 1;
  return (a.metadata.name ?? "") < (b.metadata.name ?? "") ? -1 : 1;
}

export class DaemonSetController {
  readonly queue: RateLimitingQueue<string>;
  readonly expectations: ControllerExpectations;
  readonly #d: DaemonSetControllerDeps;
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #runner: Controller;
  readonly #sets: GenericLister<DaemonSet>;
  readonly #pods: GenericLister<Pod>;
  readonly #nodes: GenericLister<Node>;
  readonly #revisions: GenericLister<ControllerRevision>;

  constructor(deps: DaemonSetControllerDeps) {
    this.#d = deps;
    this.#clock = deps.clock ?? realClock;
    this.#log = deps.logger ?? noopLogger;
    this.#sets = new GenericLister(deps.daemonSets);
    this.#pods = new GenericLister(deps.pods);
    this.#nodes = new GenericLister(deps.nodes);
    this.#revisions = new GenericLister(deps.revisions);
    this.queue = deps.queue ?? new RateLimitingQueue<string>("daemonset", this.#clock);
    this.expectations = new ControllerExpectations(this.#clock);
    deps.daemonSets.addEventHandler({
      onAdd: (ds) => this.#enqueue(ds),
      onUpdate: (_o, n) => this.#enqueue(n),
      onDelete: (ds) => {
        this.expectations.delete(metaNamespaceKey(ds));
        this.#enqueue(ds);
      },
    });
    deps.pods.addEventHandler({
      onAdd: (p) => this.#podEvent(p, "add"),
      onUpdate: (o, n) => {
        if (o.metadata.resourceVersion !== n.metadata.resourceVersion) this.#podEvent(n, isDeleting(n) ? "delete" : "update");
      },
      onDelete: (p) => this.#podEvent(p, "delete"),
    });
    // addNode/updateNode: a Node that appears or changes may change where the sets run.
    deps.nodes.addEventHandler({
      onAdd: () => this.#enqueueAll(),
      onUpdate: (o, n) => {
        if (JSON.stringify([o.metadata.labels, o.spec?.taints]) !== JSON.stringify([n.metadata.labels, n.spec?.taints])) this.#enqueueAll();
      },
    });
    this.#runner = new Controller({
      name: "daemonset",
      queue: this.queue,
      sync: (k) => this.syncDaemonSet(k),
      informers: [deps.daemonSets, deps.pods, deps.nodes, deps.revisions],
      maxRetries: Number.POSITIVE_INFINITY,
      logger: this.#log,
    });
  }

  /** `Run`: waits for the caches, then `workers` workers (--concurrent-daemonset-syncs). */
  run(signal: AbortSignal, workers: number): Promise<void> {
    return this.#runner.run(signal, workers);
  }

  #enqueue(ds: DaemonSet): void {
    this.queue.add(metaNamespaceKey(ds));
  }

  #enqueueAll(): void {
    for (const ds of this.#sets.list()) this.#enqueue(ds);
  }

  /** addPod/updatePod/deletePod: the owner is woken (creations and deletions observed); an orphan wakes the sets that select it. */
  #podEvent(pod: Pod, kind: "add" | "update" | "delete"): void {
    const ref = getControllerOf(pod);
    if (ref === undefined) {
      if (kind !== "delete")
        for (const ds of this.#sets.byNamespace(pod.metadata.namespace ?? "").list()) if (this.#selects(ds, pod)) this.#enqueue(ds);
      return;
    }
    if (ref.kind !== daemonSetKind.kind) return;
    const ds = this.#sets.byNamespace(pod.metadata.namespace ?? "").get(ref.name);
    if (ds === undefined || ds.metadata.uid !== ref.uid) return;
    const key = metaNamespaceKey(ds);
    if (kind === "add") this.expectations.creationObserved(key);
    if (kind === "delete") this.expectations.deletionObserved(key);
    this.queue.add(key);
  }

  #selects(ds: DaemonSet, pod: Pod): boolean {
    try {
      return labelSelectorAsSelector(ds.spec.selector)(pod.metadata.labels ?? {});
    } catch {
      return false;
    }
  }

  /** `getDaemonPods` grouped by Node (`getNodesToDaemonPods`): the namespace's Pods the set claims. */
  async getNodesToDaemonPods(ds: DaemonSet, selector: LabelMatcher): Promise<Map<string, Pod[]>> {
    const canAdopt = recheckDeletionTimestamp(async () => {
      const fresh = await this.#d.client.getDaemonSet(ds.metadata.namespace ?? "", ds.metadata.name ?? "");
      if (fresh.metadata.uid !== ds.metadata.uid)
        throw new Error(
          `original DaemonSet ${metaNamespaceKey(ds)} is gone: got uid ${fresh.metadata.uid ?? ""}, wanted ${ds.metadata.uid ?? ""}`,
        );
      return asController(fresh);
    });
    const cm = new PodControllerRefManager(this.#d.podControl, asController(ds), selector, canAdopt);
    const claimed = await cm.claimPods(this.#pods.byNamespace(ds.metadata.namespace ?? "").list());
    const out = new Map<string, Pod[]>();
    for (const pod of claimed) {
      const node = getTargetNodeName(pod);
      if (node === undefined) {
        this.#log.info("Failed to get target node name of Pod in DaemonSet", {
          pod: metaNamespaceKey(pod),
          daemonset: metaNamespaceKey(ds),
        });
        continue;
      }
      out.set(node, [...(out.get(node) ?? []), pod]);
    }
    return out;
  }

  /** `syncDaemonSet`. @throws what could not be done (the key is retried with backoff). */
  async syncDaemonSet(key: string): Promise<void> {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const cached = this.#sets.byNamespace(namespace).get(name);
    if (cached === undefined) {
      V(this.#log, 3).info("Daemon set has been deleted", { daemonset: key });
      this.expectations.delete(key);
      return;
    }
    const ds = structuredClone(cached);
    const nodes = this.#nodes.list();
    const sel = ds.spec.selector;
    if (sel === undefined || Object.keys(sel.matchLabels ?? {}).length + (sel.matchExpressions ?? []).length === 0) {
      this.#d.recorder.event(
        getReference(ds, daemonSetKind.kind, daemonSetKind.apiVersion),
        "Warning",
        selectingAllReason,
        "This daemon set is selecting all pods. A non-empty selector is required.",
      );
      return;
    }
    let selector: LabelMatcher;
    try {
      selector = labelSelectorAsSelector(sel);
    } catch (err) {
      this.#log.error("error converting DaemonSet selector", { key, err: describeError(err) });
      return;
    }
    if (isDeleting(ds)) return;
    const histories = this.#revisions
      .byNamespace(namespace)
      .list(selector)
      .filter((r) => getControllerOf(r)?.uid === ds.metadata.uid);
    const { cur, old } = await constructHistory(this.#d.client, ds, histories);
    const hash = cur.metadata.labels?.[defaultDaemonSetUniqueLabelKey] ?? "";
    if (!this.expectations.satisfied(key)) {
      await this.#updateStatus(ds, nodes, selector, hash, false);
      return;
    }
    let err: Error | undefined;
    try {
      await this.#manage(ds, nodes, selector, hash);
      if (this.expectations.satisfied(key) && ds.spec.updateStrategy?.type === "RollingUpdate") {
        const nodeToPods = await this.getNodesToDaemonPods(ds, selector);
        const step = rollingUpdate(ds, nodes, nodeToPods, hash, this.#clock.now());
        await this.#syncNodes(ds, step.podsToDelete, step.nodesNeedingPods, hash);
      }
      await cleanupHistory(this.#d.client, ds, old, [...(await this.getNodesToDaemonPods(ds, selector)).values()].flat());
    } catch (e) {
      err = e as Error;
    }
    await this.#updateStatus(ds, nodes, selector, hash, true);
    if (err !== undefined) throw err;
  }

  /** `manage`: Pods for the Nodes that need one, deletions for the Pods that must go. */
  async #manage(ds: DaemonSet, nodes: readonly Node[], selector: LabelMatcher, hash: string): Promise<void> {
    const nodeToPods = await this.getNodesToDaemonPods(ds, selector);
    const needing: string[] = [];
    const toDelete: string[] = [];
    const surge = getSurge(ds);
    for (const node of nodes) {
      const r = this.#podsShouldBeOnNode(node, nodeToPods, ds, hash, surge);
      needing.push(...r.needing);
      toDelete.push(...r.toDelete);
    }
    // getUnscheduledPodsWithoutNode: Pods pinned to Nodes that do not exist.
    const names = new Set(nodes.map((n) => n.metadata.name ?? ""));
    for (const [node, pods] of nodeToPods)
      if (!names.has(node))
        for (const p of pods) if ((p.spec.nodeName ?? "") === "" && !isDeleting(p)) toDelete.push(p.metadata.name ?? "");
    await this.#syncNodes(ds, toDelete, needing, hash);
  }

  /** `podsShouldBeOnNode`. */
  #podsShouldBeOnNode(
    node: Node,
    nodeToPods: Map<string, Pod[]>,
    ds: DaemonSet,
    hash: string,
    surge: boolean,
  ): { needing: string[]; toDelete: string[] } {
    const name = node.metadata.name ?? "";
    const { shouldRun, shouldContinueRunning } = nodeShouldRunDaemonPod(node, ds);
    const pods = nodeToPods.get(name);
    if (shouldRun && pods === undefined) return { needing: [name], toDelete: [] };
    const toDelete: string[] = [];
    if (shouldContinueRunning && pods !== undefined) {
      const running: Pod[] = [];
      for (const pod of pods) {
        if (isDeleting(pod)) continue;
        const phase = pod.status?.phase;
        if (phase === "Failed") {
          const msg = `Found failed daemon pod ${pod.metadata.namespace ?? ""}/${pod.metadata.name ?? ""} on node ${name}, will try to kill it`;
          this.#d.recorder.event(getReference(ds, daemonSetKind.kind, daemonSetKind.apiVersion), "Warning", failedDaemonPodReason, msg);
          toDelete.push(pod.metadata.name ?? "");
        } else if (phase === "Succeeded") toDelete.push(pod.metadata.name ?? "");
        else running.push(pod);
      }
      if (running.length > 1) {
        running.sort(byCreation);
        if (!surge) toDelete.push(...running.slice(1).map((p) => p.metadata.name ?? ""));
        else {
          const generation = getTemplateGeneration(ds);
          let oldestNew: Pod | undefined;
          let oldestOld: Pod | undefined;
          for (const p of running) {
            if (isPodUpdated(p, hash, generation) && oldestNew === undefined) oldestNew = p;
            else if (!isPodUpdated(p, hash, generation) && oldestOld === undefined) oldestOld = p;
            else toDelete.push(p.metadata.name ?? "");
          }
          if (
            oldestNew !== undefined &&
            oldestOld !== undefined &&
            isPodAvailable(oldestNew, ds.spec.minReadySeconds ?? 0, this.#clock.now())
          )
            toDelete.push(oldestOld.metadata.name ?? "");
        }
      }
    } else if (!shouldContinueRunning && pods !== undefined) {
      for (const p of pods) if (!isDeleting(p)) toDelete.push(p.metadata.name ?? "");
    }
    return { needing: [], toDelete };
  }

  /** `syncNodes`: creates the Pods (slow start, each pinned to its Node) and deletes the others, counting on expectations. */
  async #syncNodes(ds: DaemonSet, podsToDelete: string[], nodesNeeding: string[], hash: string): Promise<void> {
    const key = metaNamespaceKey(ds);
    const creates = nodesNeeding.slice(0, daemonBurstReplicas);
    const deletes = podsToDelete.slice(0, daemonBurstReplicas);
    if (creates.length === 0 && deletes.length === 0) return;
    this.expectations.set(key, creates.length, deletes.length);
    const template = createPodTemplate(ds.spec.template, getTemplateGeneration(ds), hash);
    const ref = newControllerRef(asController(ds));
    const errs: Error[] = [];
    let next = 0;
    const { successes, error } = await slowStartBatch(creates.length, 1, async () => {
      const nodeName = creates[next++]!;
      const t = structuredClone(template);
      const spec = t.spec as Record<string, unknown>;
      spec["affinity"] = replaceDaemonSetPodNodeNameNodeAffinity(spec["affinity"] as Record<string, unknown> | undefined, nodeName);
      try {
        await this.#d.podControl.createPods(ds.metadata.namespace ?? "", t, asController(ds), ref);
      } catch (err) {
        this.expectations.creationObserved(key);
        throw err;
      }
    });
    if (error !== undefined) errs.push(error);
    // The creates a failed batch skipped will never be observed.
    for (let i = successes + (error !== undefined ? 1 : 0); i < creates.length; i++) this.expectations.creationObserved(key);
    const results = await Promise.allSettled(
      deletes.map((name) => this.#d.podControl.deletePod(ds.metadata.namespace ?? "", name, asController(ds))),
    );
    for (const r of results)
      if (r.status === "rejected") {
        this.expectations.deletionObserved(key);
        errs.push(r.reason as Error);
      }
    if (errs.length > 0) throw errs.length === 1 ? errs[0]! : new AggregateError(errs);
  }

  /** `updateDaemonSetStatus` + `storeDaemonSetStatus`: the counts, written when they changed. */
  async #updateStatus(
    ds: DaemonSet,
    nodes: readonly Node[],
    selector: LabelMatcher,
    hash: string,
    updateObservedGen: boolean,
  ): Promise<void> {
    const nodeToPods = await this.getNodesToDaemonPods(ds, selector);
    const now = this.#clock.now();
    const generation = getTemplateGeneration(ds);
    let desired = 0,
      current = 0,
      misscheduled = 0,
      ready = 0,
      updated = 0,
      available = 0;
    for (const node of nodes) {
      const { shouldRun } = nodeShouldRunDaemonPod(node, ds);
      const pods = nodeToPods.get(node.metadata.name ?? "") ?? [];
      if (!shouldRun) {
        if (pods.length > 0) misscheduled++;
        continue;
      }
      desired++;
      if (pods.length === 0) continue;
      current++;
      const pod = [...pods].sort(byCreation)[0]!;
      if (isPodReady(pod)) {
        ready++;
        if (isPodAvailable(pod, ds.spec.minReadySeconds ?? 0, now)) available++;
      }
      if (isPodUpdated(pod, hash, generation)) updated++;
    }
    const status = {
      ...ds.status,
      desiredNumberScheduled: desired,
      currentNumberScheduled: current,
      numberMisscheduled: misscheduled,
      numberReady: ready,
      updatedNumberScheduled: updated,
      numberAvailable: available,
      numberUnavailable: desired - available,
      observedGeneration: updateObservedGen ? (ds.metadata.generation ?? 0) : ds.status?.observedGeneration,
    };
    const s = ds.status;
    const unchanged =
      s !== undefined &&
      s.desiredNumberScheduled === desired &&
      s.currentNumberScheduled === current &&
      s.numberMisscheduled === misscheduled &&
      s.numberReady === ready &&
      (s.updatedNumberScheduled ?? 0) === updated &&
      (s.numberAvailable ?? 0) === available &&
      (s.numberUnavailable ?? 0) === desired - available &&
      (s.observedGeneration ?? 0) >= (ds.metadata.generation ?? 0);
    if (!unchanged) {
      try {
        await this.#d.client.updateStatus({ ...ds, status });
      } catch {
        // StatusUpdateRetries: one more try on a fresh read.
        const fresh = await this.#d.client.getDaemonSet(ds.metadata.namespace ?? "", ds.metadata.name ?? "");
        await this.#d.client.updateStatus({ ...fresh, status: { ...fresh.status, ...status } });
      }
    }
    // A last line of defence against clock skew.
    if ((ds.spec.minReadySeconds ?? 0) > 0 && ready !== available)
      this.queue.addAfter(metaNamespaceKey(ds), (ds.spec.minReadySeconds ?? 0) * 1000);
  }
}

/** `util.AllowsSurge`: a RollingUpdate whose maxSurge is not zero. */
function getSurge(ds: DaemonSet): boolean {
  const ms = ds.spec.updateStrategy?.rollingUpdate?.maxSurge;
  return ds.spec.updateStrategy?.type === "RollingUpdate" && ms !== undefined && ms !== 0 && ms !== "0%";
}
