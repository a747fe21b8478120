/**
 * The garbage collector's run loop (upstream garbagecollector.go Run, graph_builder.go
 * startMonitors): discovery picks every deletable resource, one metadata informer per resource
 * feeds the graph, and once all have synced the attemptToDelete and attemptToOrphan workers start.
 * Both queues retry without limit, as upstream's (a dropped key would leave garbage forever).
 *
 * A resource the controller-manager's shared informers already watch is monitored through that
 * informer, as upstream's informerfactory.ForResource hands the GC the typed shared informer and
 * builds a metadata informer only for the rest
 * (staging/src/k8s.io/controller-manager/pkg/informerfactory/informer_factory.go): one watch and
 * one decoding per Pod event for the whole process instead of one more for the GC.
 */
import type { KubeConfig } from "@kubernetes/client-node";
import { SharedInformer, type Informer, type ObjectWithMeta, type PlainList } from "@servicenet/client/tools/cache";
import { RateLimitingQueue, type MetricsProvider } from "@servicenet/client/util/workqueue";
import { describeError } from "@servicenet/client/errors";
import { realClock, sleep, type Clock } from "@servicenet/component-base/clock";
import { noopLogger, type Logger } from "@servicenet/component-base/logs";
import { Controller } from "../framework/controller.ts";
import { discover, resourcePath, type APIResource, type Discovery } from "./discovery.ts";
import { GarbageCollector } from "./garbagecollector.ts";
import { AbsentOwnerCache, GraphBuilder, type InvalidOwnerRefReporter, type MetaObject } from "./graph-builder.ts";
import { newRESTClient, type RESTClient } from "@servicenet/client/rest";
import { Operations } from "./operations.ts";
import { controllerUserAgent } from "../controller/user-agent.ts";

/** Wait between failed discovery attempts. */
const discoveryRetryMs = 1000;

export interface GarbageCollectorControllerOptions {
  kubeConfig: KubeConfig;
  /** Test seam: the client for discovery, GETs and writes (default over the kubeconfig). */
  client?: Pick<RESTClient, "request">;
  reportInvalidOwnerRef?: InvalidOwnerRefReporter;
  clock?: Clock;
  logger?: Logger;
  /** Workers per queue when run() is given none (upstream ConcurrentGCSyncs, 20). */
  workers?: number;
  /** The process's workqueue metrics (workqueue_* of both queues). */
  queueMetrics?: MetricsProvider;
  /**
   * The process's shared informer of `r`, started by its owner, when there is one watching all of
   * `r` (no selector); undefined gives the GC its own informer (informerfactory.ForResource).
   */
  sharedInformerFor?: (r: APIResource) => Informer<ObjectWithMeta> | undefined;
}

/** The metadata the graph needs, with apiVersion/kind (list items lack them). */
function toMeta(r: APIResource, o: unknown): MetaObject {
  const m = (o as { metadata?: MetaObject["metadata"] }).metadata ?? {};
  const apiVersion = r.group === "" ? r.version : `${r.group}/${r.version}`;
  return {
    apiVersion,
    kind: r.kind,
    metadata: {
      name: m.name,
      namespace: m.namespace,
      uid: m.uid,
      resourceVersion: m.resourceVersion,
      deletionTimestamp: m.deletionTimestamp,
      finalizers: m.finalizers,
      ownerReferences: m.ownerReferences,
    },
  };
}

export class GarbageCollectorController {
  readonly attemptToDelete: RateLimitingQueue<string>;
  readonly workers: number;
  readonly attemptToOrphan: RateLimitingQueue<string>;
  readonly #o: GarbageCollectorControllerOptions;
  readonly #client: Pick<RESTClient, "request">;
  readonly #log: Logger;
  /** Every monitor's informer, for the workers' cache sync. */
  readonly #monitors: Informer<unknown>[] = [];
  /** The monitors' informers this controller built, started and stops itself. */
  readonly #own: SharedInformer<MetaObject>[] = [];
  graph: GraphBuilder | undefined;

