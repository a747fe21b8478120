/**
 * The node lifecycle controller (pkg/controller/nodelifecycle/node_lifecycle_controller.go):
 * `monitorNodeHealth` turns silent Nodes Unknown and their Pods not Ready, the per-zone NoExecute
 * tainter (`doNoExecuteTaintingPass`) adds `unreachable` / `not-ready` at the zone's eviction rate,
 * and `doNoScheduleTaintingPass` keeps each Node's condition taints in step with its conditions.
 */
import type { Lease, Node, NodeCondition, Pod } from "@servicenet/api";
import type { IndexInformer, Informer } from "@servicenet/client/tools/cache";
import type { EventRecorder } from "@servicenet/client/tools/record";
import { RateLimitingQueue } from "@servicenet/client/util/workqueue";
import { describeError } from "@servicenet/client/errors";
import { realClock, sleep, type Clock } from "@servicenet/component-base/clock";
import { noopLogger, V, type Logger } from "@servicenet/component-base/logs";
import { Controller } from "../../framework/controller.ts";
import { podNodeNameIndex } from "../pod-index.ts";
import {
  getNodeCondition,
  markPodsNotReady,
  recordNodeStatusChange,
  swapNodeControllerTaint,
  taintExists,
  type NodeLifecycleClient,
} from "../util/node/controller-utils.ts";
import { defaultNodeLifecycleConfig, type NodeLifecycleConfig } from "./config.ts";
import { tryUpdateNodeHealth, type NodeHealthData } from "./node-health.ts";
import { nodeEvictionPeriodMs, RateLimitedTimedQueue } from "./scheduler/rate-limited-queue.ts";
import { noScheduleTaintDiff, notReadyTaintTemplate, unreachableTaintTemplate } from "./taints.ts";
import { getZoneKey, type ZoneState } from "./zones.ts";
import { handleDisruption } from "./disruption.ts";

/** The controller's name (cmd/kube-controller-manager/names: NodeLifecycleController). */
export const nodeLifecycleControllerName = "node-lifecycle-controller";
/** `labelNodeDisruptionExclusion`. */
export const labelNodeDisruptionExclusion = "node.kubernetes.io/exclude-disruption";
/** `nodeUpdateWorkerSize`. */
const nodeUpdateWorkerSize = 8;

export interface NodeLifecycleDeps {
  nodes: Informer<Node>;
  /** Pods, indexed by `podNodeNameIndex`. */
  pods: IndexInformer<Pod>;
  /** The Leases of kube-node-lease. */
  leases: Informer<Lease>;
  client: NodeLifecycleClient;
  recorder: EventRecorder;
  config?: Partial<NodeLifecycleConfig>;
  clock?: Clock;
  logger?: Logger;
  /** The NoSchedule tainting queue (upstream's "node_lifecycle_controller"). */
  queue?: RateLimitingQueue<string>;
  /** Pods newly bound to a Node (upstream's "node_lifecycle_controller_pods"). */
  podQueue?: RateLimitingQueue<string>;
}

export class NodeLifecycleController {
  readonly config: NodeLifecycleConfig;
  readonly #d: NodeLifecycleDeps;
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #health = new Map<string, NodeHealthData>();
  readonly #known = new Map<string, Node>();
  readonly #retry = new Set<string>();
  readonly #zoneStates = new Map<string, ZoneState>();
  readonly #tainters = new Map<string, RateLimitedTimedQueue>();
  readonly #nodeRunner: Controller;
  readonly #podRunner: Controller;

