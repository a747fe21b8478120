/**
 * The taint-eviction controller (pkg/controller/tainteviction/taint_eviction.go, Kubernetes 1.33,
 * SeparateTaintEvictionController): Pods bound to a Node with NoExecute taints they do not
 * tolerate are deleted at once; those tolerating them for `tolerationSeconds` are deleted that
 * long after (the shortest of the matching tolerations); the timer is cancelled when the taints go
 * or become tolerated, by the Node's or the Pod's change.
 */
import type { Node, Pod, Taint, Toleration } from "@servicenet/api";
import { getMatchingTolerations } from "@servicenet/api";
import { waitForCacheSync, type IndexInformer, type Informer } from "@servicenet/client/tools/cache";
import type { EventRecorder } from "@servicenet/client/tools/record";
import { WorkQueue } from "@servicenet/client/util/workqueue";
import { realClock, type Clock } from "@servicenet/component-base/clock";
import { noopLogger, V, type Logger } from "@servicenet/component-base/logs";
import { podNodeNameIndex } from "../pod-index.ts";
import { deletePodHandler } from "./delete-pod.ts";
import type { TaintEvictionMetrics } from "./metrics/metrics.ts";
import type { TaintEvictionClient } from "./taint-eviction-client.ts";
import { keyFromWorkArgs, newWorkArgs, TimedWorkerQueue, type WorkArgs } from "./timed-workers.ts";
import { getMinTolerationTime, getNoExecuteTaints } from "./tolerations.ts";

/** cmd/kube-controller-manager/names `TaintEvictionController`. */
export const taintEvictionControllerName = "taint-eviction-controller";

export interface TaintEvictionDeps {
  nodes: Informer<Node>;
  /** Pods, indexed by `podNodeNameIndex` (upstream's "spec.nodeName" indexer). */
  pods: IndexInformer<Pod>;
  client: TaintEvictionClient;
  /** The recorder of component "taint-eviction-controller". */
  recorder: EventRecorder;
  metrics?: TaintEvictionMetrics;
  clock?: Clock;
  logger?: Logger;
  /** Node names (upstream's "noexec_taint_node"). */
  nodeQueue?: WorkQueue<string>;
  /** Pod updates, `podUpdateKey` (upstream's "noexec_taint_pod"). */
  podQueue?: WorkQueue<string>;
}

