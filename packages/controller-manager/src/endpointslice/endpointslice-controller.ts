/**
 * The EndpointSlice controller (pkg/controller/endpointslice): Service, Pod,
 * Node and slice events enqueue Service keys; syncService runs the pure
 * reconciler and writes its plan through an EndpointSliceClient.
 */
import {
  defaultMaxEndpointsPerSlice,
  endpointSliceControllerName,
  endpointSliceManagedByLabel,
  endpointSliceServiceNameLabel,
  namespaceTerminatingCause,
  selectorFromSet,
  type EndpointSlice,
  type Node,
  type Pod,
  type Service,
} from "@servicenet/api";
import type { Clock } from "@servicenet/component-base/clock";
import { GenericLister, metaNamespaceKey, splitMetaNamespaceKey, type IndexInformer, type Informer } from "@servicenet/client/tools/cache";
import { hasStatusCause } from "@servicenet/client/errors";
import { getReference, type EventRecorder } from "@servicenet/client/tools/record";
import { noopLogger, V, type Logger } from "@servicenet/component-base/logs";
import { RateLimitingQueue } from "@servicenet/client/util/workqueue";
import { Controller } from "../framework/controller.ts";
import { podChanged, servicesForPods } from "../util/endpoint/pod.ts";
import { TriggerTimeTracker } from "../util/endpoint/trigger-time-tracker.ts";
import { EndpointSliceTracker } from "./endpointslice-tracker.ts";
import { reconcile } from "./reconciler.ts";
import type { EventBuilder } from "./topologycache/event.ts";
import { TopologyCache } from "./topologycache/topology-cache.ts";
import { isNodeReady } from "./topologycache/utils.ts";
import { labelTopologyZone } from "./utils.ts";
import { EndpointSliceMetricsCache } from "./metrics/cache.ts";
import type { EndpointSliceMetrics } from "./metrics/metrics.ts";
import { observeReconcile } from "./metrics/observe.ts";

/** The event source upstream's EndpointSlice controller records with. */
export const endpointSliceControllerEventSource = { component: "endpoint-slice-controller" } as const;

/** How long a sync that met a stale cache waits at most for the watch to catch up (see #syncOrWait). */
export const staleCacheRecheckMs = 1000;

/** Awaits every promise (so each finished write is tracked), then throws the first failure. */
async function settleAll(ps: readonly Promise<unknown>[]): Promise<void> {
  const failed = (await Promise.allSettled(ps)).find((r) => r.status === "rejected");
  if (failed !== undefined) throw failed.reason;
}

/** Writes of EndpointSlices; delete must treat NotFound as success. */
export interface EndpointSliceClient {
  create(namespace: string, slice: EndpointSlice): Promise<EndpointSlice>;
  update(namespace: string, slice: EndpointSlice): Promise<EndpointSlice>;
  delete(namespace: string, name: string): Promise<void>;
}

export interface EndpointSliceControllerDeps {
  services: IndexInformer<Service>;
  pods: IndexInformer<Pod>;
  /** Slices managed by this controller (informer filtered by the managed-by label). */
  slices: IndexInformer<EndpointSlice>;
  /** Optional: with it, zones are filled and pods on unknown Nodes are held back, as upstream. */
  nodes?: Informer<Node> | undefined;
  client: EndpointSliceClient;
  maxEndpointsPerSlice?: number;
  /** `--endpointslice-updates-batch-period`: Pod changes are batched this long before a sync (0: none). */
  endpointUpdatesBatchPeriodMs?: number;
  /** Events on Services (TopologyAwareHintsEnabled/Disabled, FailedToUpdateEndpointSlices). */
  recorder?: EventRecorder | undefined;
  /** Feature gate PreferSameTrafficDistribution (alpha, off in 1.33). */
  preferSameTrafficDistribution?: boolean;
  queue?: RateLimitingQueue<string>;
  clock?: Clock;
  logger?: Logger;
  /** The controller-manager's `endpoint_slice_controller_*` metrics (none when undefined). */
  metrics?: EndpointSliceMetrics;
}

