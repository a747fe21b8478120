/**
 * The EndpointSlice mirroring controller (upstream pkg/controller/endpointslicemirroring,
 * endpointslicemirroring_controller.go): Endpoints of Services without a selector are mirrored into
 * EndpointSlices managed by `endpointslicemirroring-controller.k8s.io`, so that EndpointSlice
 * consumers (kube-proxy) see hand-written Endpoints too.
 */
import {
  endpointSliceManagedByLabel,
  endpointSliceMirroringControllerName,
  endpointSliceServiceNameLabel,
  selectorFromSet,
  type EndpointSlice,
  type Endpoints,
  type Service,
} from "@servicenet/api";
import { realClock, type Clock } from "@servicenet/component-base/clock";
import {
  listAllByNamespace,
  metaNamespaceKey,
  splitMetaNamespaceKey,
  type IndexInformer,
  type Informer,
} from "@servicenet/client/tools/cache";
import { noopLogger, type Logger } from "@servicenet/component-base/logs";
import { toStatusError } from "@servicenet/client/errors";
import { getReference, type EventRecorder } from "@servicenet/client/tools/record";
import { RateLimitingQueue } from "@servicenet/client/util/workqueue";
import { Controller } from "../framework/controller.ts";
import { StaleInformerCacheError, type EndpointSliceClient } from "../endpointslice/endpointslice-controller.ts";
import { EndpointSliceTracker } from "../endpointslice/endpointslice-tracker.ts";
import { EndpointSliceMirroringMetricsCache } from "./metrics/cache.ts";
import type { EndpointSliceMirroringMetrics } from "./metrics/metrics.ts";
import { reconcile, type MirrorPlan } from "./reconciler.ts";
import {
  defaultMirroringMaxEndpointsPerSubset,
  endpointsControllerKey,
  hasLeaderElection,
  managedByController,
  skipMirror,
} from "./utils.ts";

/** The Events' source, as upstream's NewController builds its recorder. */
export const endpointSliceMirroringControllerEventSource = { component: "endpoint-slice-mirroring-controller" } as const;

export interface EndpointSliceMirroringControllerDeps {
  endpoints: Informer<Endpoints>;
  services: Informer<Service>;
  /** Slices managed by this controller (informer filtered by the managed-by label). */
  slices: IndexInformer<EndpointSlice>;
  client: EndpointSliceClient;
  /** `--mirroring-max-endpoints-per-subset`; default 1000. */
  maxEndpointsPerSubset?: number;
  /** `--mirroring-endpointslice-updates-batch-period`: Endpoints changes wait this long before a sync (0: none). */
  endpointUpdatesBatchPeriodMs?: number;
  /** The controller-manager's `endpoint_slice_mirroring_controller_*` metrics (none when undefined). */
  metrics?: EndpointSliceMirroringMetrics;
  queue?: RateLimitingQueue<string>;
  clock?: Clock;
  logger?: Logger;
  /** Where the InvalidIPAddress and TooManyAddressesToMirror Warning events go (none when undefined). */
  recorder?: EventRecorder | undefined;
}

/** upstream errors.HasStatusCause (a StatusCause's Type is "reason" in JSON). */
function hasStatusCause(err: unknown, type: string): boolean {
  return (toStatusError(err)?.status.details?.causes ?? []).some((c) => c.reason === type);
}

/** A Service without a selector (Go's nil map: absent; the API never returns an empty one). */
function selectorless(svc: Service): boolean {
  return svc.spec.selector === undefined || svc.spec.selector === null;
}

/** upstream shouldMirror: not skip-mirror labelled and not a leader-election lock. */
export function shouldMirror(endpoints: Endpoints | undefined): boolean {
  return endpoints !== undefined && !skipMirror(endpoints.metadata?.labels) && !hasLeaderElection(endpoints.metadata?.annotations);
}