  constructor(d: NodeLifecycleDeps) {
    this.#d = d;
    this.config = { ...defaultNodeLifecycleConfig, ...d.config };
    this.#clock = d.clock ?? realClock;
    this.#log = d.logger ?? noopLogger;
    const queue = d.queue ?? new RateLimitingQueue<string>("node_lifecycle_controller", this.#clock);
    const podQueue = d.podQueue ?? new RateLimitingQueue<string>("node_lifecycle_controller_pods", this.#clock);
    const enqueue = (n: Node) => queue.add(n.metadata.name ?? "");
    d.nodes.addEventHandler({
      onAdd: enqueue,
      onUpdate: (_o, n) => enqueue(n),
      onDelete: (n) => this.#retry.delete(n.metadata.name ?? ""),
    });
    // podUpdated: a Pod bound (or re-bound) to a Node is looked at once.
    const podUpdated = (old: Pod | undefined, pod: Pod) => {
      const node = pod.spec.nodeName ?? "";
      if (node !== "" && (old === undefined || old.spec.nodeName !== node))
        podQueue.add(`${pod.metadata.namespace ?? ""}/${pod.metadata.name ?? ""}`);
    };
    d.pods.addEventHandler({ onAdd: (p) => podUpdated(undefined, p), onUpdate: podUpdated });
    const informers = [d.nodes, d.pods, d.leases];
    // Upstream logs a failed NoSchedule pass and waits for the Node's next event.
    this.#nodeRunner = new Controller({
      name: nodeLifecycleControllerName,
      queue,
      sync: (name) => this.doNoScheduleTaintingPass(name),
      informers,
      maxRetries: 0,
      logger: this.#log,
    });
    this.#podRunner = new Controller({
      name: `${nodeLifecycleControllerName}-pods`,
      queue: podQueue,
      sync: (key) => this.processPod(key),
      informers,
      maxRetries: Number.POSITIVE_INFINITY,
      logger: this.#log,
    });
  }

  /** `Run`: the NoSchedule and Pod workers, the NoExecute tainter every 100 ms, the health monitor every --node-monitor-period. */
  async run(signal: AbortSignal): Promise<void> {
    const loops = [
      this.#nodeRunner.run(signal, nodeUpdateWorkerSize),
      this.#podRunner.run(signal, 4),
      this.#until(signal, nodeEvictionPeriodMs, () => this.doNoExecuteTaintingPass()),
      this.#until(signal, this.config.nodeMonitorPeriodMs, () => this.monitorNodeHealth()),
    ];
    await Promise.all(loops);
  }

  /** `wait.UntilWithContext` after the caches sync: `fn`, then `periodMs` of sleep, until aborted. */
  async #until(signal: AbortSignal, periodMs: number, fn: () => Promise<void>): Promise<void> {
    while (!signal.aborted && ![this.#d.nodes, this.#d.pods, this.#d.leases].every((i) => i.hasSynced()))
      if (!(await sleep(this.#clock, 100, signal))) return;
    while (!signal.aborted) {
      await fn().catch((err: unknown) => this.#log.error("node lifecycle pass failed", { err: describeError(err) }));
      if (!(await sleep(this.#clock, periodMs, signal))) return;
    }
  }

  /** What the controller last saw of a Node (tests and debugging). */
  healthOf(name: string): NodeHealthData | undefined {
    return this.#health.get(name);
  }

  /** The NoExecute tainter of a zone, if it has been seen. */
  tainterOf(zone: string): RateLimitedTimedQueue | undefined {
    return this.#tainters.get(zone);
  }

  #podsOn(node: string): Pod[] {
    return this.#d.pods.byIndex(podNodeNameIndex, node);
  }

  #addPodEvictorForNewZone(node: Node): void {
    const zone = getZoneKey(node);
    if (this.#zoneStates.has(zone)) return;
    this.#zoneStates.set(zone, "Initial");
    this.#tainters.set(zone, new RateLimitedTimedQueue(this.#clock, this.config.nodeEvictionRate));
  }

  /** `monitorNodeHealth`: every Node's health from the caches, then the zones' disruption states. */
  async monitorNodeHealth(): Promise<void> {
    const nodes = this.#d.nodes.list();
    const names = new Set(nodes.map((n) => n.metadata.name ?? ""));
    for (const node of nodes) {
      const name = node.metadata.name ?? "";
      if (this.#known.has(name)) continue;
      V(this.#log, 1).info("Controller observed a new Node", { node: name });
      this.#recordNodeEvent(node, "RegisteredNode", `Registered Node ${name} in Controller`);
      this.#known.set(name, node);
      this.#addPodEvictorForNewZone(node);
      await this.#markNodeAsReachable(node);
    }
    for (const [name, node] of this.#known) {
      if (names.has(name)) continue;
      V(this.#log, 1).info("Controller observed a Node deletion", { node: name });
      this.#recordNodeEvent(node, "RemovingNode", `Removing Node ${name} from Controller`);
      this.#known.delete(name);
      this.#health.delete(name);
    }
    const zoneConditions = new Map<string, (NodeCondition | undefined)[]>();
    await Promise.all(nodes.map((n) => this.#updateNode(structuredClone(n), zoneConditions)));
    await handleDisruption(
      {
        zoneStates: this.#zoneStates,
        tainters: this.#tainters,
        unhealthyZoneThreshold: this.config.unhealthyZoneThreshold,
        rates: {
          evictionLimiterQPS: this.config.nodeEvictionRate,
          secondaryEvictionLimiterQPS: this.config.secondaryNodeEvictionRate,
          largeClusterThreshold: this.config.largeClusterSizeThreshold,
        },
        logger: this.#log,
        markNodeAsReachable: (n) => this.#markNodeAsReachable(n),
        resetProbeTimestamps: (now) => {
          for (const [name, h] of this.#health) this.#health.set(name, { ...h, probeTimestamp: now, readyTransitionTimestamp: now });
        },
      },
      zoneConditions,
      nodes,
      this.#clock.now(),
    );
  }

  #recordNodeEvent(node: Node, reason: string, message: string): void {
    const ref = { kind: "Node", name: node.metadata.name ?? "", uid: node.metadata.uid ?? "", namespace: "" };
    this.#d.recorder.event(ref, "Normal", reason, message);
  }

  /** The `updateNodeFunc` of monitorNodeHealth for one Node. */
  async #updateNode(node: Node, zoneConditions: Map<string, (NodeCondition | undefined)[]>): Promise<void> {
    const name = node.metadata.name ?? "";
    let r;
    // wait.PollImmediate(retrySleepTime, retrySleepTime*NodeHealthUpdateRetry): up to 5 tries on a fresh Node.
    for (let attempt = 0; ; attempt++) {
      r = await tryUpdateNodeHealth(node, this.#health.get(name), this.#healthContext(name));
      this.#health.set(name, r.health);
      if (r.err === undefined) break;
      if (attempt >= 4) {
        this.#log.error("Update health of Node from Controller error, Skipping - no pods will be evicted", {
          node: name,
          err: describeError(r.err),
        });
        return;
      }
      try {
        node = await this.#d.client.getNode(name);
      } catch (err) {
        this.#log.error("Failed while getting a Node to retry updating node health. Probably Node was deleted", {
          node: name,
          err: describeError(err),
        });
        return;
      }
    }
    const { observed, current } = r;
    if (node.metadata.labels?.[labelNodeDisruptionExclusion] === undefined) {
      const zone = getZoneKey(node);
      zoneConditions.set(zone, [...(zoneConditions.get(zone) ?? []), current]);
    }
    if (current !== undefined) {
      const pods = this.#podsOn(name);
      await this.#processTaintBaseEviction(node, observed.status);
      const needsRetry = this.#retry.has(name);
      const becameNotReady = current.status !== "True" && observed.status === "True";
      if (becameNotReady) recordNodeStatusChange(this.#d.recorder, node, "NodeNotReady");
      if (becameNotReady || (needsRetry && observed.status !== "True")) {
        try {
          await markPodsNotReady(this.#d.client, this.#d.recorder, pods, name, this.#clock.now(), this.#log);
        } catch (err) {
          this.#log.error(`unable to mark all pods NotReady on node ${name}: ${describeError(err)}; queuing for retry`);
          this.#retry.add(name);
          return;
        }
      }
    }
    this.#retry.delete(name);
  }

  #healthContext(name: string) {
    return {
      now: this.#clock.now(),
      nodeMonitorGracePeriodMs: this.config.nodeMonitorGracePeriodMs,
      nodeStartupGracePeriodMs: this.config.nodeStartupGracePeriodMs,
      lease: this.#d.leases.get(`kube-node-lease/${name}`),
      client: this.#d.client,
      logger: this.#log,
    };
  }

  /** `processTaintBaseEviction`: queue the Node for its NoExecute taint, swap it at once, or clear it. */
  async #processTaintBaseEviction(node: Node, observed: string): Promise<void> {
    const name = node.metadata.name ?? "";
    const taints = node.spec.taints ?? [];
    if (observed === "False" || observed === "Unknown") {
      const [want, opposite] =
        observed === "False" ? [notReadyTaintTemplate, unreachableTaintTemplate] : [unreachableTaintTemplate, notReadyTaintTemplate];
      // Already tainted the other way: swapped straight away, without waiting for the rate limiter.
      if (taintExists(taints, opposite)) {
        if (!(await swapNodeControllerTaint(this.#d.client, [want], [opposite], node, this.#clock.now(), this.#log)))
          this.#log.error(
            `Failed to instantly swap ${opposite === unreachableTaintTemplate ? "UnreachableTaint to NotReadyTaint" : "NotReadyTaint to UnreachableTaint"}. Will try again in the next cycle`,
          );
      } else if (this.#markNodeForTainting(node, want)) {
        V(this.#log, 2).info(
          observed === "False" ? "Node is NotReady. Adding it to the Taint queue" : "Node is unresponsive. Adding it to the Taint queue",
          { node: name },
        );
      }
      return;
    }
    if (observed === "True" && (await this.#markNodeAsReachable(node)))
      V(this.#log, 2).info("Node is healthy again, removed all taints", { node: name });
  }

  /** `markNodeForTainting`: re-queued when it lacks the taint its condition calls for. */
  #markNodeForTainting(node: Node, want: typeof notReadyTaintTemplate): boolean {
    const q = this.#tainterFor(node);
    if (!taintExists(node.spec.taints, want)) q.remove(node.metadata.name ?? "");
    return q.add(node.metadata.name ?? "", node.metadata.uid ?? "");
  }

  #tainterFor(node: Node): RateLimitedTimedQueue {
    this.#addPodEvictorForNewZone(node);
    return this.#tainters.get(getZoneKey(node)) as RateLimitedTimedQueue;
  }

  /** `markNodeAsReachable`: both NoExecute taints off, out of the taint queue; returns whether it was queued. */
  async #markNodeAsReachable(node: Node): Promise<boolean> {
    const remove = [unreachableTaintTemplate, notReadyTaintTemplate].filter((t) => taintExists(node.spec.taints, t));
    if (remove.length > 0 && !(await swapNodeControllerTaint(this.#d.client, [], remove, node, this.#clock.now(), this.#log)))
      this.#log.error("Failed to remove taints from node. Will retry in next iteration", { node: node.metadata.name });
    return this.#tainterFor(node).remove(node.metadata.name ?? "");
  }

  /** `doNoExecuteTaintingPass`: each zone's queue drained at its rate; the taint follows the Node's Ready condition. */
  async doNoExecuteTaintingPass(): Promise<void> {
    for (const q of [...this.#tainters.values()]) {
      await q.try(async (v) => {
        const node = this.#d.nodes.get(v.value);
        if (node === undefined) {
          this.#log.info("Node no longer present in nodeLister", { node: v.value });
          return [true, 0];
        }
        const ready = getNodeCondition(node, "Ready");
        if (ready === undefined) {
          this.#log.info("Failed to get NodeCondition from the node status", { node: v.value });
          return [false, 50];
        }
        // Unreachable and not-ready are mutually exclusive, as the Ready condition's values are.
        if (ready.status !== "False" && ready.status !== "Unknown") {
          V(this.#log, 4).info("Node was in a taint queue, but it's ready now. Ignoring taint request", { node: v.value });
          return [true, 0];
        }
        const [add, remove] =
          ready.status === "False" ? [notReadyTaintTemplate, unreachableTaintTemplate] : [unreachableTaintTemplate, notReadyTaintTemplate];
        return [await swapNodeControllerTaint(this.#d.client, [add], [remove], node, this.#clock.now(), this.#log), 0];
      });
    }
  }

  /** `doNoScheduleTaintingPass`: the Node's NoSchedule condition taints made to match its conditions. */
  async doNoScheduleTaintingPass(name: string): Promise<void> {
    const node = this.#d.nodes.get(name);
    if (node === undefined) return;
    const { add, remove } = noScheduleTaintDiff(node);
    if (add.length === 0 && remove.length === 0) return;
    if (!(await swapNodeControllerTaint(this.#d.client, add, remove, node, this.#clock.now(), this.#log)))
      throw new Error(`failed to swap taints of node ${name}`);
  }

  /** `processPod`: a Pod bound to a Node the controller holds not Ready is marked not Ready too. */
  async processPod(key: string): Promise<void> {
    const pod = this.#d.pods.get(key);
    if (pod === undefined) return;
    const nodeName = pod.spec.nodeName ?? "";
    const health = this.#health.get(nodeName);
    // Node data not gathered yet, or the Node is gone.
    if (health === undefined) return;
    if (this.#d.nodes.get(nodeName) === undefined) throw new Error(`node ${JSON.stringify(nodeName)} not found`);
    const ready = health.status?.conditions?.find((c) => c.type === "Ready");
    if (ready === undefined || ready.status === "True") return;
    await markPodsNotReady(this.#d.client, this.#d.recorder, [pod], nodeName, this.#clock.now(), this.#log);
  }
}