/** Error thrown by syncService when pods were left out; the key is retried with backoff. */
export class PodsSkippedError extends Error {
  override readonly name = "PodsSkippedError";
}

/** The informer has not yet seen our last writes for a Service; retried with backoff. */
export class StaleInformerCacheError extends Error {
  override readonly name = "StaleInformerCacheError";
}

export class EndpointSliceController {
  readonly queue: RateLimitingQueue<string>;
  readonly #d: EndpointSliceControllerDeps;
  readonly #log: Logger;
  readonly #services: GenericLister<Service>;
  readonly #pods: GenericLister<Pod>;
  readonly #slices: GenericLister<EndpointSlice>;
  readonly #triggers = new TriggerTimeTracker();
  readonly #tracker = new EndpointSliceTracker();
  readonly #runner: Controller;
  /** Services whose last sync met a stale cache and waits for our writes' events. */
  readonly #waitingForCache = new Set<string>();
  /** Topology-aware hints (the topology-mode annotation) need Nodes' zones and CPU: only with a Node informer. */
  readonly topologyCache: TopologyCache | undefined;
  readonly #metricsCache: EndpointSliceMetricsCache | undefined;

  constructor(deps: EndpointSliceControllerDeps) {
    this.#d = deps;
    this.#log = deps.logger ?? noopLogger;
    this.#services = new GenericLister(deps.services);
    this.#pods = new GenericLister(deps.pods);
    this.#slices = new GenericLister(deps.slices);
    this.queue = deps.queue ?? new RateLimitingQueue<string>("endpoint_slice", deps.clock);
    this.topologyCache = deps.nodes !== undefined ? new TopologyCache(this.#log) : undefined;
    this.#metricsCache =
      deps.metrics && new EndpointSliceMetricsCache(deps.metrics, deps.maxEndpointsPerSlice ?? defaultMaxEndpointsPerSlice);
    const enqueue = (o: Service) => this.queue.add(metaNamespaceKey(o));
    deps.services.addEventHandler({ onAdd: enqueue, onUpdate: (_o, n) => enqueue(n), onDelete: enqueue });
    // Pod changes wait out the batch period so that a burst of them costs one sync (upstream addPod/updatePod).
    const batch = deps.endpointUpdatesBatchPeriodMs ?? 0;
    const fanOut = (pods: Pod[]) =>
      servicesForPods(this.#services, pods).forEach((k) => (batch > 0 ? this.queue.addAfter(k, batch) : this.queue.add(k)));
    deps.pods.addEventHandler({
      onAdd: (p) => fanOut([p]),
      onUpdate: (o, n) => podChanged(o, n) && fanOut([o, n]),
      onDelete: (p) => fanOut([p]),
    });
    // Someone else edited or deleted one of our slices: put it back.
    // Our own writes coming back need no sync (upstream's tracker.ShouldSync), unless a sync is
    // waiting for exactly that: it met a stale cache (#syncOrWait).
    const sliceEvent = (s: EndpointSlice) => {
      const svc = s.metadata.labels?.[endpointSliceServiceNameLabel];
      if (svc === undefined || s.metadata.labels?.[endpointSliceManagedByLabel] !== endpointSliceControllerName) return;
      const key = `${s.metadata.namespace}/${svc}`;
      if (this.#tracker.isOwnWrite(key, s) && !this.#waitingForCache.has(key)) return;
      this.queue.add(key);
    };
    const sliceDeleted = (s: EndpointSlice) => {
      // Deleted by someone else before our cache saw our write: that write can no longer show up.
      const svc = s.metadata.labels?.[endpointSliceServiceNameLabel];
      if (svc !== undefined && s.metadata.name) this.#tracker.observedDeletion(`${s.metadata.namespace}/${svc}`, s.metadata.name);
      sliceEvent(s);
    };
    deps.slices.addEventHandler({ onAdd: sliceEvent, onUpdate: (_o, n) => sliceEvent(n), onDelete: sliceDeleted });
    // Node events only change the topology cache (upstream addNode, updateNode, deleteNode): a Pod
    // skipped because its Node was not in the cache yet fails its Service's sync, which the queue
    // retries with backoff (PodsSkippedError), so no Node event has to look for the Node's Pods.
    deps.nodes?.addEventHandler({
      onAdd: () => this.#checkNodeTopologyDistribution(),
      onUpdate: (o, n) => {
        // The zone label may come after the Node (cloud providers add it), readiness changes capacity.
        if (isNodeReady(o) !== isNodeReady(n) || o.metadata.labels?.[labelTopologyZone] !== n.metadata.labels?.[labelTopologyZone])
          this.#checkNodeTopologyDistribution();
      },
      onDelete: () => this.#checkNodeTopologyDistribution(),
    });
    const informers = [deps.services, deps.pods, deps.slices, ...(deps.nodes ? [deps.nodes] : [])];
    this.#runner = new Controller({
      name: "endpointslice",
      queue: this.queue,
      sync: (k) => this.#syncOrWait(k),
      informers,
      logger: this.#log,
    });
  }

  run(signal: AbortSignal, workers: number): Promise<void> {
    return this.#runner.run(signal, workers);
  }

  /** `checkNodeTopologyDistribution`: new zone capacities; Services now overloaded are resynced. */
  #checkNodeTopologyDistribution(): void {
    if (this.topologyCache === undefined || this.#d.nodes === undefined) return;
    this.topologyCache.setNodes(this.#d.nodes.list());
    for (const key of this.topologyCache.getOverloadedServices()) this.queue.add(key);
  }

  #record(service: Service, e: EventBuilder): void {
    this.#d.recorder?.event(getReference(service, "Service", "v1"), e.eventType, e.reason, e.message);
  }

  /** The slices of Service `namespace/name` that this controller manages (upstream syncService's lister call). */
  #slicesOf(namespace: string, name: string): EndpointSlice[] {
    const selector = selectorFromSet({
      [endpointSliceServiceNameLabel]: name,
      [endpointSliceManagedByLabel]: endpointSliceControllerName,
    });
    return this.#slices.byNamespace(namespace).list(selector);
  }