export class EndpointSliceMirroringController {
  readonly queue: RateLimitingQueue<string>;
  readonly #d: EndpointSliceMirroringControllerDeps;
  readonly #log: Logger;
  readonly #tracker = new EndpointSliceTracker();
  readonly #runner: Controller;
  readonly #metricsCache: EndpointSliceMirroringMetricsCache | undefined;

  constructor(deps: EndpointSliceMirroringControllerDeps) {
    this.#d = deps;
    this.#metricsCache =
      deps.metrics &&
      new EndpointSliceMirroringMetricsCache(deps.metrics, deps.maxEndpointsPerSubset ?? defaultMirroringMaxEndpointsPerSubset);
    this.#log = deps.logger ?? noopLogger;
    this.queue = deps.queue ?? new RateLimitingQueue<string>("endpoint_slice_mirroring", deps.clock);
    const add = (o: { metadata?: { namespace?: string; name?: string } }) => this.queue.add(metaNamespaceKey(o));
    deps.services.addEventHandler({
      onAdd: (s) => selectorless(s) && add(s),
      // Only a selector appearing or going away changes whether the Endpoints are mirrored.
      onUpdate: (o, n) => selectorless(o) !== selectorless(n) && add(n),
      onDelete: (s) => selectorless(s) && add(s),
    });
    // Endpoints changes are batched (upstream queueEndpoints: AddAfter the batch period).
    const batch = deps.endpointUpdatesBatchPeriodMs ?? 0;
    const addEndpoints = (e: Endpoints) => (batch > 0 ? this.queue.addAfter(metaNamespaceKey(e), batch) : add(e));
    deps.endpoints.addEventHandler({
      onAdd: (e) => shouldMirror(e) && addEndpoints(e),
      onUpdate: (o, n) => (shouldMirror(o) || shouldMirror(n)) && addEndpoints(n),
      onDelete: (e) => shouldMirror(e) && addEndpoints(e),
    });
    // Someone else changed or deleted one of our slices: reconcile; our own writes coming back need nothing.
    const sliceEvent = (s: EndpointSlice): void => {
      const key = endpointsControllerKey(s);
      if (key === undefined || !managedByController(s) || this.#tracker.isOwnWrite(key, s)) return;
      this.queue.add(key);
    };
    deps.slices.addEventHandler({
      onAdd: sliceEvent,
      onUpdate: (_o, n) => sliceEvent(n),
      onDelete: (s) => {
        const key = endpointsControllerKey(s);
        if (key !== undefined && s.metadata.name) this.#tracker.observedDeletion(key, s.metadata.name);
        sliceEvent(s);
      },
    });
    this.#runner = new Controller({
      name: "endpointslicemirroring",
      queue: this.queue,
      sync: (k) => this.syncEndpoints(k),
      informers: [deps.endpoints, deps.services, deps.slices],
      logger: this.#log,
    });
  }

  run(signal: AbortSignal, workers: number): Promise<void> {
    return this.#runner.run(signal, workers);
  }

  /** upstream endpointSlicesMirroredForService. */
  #mirroredSlices(namespace: string, name: string): EndpointSlice[] {
    const selector = selectorFromSet({
      [endpointSliceServiceNameLabel]: name,
      [endpointSliceManagedByLabel]: endpointSliceMirroringControllerName,
    });
    return listAllByNamespace(this.#d.slices, namespace, selector);
  }

  /** upstream deleteMirroredSlices (and the reconciler's deleteEndpoints: no changes counted). */
  async #deleteMirroredSlices(key: string, namespace: string, name: string): Promise<void> {
    this.#tracker.deleteService(key);
    this.#metricsCache?.deleteEndpoints(key);
    const slices = this.#mirroredSlices(namespace, name);
    const failed: unknown[] = [];
    for (const s of slices) {
      try {
        await this.#d.client.delete(namespace, s.metadata.name ?? "");
      } catch (e) {
        failed.push(e);
      }
    }
    if (failed.length > 0)
      throw new Error(
        `error(s) deleting ${failed.length}/${slices.length} EndpointSlices for ${key} Endpoints, including: ${String(failed[0])}`,
      );
  }

  /** upstream syncEndpoints; its duration is observed whatever the outcome, in whole milliseconds as upstream. */
  async syncEndpoints(key: string): Promise<void> {
    const clock = this.#d.clock ?? realClock;
    const start = clock.now();
    try {
      await this.#syncEndpoints(key);
    } finally {
      this.#d.metrics?.endpointsSyncDuration.observe({}, Math.floor(clock.now() - start) / 1000);
    }
  }

  /** upstream reconciler.reconcile's two Warning events on the Endpoints (with their log lines). */
  #recordSkipped(endpoints: Endpoints, key: string, plan: MirrorPlan, max: number): void {
    const ref = getReference(endpoints, "Endpoints", "v1");
    if (plan.invalidAddresses > 0) {
      this.#log.info("Skipped invalid IP addresses when mirroring to EndpointSlices", { endpoints: key, count: plan.invalidAddresses });
      this.#d.recorder?.event(
        ref,
        "Warning",
        "InvalidIPAddress",
        `Skipped ${plan.invalidAddresses} invalid IP addresses when mirroring to EndpointSlices`,
      );
    }
    if (plan.addressesSkipped > plan.invalidAddresses) {
      this.#log.info("Addresses in Endpoints were skipped due to exceeding MaxEndpointsPerSubset", {
        skippedAddresses: plan.addressesSkipped,
        endpoints: key,
      });
      this.#d.recorder?.event(
        ref,
        "Warning",
        "TooManyAddressesToMirror",
        `A max of ${max} addresses can be mirrored to EndpointSlices per Endpoints subset. ${plan.addressesSkipped} addresses were skipped`,
      );
    }
  }

  /** What upstream reconciler.reconcile observes before finalize writes anything. */
  #observe(key: string, plan: MirrorPlan): void {
    const m = this.#d.metrics;
    if (m === undefined || this.#metricsCache === undefined) return;
    m.addressesSkippedPerSync.observe({}, plan.addressesSkipped);
    m.endpointsAddedPerSync.observe({}, plan.totals.added);
    m.endpointsUpdatedPerSync.observe({}, plan.totals.updated);
    m.endpointsRemovedPerSync.observe({}, plan.totals.removed);
    this.#metricsCache.updateEndpointPortCache(key, plan.portCache);
  }

  async #syncEndpoints(key: string): Promise<void> {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const endpoints = this.#d.endpoints.get(key);
    const svc = this.#d.services.get(key);
    // Gone, opted out, no Service, or a Service with a selector (the EndpointSlice controller's): no mirrors.
    if (!shouldMirror(endpoints) || svc === undefined || !selectorless(svc)) return this.#deleteMirroredSlices(key, namespace, name);
    const existing = this.#mirroredSlices(namespace, name);
    if (this.#tracker.stale(key, existing)) throw new StaleInformerCacheError("EndpointSlice informer cache is out of date");
    const max = this.#d.maxEndpointsPerSubset ?? defaultMirroringMaxEndpointsPerSubset;
    const plan = reconcile(endpoints!, existing, max);
    this.#observe(key, plan);
    this.#recordSkipped(endpoints!, key, plan, max);
    // upstream finalize: creates, updates, deletes.
    for (const s of plan.toCreate) {
      try {
        this.#tracker.written(key, await this.#d.client.create(namespace, s));
        this.#d.metrics?.changes.inc({ operation: "create" });
      } catch (e) {
        // A terminating namespace refuses creates for good: drop the item.
        if (hasStatusCause(e, "NamespaceTerminating")) return;
        throw e;
      }
    }
    for (const s of plan.toUpdate) {
      this.#tracker.written(key, await this.#d.client.update(namespace, s));
      this.#d.metrics?.changes.inc({ operation: "update" });
    }
    for (const s of plan.toDelete) {
      await this.#d.client.delete(namespace, s.metadata.name ?? "");
      this.#tracker.deleted(key, s.metadata.name ?? "");
      this.#d.metrics?.changes.inc({ operation: "delete" });
    }
  }
}