  constructor(o: GarbageCollectorControllerOptions) {
    this.#o = o;
    this.#client = o.client ?? newRESTClient(o.kubeConfig, { userAgent: controllerUserAgent("generic-garbage-collector") });
    this.#log = o.logger ?? noopLogger;
    this.workers = o.workers ?? 20;
    this.attemptToDelete = new RateLimitingQueue<string>("garbage_collector_attempt_to_delete", o.clock, undefined, o.queueMetrics);
    this.attemptToOrphan = new RateLimitingQueue<string>("garbage_collector_attempt_to_orphan", o.clock, undefined, o.queueMetrics);
  }

  /** Discovers resources, starts the monitors and the workers; resolves when `signal` aborts. */
  async run(signal: AbortSignal, workers: number): Promise<void> {
    const discovery = await this.#discoverUntilDone(signal);
    if (discovery === undefined) return;
    const absent = new AbsentOwnerCache();
    const graph = new GraphBuilder({
      attemptToDelete: this.attemptToDelete,
      attemptToOrphan: this.attemptToOrphan,
      absentOwnerCache: absent,
      ...(this.#o.reportInvalidOwnerRef ? { reportInvalidOwnerRef: this.#o.reportInvalidOwnerRef } : {}),
      logger: this.#log,
    });
    this.graph = graph;
    for (const r of discovery.deletable) this.#monitors.push(this.#monitor(r, graph));
    const gc = new GarbageCollector(graph, new Operations(this.#client, discovery), absent, this.#log);
    const runner = (name: string, queue: RateLimitingQueue<string>, sync: (uid: string) => Promise<void>) =>
      new Controller({ name, queue, sync, informers: this.#monitors, maxRetries: Number.POSITIVE_INFINITY, logger: this.#log });
    const deleters = runner("garbagecollector", this.attemptToDelete, (uid) => gc.attemptToDeleteWorker(uid));
    const orphaners = runner("garbagecollector-orphan", this.attemptToOrphan, (uid) => gc.attemptToOrphanWorker(uid));
    this.#log.info("garbage collector monitoring resources", {
      resources: discovery.deletable.map((r) => `${r.group}/${r.version}/${r.resource}`),
    });
    const running = Promise.all([deleters.run(signal, workers), orphaners.run(signal, workers)]);
    await Promise.all(this.#own.map((m) => m.start()));
    await running;
    await Promise.all(this.#own.map((m) => m.stop()));
  }

  // Discovery failing (the apiserver not up yet) is retried, as upstream's GC waits for it.
  async #discoverUntilDone(signal: AbortSignal): Promise<Discovery | undefined> {
    const clock = this.#o.clock ?? realClock;
    while (!signal.aborted) {
      try {
        return await discover(this.#client);
      } catch (err) {
        this.#log.error("failed to discover deletable resources", { err: describeError(err) });
        await sleep(clock, discoveryRetryMs, signal);
      }
    }
    return undefined;
  }

  #monitor(r: APIResource, graph: GraphBuilder): Informer<unknown> {
    const shared = this.#o.sharedInformerFor?.(r);
    if (shared !== undefined) {
      // The shared cache holds whole objects: the graph gets their metadata, as from its own informer.
      shared.addEventHandler(monitorHandlers(graph, (o) => toMeta(r, o)));
      return shared;
    }
    const path = resourcePath(r, "");
    const inf = new SharedInformer<MetaObject>({
      kubeConfig: this.#o.kubeConfig,
      path,
      list: async () => this.#client.request<PlainList<MetaObject>>("GET", path),
      transform: (o) => toMeta(r, o),
      ...(this.#o.clock ? { clock: this.#o.clock } : {}),
      logger: this.#log,
    });
    inf.addEventHandler(monitorHandlers(graph, (o) => o));
    this.#own.push(inf);
    return inf;
  }
}

/** The graph changes of one monitor's events (graph_builder.go controllerFor's handlers). */
function monitorHandlers<T>(graph: GraphBuilder, meta: (o: T) => MetaObject) {
  return {
    onAdd: (o: T) => graph.processGraphChange({ type: "add", obj: meta(o) }),
    onUpdate: (oldO: T, o: T) => {
      const oldObj = meta(oldO);
      const obj = meta(o);
      // A relist or resync of an unchanged object is no change (upstream's handler compares resourceVersions).
      if (oldObj.metadata.resourceVersion !== obj.metadata.resourceVersion) graph.processGraphChange({ type: "update", obj, oldObj });
    },
    onDelete: (o: T) => graph.processGraphChange({ type: "delete", obj: meta(o) }),
  };
}
