/**
 * The pod workers of all the process's Nodes (pkg/kubelet/pod_workers.go, for a runtime that only
 * keeps times): one work queue keyed by Pod, fed by the one shared Pod informer, so each Pod is
 * synced by one worker at a time, as upstream's worker per Pod. A sync starts a new Pod (its IPs
 * from the Node's host-local IPAM, or the Node's IPs for hostNetwork), moves its simulated
 * containers on, hands the status it generates to its Node's status manager (status-sync.ts, one
 * per Node, which writes it without the worker waiting), comes back when the Pod will next change,
 * and for a deleted Pod stops the containers within the grace period and marks it finished (the
 * status manager writes the terminal status, then deletes it with grace 0). IPs go back when the
 * Pod is gone.
 */
import type { Pod } from "@servicenet/api";
import type { Informer } from "@servicenet/client/tools/cache";
import { describeError } from "@servicenet/client/errors";
import { RateLimitingQueue } from "@servicenet/client/util/workqueue";
import { realClock, type Clock } from "@servicenet/component-base/clock";
import { noopLogger, type Logger } from "@servicenet/component-base/logs";
import type { KubeletMetrics } from "./metrics/metrics.ts";
import type { NodeSet, OwnedNode } from "./node-set.ts";
import type { PodClient } from "./pod-client.ts";
import { advance, newPodRuntime, type PodRuntime } from "./pod-runtime.ts";
import { simulationOf } from "./simulation.ts";
import { generatePodStatus, stopTime } from "./status/generate.ts";
import { StatusManager } from "./status/status-sync.ts";

export interface PodWorkersOptions {
  pods: Informer<Pod>;
  nodes: NodeSet;
  client: PodClient;
  clock?: Clock;
  logger?: Logger;
  /** Pods started, running, and their start duration (pkg/kubelet/metrics). */
  metrics?: KubeletMetrics;
}

/** A Pod's runtime and its Node. */
type Runtime = PodRuntime & { node: string };

const keyOf = (p: Pod) => `${p.metadata.namespace ?? ""}/${p.metadata.name ?? ""}`;
const isTerminal = (p: Pod) => p.status?.phase === "Succeeded" || p.status?.phase === "Failed";

export class PodWorkers {
  readonly #o: PodWorkersOptions;
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly queue: RateLimitingQueue<string>;
  readonly #runtimes = new Map<string, Runtime>();
  /** When the informer first showed each of our Pods not yet started (the kubelet's firstSeenTime). */
  readonly #firstSeen = new Map<string, number>();
  /** Each Node's status manager, made at its first Pod. */
  readonly #statuses = new Map<string, StatusManager>();