  async #delete(key: string, namespace: string, name: string): Promise<void> {
    await this.#d.client.delete(namespace, name);
    this.#tracker.deleted(key, name);
    this.#d.metrics?.changes.inc({ operation: "delete" });
  }

  /**
   * syncService for the workers. A stale cache is not an error here: the watch event of our own
   * last write is on its way and re-enqueues the Service (sliceEvent), so a rate-limited retry
   * (5 ms doubling per failure, 10 qps overall) would only add latency under churn. The delayed
   * re-add is a safety net in case that event never comes (e.g. a relist without it).
   */
  async #syncOrWait(key: string): Promise<void> {
    try {
      await this.syncService(key);
      this.#waitingForCache.delete(key);
      this.#d.metrics?.syncs.inc({ result: "success" });
    } catch (err) {
      this.#d.metrics?.syncs.inc({ result: err instanceof StaleInformerCacheError ? "stale" : "error" });
      if (!(err instanceof StaleInformerCacheError)) throw err;
      this.#waitingForCache.add(key);
      this.queue.addAfter(key, staleCacheRecheckMs);
    }
  }

  /** Reconciles the slices of Service `key`; throws StaleInformerCacheError if the cache lacks our last writes. */
  async syncService(key: string): Promise<void> {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const service = this.#d.services.get(key);
    // Slices marked for deletion (by the garbage collector, say) are dropped, so the controller
    // cannot get stuck on them (upstream dropEndpointSlicesPendingDeletion).
    const existing = this.#slicesOf(namespace, name).filter((s) => s.metadata.deletionTimestamp === undefined);
    if (this.#tracker.stale(key, existing)) throw new StaleInformerCacheError(`EndpointSlice informer cache is out of date for ${key}`);
    if (service === undefined) {
      // The slices carry an ownerReference to the Service: the garbage collector deletes them (upstream syncService).
      this.#triggers.deleteService(key);
      this.#tracker.deleteService(key);
      this.#metricsCache?.deleteService(key);
      this.topologyCache?.removeHints(key, "IPv4");
      this.topologyCache?.removeHints(key, "IPv6");
      return;
    }
    if (service.spec.type === "ExternalName" || service.spec.selector === undefined) return;
    // Only the selected pods, for the trigger times as upstream (and to keep syncs cheap).
    const pods = this.#pods.byNamespace(namespace).list(selectorFromSet(service.spec.selector));
    const triggerTime = this.#triggers.compute(key, service, pods);
    // nodeLister.Get per Pod, not a map of every Node per sync.
    const nodeInformer = this.#d.nodes;
    const nodes = nodeInformer && { get: (name: string) => nodeInformer.get(name) };
    const plan = reconcile({
      service,
      pods,
      existingSlices: existing,
      nodes,
      maxEndpointsPerSlice: this.#d.maxEndpointsPerSlice,
      triggerTime,
      hints: { topologyCache: this.topologyCache, preferSameTrafficDistribution: this.#d.preferSameTrafficDistribution },
    });
    if (this.#d.metrics && this.#metricsCache)
      observeReconcile(this.#d.metrics, this.#metricsCache, key, {
        service,
        existing,
        plan,
        topologyCacheEnabled: this.topologyCache !== undefined,
      });
    let failure: Error | undefined;
    try {
      await this.#write(key, namespace, plan);
    } catch (err) {
      failure = err instanceof Error ? err : new Error(String(err));
    }
    // Upstream's Reconcile records the hint events whether or not the writes succeeded.
    for (const e of plan.events) this.#record(service, e);
    if (failure === undefined) return;
    this.#record(service, {
      eventType: "Warning",
      reason: "FailedToUpdateEndpointSlices",
      message: `Error updating Endpoint Slices for Service ${namespace}/${name}: ${failure.message}`,
    });
    throw failure;
  }

  /** A slice write that succeeded: tracked (for stale caches) and counted (`changes`). */
  #written(key: string, operation: "create" | "update", slice: EndpointSlice): void {
    this.#tracker.written(key, slice);
    this.#d.metrics?.changes.inc({ operation });
  }

  /** The plan's writes: creates, then updates, then deletes. */
  async #write(key: string, namespace: string, plan: ReturnType<typeof reconcile>): Promise<void> {
    // Creates, then updates, then deletes, as upstream (endpoints never vanish before their
    // replacement exists); within each step the writes are independent objects (typically one per
    // family), so they go out together instead of one round trip after the other.
    try {
      await settleAll(plan.toCreate.map(async (s) => this.#written(key, "create", await this.#d.client.create(namespace, s))));
    } catch (err) {
      // If the namespace is terminating, creates will continue to fail: drop the item (upstream reconciler finalize).
      if (hasStatusCause(err, namespaceTerminatingCause)) return;
      throw err;
    }
    await settleAll(plan.toUpdate.map(async (s) => this.#written(key, "update", await this.#d.client.update(namespace, s))));
    await settleAll(plan.toDelete.map((s) => this.#delete(key, namespace, s.metadata.name ?? "")));
    if (plan.toCreate.length + plan.toUpdate.length + plan.toDelete.length > 0) {
      // Debug output: upstream's reconciler logs nothing per write at the default level.
      V(this.#log, 4).info("EndpointSlices written", {
        key,
        created: plan.toCreate.length,
        updated: plan.toUpdate.length,
        deleted: plan.toDelete.length,
      });
    }
    if (plan.errors.length > 0) throw new PodsSkippedError(plan.errors.join("; "));
  }
}