// podUpdateItem {podNamespace, podName, nodeName} as one queue key: a Pod's key and node name hold no "|".
const podUpdateKey = (ns: string, name: string, node: string) => `${ns}/${name}|${node}`;
const parsePodUpdateKey = (key: string) => {
  const [nsName = "", nodeName = ""] = key.split("|");
  const slash = nsName.indexOf("/");
  return { podNamespace: nsName.slice(0, slash), podName: nsName.slice(slash + 1), nodeName };
};
// helper.Semantic.DeepEqual: nil and empty lists alike.
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export class TaintEvictionController {
  /** Every Node with NoExecute taints, and those taints (`taintedNodes`). */
  readonly taintedNodes = new Map<string, Taint[]>();
  /** The scheduled deletions (`taintEvictionQueue`). */
  readonly taintEvictionQueue: TimedWorkerQueue;
  readonly #d: TaintEvictionDeps;
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #nodeQueue: WorkQueue<string>;
  readonly #podQueue: WorkQueue<string>;

  /** `New`: the event handlers on the shared informers. */
  constructor(d: TaintEvictionDeps) {
    this.#d = d;
    this.#clock = d.clock ?? realClock;
    this.#log = d.logger ?? noopLogger;
    this.#nodeQueue = d.nodeQueue ?? new WorkQueue<string>("noexec_taint_node");
    this.#podQueue = d.podQueue ?? new WorkQueue<string>("noexec_taint_pod");
    this.taintEvictionQueue = new TimedWorkerQueue(
      deletePodHandler({
        client: d.client,
        clock: this.#clock,
        logger: this.#log,
        controllerName: taintEvictionControllerName,
        emitEvent: (a) => this.#event(a, `Marking for deletion Pod ${keyFromWorkArgs(a)}`),
        metrics: d.metrics,
      }),
      this.#clock,
      this.#log,
    );
    d.pods.addEventHandler({
      onAdd: (p) => this.podUpdated(undefined, p),
      onUpdate: (o, p) => this.podUpdated(o, p),
      onDelete: (p) => this.podUpdated(p, undefined),
    });
    d.nodes.addEventHandler({
      onAdd: (n) => this.nodeUpdated(undefined, n),
      onUpdate: (o, n) => this.nodeUpdated(o, n),
      onDelete: (n) => this.nodeUpdated(n, undefined),
    });
  }

  /** `Run`: after the caches sync, Node updates before Pod updates, until `signal` aborts. */
  async run(signal: AbortSignal): Promise<void> {
    this.#log.info("Starting controller", { controller: taintEvictionControllerName });
    const own = AbortSignal.any([signal]);
    own.addEventListener("abort", () => (this.#nodeQueue.shutDown(), this.#podQueue.shutDown()), { once: true });
    if (await waitForCacheSync(own, [this.#d.pods, this.#d.nodes])) await Promise.all([this.#nodeWorker(), this.#podWorker()]);
    await this.taintEvictionQueue.cancelAndWait();
    this.#log.info("Shutting down controller", { controller: taintEvictionControllerName });
  }

  async #nodeWorker(): Promise<void> {
    for (let n = await this.#nodeQueue.get(); n !== undefined; n = await this.#nodeQueue.get()) this.#handleNode(n);
  }

  // `worker`: a Pod update first empties the Node queue, so a Node's taints are known before its Pods are looked at.
  async #podWorker(): Promise<void> {
    for (let p = await this.#podQueue.get(); p !== undefined; p = await this.#podQueue.get()) {
      while (this.#nodeQueue.len() > 0) {
        const n = await this.#nodeQueue.get();
        if (n !== undefined) this.#handleNode(n);
      }
      try {
        this.handlePodUpdate(parsePodUpdateKey(p));
      } finally {
        this.#podQueue.done(p);
      }
    }
  }

  #handleNode(name: string): void {
    try {
      this.handleNodeUpdate(name);
    } finally {
      this.#nodeQueue.done(name);
    }
  }

  /** `PodUpdated`: queued unless neither the tolerations nor the node changed. */
  podUpdated(oldPod: Pod | undefined, newPod: Pod | undefined): void {
    const pod = newPod ?? oldPod;
    if (pod === undefined) return;
    const oldTolerations = oldPod?.spec.tolerations ?? [];
    const newTolerations = newPod?.spec.tolerations ?? [];
    if (
      oldPod !== undefined &&
      newPod !== undefined &&
      same(oldTolerations, newTolerations) &&
      oldPod.spec.nodeName === newPod.spec.nodeName
    )
      return;
    this.#podQueue.add(podUpdateKey(pod.metadata.namespace ?? "", pod.metadata.name ?? "", pod.spec.nodeName ?? ""));
  }

  /** `NodeUpdated`: queued unless its NoExecute taints are unchanged. */
  nodeUpdated(oldNode: Node | undefined, newNode: Node | undefined): void {
    const node = newNode ?? oldNode;
    if (node === undefined) return;
    if (
      oldNode !== undefined &&
      newNode !== undefined &&
      same(getNoExecuteTaints(oldNode.spec.taints), getNoExecuteTaints(newNode.spec.taints))
    )
      return;
    this.#nodeQueue.add(node.metadata.name ?? "");
  }

  #event(a: WorkArgs, message: string): void {
    this.#d.recorder.event(
      { apiVersion: "v1", kind: "Pod", name: a.name, namespace: a.namespace },
      "Normal",
      "TaintManagerEviction",
      message,
    );
  }

  /** `cancelWorkWithEvent`: a scheduled deletion called off says so on the Pod. */
  #cancelWorkWithEvent(args: WorkArgs): void {
    if (this.taintEvictionQueue.cancelWork(keyFromWorkArgs(args))) this.#event(args, `Cancelling deletion of Pod ${keyFromWorkArgs(args)}`);
  }

  /** `processPodOnNode`: delete now, schedule, keep the earlier schedule, or cancel. */
  processPodOnNode(args: WorkArgs, nodeName: string, tolerations: readonly Toleration[], taints: readonly Taint[], now: number): void {
    const key = keyFromWorkArgs(args);
    if (taints.length === 0) this.#cancelWorkWithEvent(args);
    const { allTolerated, used } = getMatchingTolerations(taints, tolerations);
    if (!allTolerated) {
      V(this.#log, 2).info("Not all taints are tolerated after update for pod on node", { pod: key, node: nodeName });
      // Any scheduled deletion is cancelled: the Pod goes at once.
      this.#cancelWorkWithEvent(args);
      this.taintEvictionQueue.addWork(args, now, now);
      return;
    }
    const minTolerationTime = getMinTolerationTime(used);
    if (minTolerationTime < 0) {
      V(this.#log, 4).info("Current tolerations for pod tolerate forever, cancelling any scheduled deletion", { pod: key });
      this.#cancelWorkWithEvent(args);
      return;
    }
    let startTime = now;
    const triggerTime = startTime + minTolerationTime;
    const scheduled = this.taintEvictionQueue.getWorkerUnsafe(key);
    if (scheduled !== undefined) {
      startTime = scheduled.createdAt;
      // An earlier deadline stands: a longer toleration does not postpone it.
      if (startTime + minTolerationTime < triggerTime) return;
      this.#cancelWorkWithEvent(args);
    }
    this.taintEvictionQueue.addWork(args, startTime, triggerTime);
  }

  /** `handlePodUpdate`: a deleted Pod's deletion is cancelled; a bound one is checked against its Node's taints. */
  handlePodUpdate(item: { podNamespace: string; podName: string; nodeName: string }): void {
    const args = newWorkArgs(item.podName, item.podNamespace);
    const pod = this.#d.pods.get(keyFromWorkArgs(args));
    if (pod === undefined) {
      V(this.#log, 4).info("Noticed pod deletion", { pod: keyFromWorkArgs(args) });
      this.#cancelWorkWithEvent(args);
      return;
    }
    // Items are keyed by node: a stale one is not this worker's to process.
    const nodeName = pod.spec.nodeName ?? "";
    if (nodeName !== item.nodeName) return;
    V(this.#log, 4).info("Noticed pod update", { pod: keyFromWorkArgs(args) });
    if (nodeName === "") return;
    const taints = this.taintedNodes.get(nodeName);
    // The Node is gone or untainted: any scheduled deletion was cancelled then.
    if (taints === undefined) return;
    this.processPodOnNode(args, nodeName, pod.spec.tolerations ?? [], taints, this.#clock.now());
  }

  /** `handleNodeUpdate`: the Node's NoExecute taints recorded, then each of its Pods processed. */
  handleNodeUpdate(nodeName: string): void {
    const node = this.#d.nodes.get(nodeName);
    if (node === undefined) {
      V(this.#log, 4).info("Noticed node deletion", { node: nodeName });
      this.taintedNodes.delete(nodeName);
      return;
    }
    V(this.#log, 4).info("Noticed node update", { node: nodeName });
    const taints = getNoExecuteTaints(node.spec.taints);
    V(this.#log, 4).info("Updating known taints on node", { node: nodeName, taints });
    if (taints.length === 0) this.taintedNodes.delete(nodeName);
    else this.taintedNodes.set(nodeName, taints);
    // taintedNodes is updated first: a Pod the cache does not list yet is handled by its own update.
    const pods = this.#d.pods.byIndex(podNodeNameIndex, nodeName);
    if (pods.length === 0) return;
    if (taints.length === 0) {
      V(this.#log, 4).info("All taints were removed from the node. Cancelling all evictions...", { node: nodeName });
      for (const p of pods) this.#cancelWorkWithEvent(newWorkArgs(p.metadata.name ?? "", p.metadata.namespace ?? ""));
      return;
    }
    const now = this.#clock.now();
    for (const p of pods)
      this.processPodOnNode(
        newWorkArgs(p.metadata.name ?? "", p.metadata.namespace ?? ""),
        nodeName,
        p.spec.tolerations ?? [],
        taints,
        now,
      );
  }
}