  constructor(o: PodWorkersOptions) {
    this.#o = o;
    this.#clock = o.clock ?? realClock;
    this.#log = o.logger ?? noopLogger;
    this.queue = new RateLimitingQueue<string>("kubelet-pods", this.#clock);
    const enqueue = (p: Pod) => {
      if (o.nodes.get(p.spec.nodeName) === undefined) return;
      const key = keyOf(p);
      if (o.metrics !== undefined && !this.#runtimes.has(key) && !this.#firstSeen.has(key)) this.#firstSeen.set(key, this.#clock.now());
      this.queue.add(key);
    };
    const gone = (p: Pod) => {
      this.#statuses.get(p.spec.nodeName ?? "")?.forget(keyOf(p));
      enqueue(p);
    };
    o.pods.addEventHandler({ onAdd: enqueue, onUpdate: (_old, p) => enqueue(p), onDelete: gone });
    o.metrics?.registry.addCollector(() => o.metrics?.runningPods.set({}, this.#runtimes.size));
  }

  /** Syncs every Pod bound to `node` again (its podCIDRs just arrived). */
  enqueueNode(node: string): void {
    for (const p of this.#o.pods.list()) if (p.spec.nodeName === node) this.queue.add(keyOf(p));
  }

  /** Stops the status writes of `node`'s Pods (its kubelet is gone); the caller has removed it from the NodeSet. */
  stopNode(node: string): void {
    this.#statuses.get(node)?.stop();
    this.#statuses.delete(node);
  }

  /** Pods with a runtime (started, not yet gone). */
  get running(): number {
    return this.#runtimes.size;
  }

  /** Runs `workers` workers until `signal` aborts; then waits for the status writes under way. */
  async run(signal: AbortSignal, workers: number): Promise<void> {
    signal.addEventListener("abort", () => this.queue.shutDown(), { once: true });
    await Promise.all(Array.from({ length: workers }, () => this.#worker()));
    for (const m of this.#statuses.values()) m.stop();
    await this.idle();
  }

  /** Resolves when every Node's status manager has written what it was given (tests). */
  async idle(): Promise<void> {
    for (const m of this.#statuses.values()) await m.idle();
  }

  async #worker(): Promise<void> {
    for (;;) {
      const key = await this.queue.get();
      if (key === undefined) return;
      try {
        this.sync(key);
        this.queue.forget(key);
      } catch (err) {
        this.#log.error("Error syncing pod, skipping", { pod: key, err: describeError(err) });
        this.queue.addRateLimited(key);
      } finally {
        this.queue.done(key);
      }
    }
  }

  #statusManager(node: string): StatusManager {
    let m = this.#statuses.get(node);
    if (m === undefined) {
      m = new StatusManager({ get: (key) => this.#o.pods.get(key), client: this.#o.client, clock: this.#clock, logger: this.#log });
      this.#statuses.set(node, m);
    }
    return m;
  }

  #release(key: string): void {
    const rt = this.#runtimes.get(key);
    if (rt === undefined) return;
    this.#runtimes.delete(key);
    this.#firstSeen.delete(key);
    this.#o.nodes.get(rt.node)?.ipam?.release(rt.uid);
  }

  /** Starts the Pod's sandbox: IPs, then containers. Undefined while the Node has no podCIDRs. */
  #start(pod: Pod, node: OwnedNode, now: number): Runtime | undefined {
    const uid = pod.metadata.uid ?? "";
    let ips: string[];
    const had = (pod.status?.podIPs ?? []).map((p) => p.ip);
    if (pod.spec.hostNetwork === true) ips = [...node.hostIPs];
    else if (node.ipam === undefined) return undefined;
    else if (had.length > 0) {
      // Found running after a restart: keep its IPs (host-local's store survives a kubelet restart).
      node.ipam.reserve(uid, had);
      ips = had;
    } else ips = node.ipam.allocate(uid);
    const started = pod.status?.startTime ? Date.parse(pod.status.startTime as string) : now;
    const rt = { ...newPodRuntime(uid, ips, pod.spec.containers.length, Number.isNaN(started) ? now : started), node: node.name };
    for (const [i, c] of pod.spec.containers.entries()) {
      const restarts = pod.status?.containerStatuses?.find((s) => s.name === c.name)?.restartCount ?? 0;
      const cr = rt.containers[i];
      if (cr !== undefined) cr.restarts = restarts;
    }
    return rt;
  }

  // Kubelet.SyncPod: the time from first seeing the Pod to the status that moves it to Running.
  #observeStart(key: string, now: number): void {
    const seen = this.#firstSeen.get(key);
    this.#firstSeen.delete(key);
    if (seen !== undefined) this.#o.metrics?.podStartDuration.observe({}, (now - seen) / 1000);
  }

  /** One sync of the Pod `key` (namespace/name); its status goes to its Node's status manager. */
  sync(key: string): void {
    const pod = this.#o.pods.get(key);
    const node = this.#o.nodes.get(pod?.spec.nodeName);
    let rt = this.#runtimes.get(key);
    if (rt !== undefined && (pod === undefined || rt.uid !== pod.metadata.uid)) {
      this.#release(key);
      rt = undefined;
    }
    if (pod === undefined || node === undefined) {
      this.#firstSeen.delete(key);
      return;
    }
    const statuses = this.#statusManager(node.name);
    const now = this.#clock.now();
    if (rt === undefined) {
      // Never started here (or finished before a restart): nothing to stop, only the final delete.
      if (pod.metadata.deletionTimestamp !== undefined && (isTerminal(pod) || (pod.status?.podIPs ?? []).length === 0)) {
        statuses.setPodStatus(pod, undefined, true);
        return;
      }
      if (isTerminal(pod)) return;
      rt = this.#start(pod, node, now);
      if (rt === undefined) return;
      this.#runtimes.set(key, rt);
      this.#o.metrics?.startedPodsTotal.inc();
    }
    if (pod.metadata.deletionTimestamp !== undefined && rt.killedAt === undefined) rt.killedAt = now;
    const sim = simulationOf(pod);
    const next = advance(rt, sim, (pod.spec["restartPolicy"] as string | undefined) ?? "Always", now);
    const { status, wakeAt } = generatePodStatus(pod, { rt, sim, hostIPs: node.hostIPs, now });
    if (status.phase === "Running" && pod.status?.phase !== "Running") this.#observeStart(key, now);
    // The containers have stopped: the terminal status, then the kubelet's final delete.
    const stop = stopTime(pod, rt, sim);
    const finished = stop !== undefined && now >= stop.at;
    statuses.setPodStatus(pod, status, finished);
    if (finished) return;
    const wake = [next, wakeAt].filter((t): t is number => t !== undefined);
    if (wake.length > 0) this.queue.addAfter(key, Math.min(...wake) - now);
  }
}
