/**
 * The Endpoints controller (pkg/controller/endpoint): Service and Pod events
 * enqueue Service keys; syncService computes the desired Endpoints with
 * computeEndpoints and writes it through an EndpointsClient.
 */
import { namespaceTerminatingCause, selectorFromSet, type Endpoints, type Pod, type Service } from "@servicenet/api";
import { hasStatusCause } from "@servicenet/client/errors";
import { Controller } from "../framework/controller.ts";
import {
  GenericLister,
  metaNamespaceKey,
  splitMetaNamespaceKey,
  waitForCacheSync,
  type IndexInformer,
} from "@servicenet/client/tools/cache";
import type { Clock } from "@servicenet/component-base/clock";
import { noopLogger, V, type Logger } from "@servicenet/component-base/logs";
import { RateLimitingQueue } from "@servicenet/client/util/workqueue";
import { resourceVersionAtLeast } from "../framework/resource-version.ts";
import { podChanged, servicesForPods } from "../util/endpoint/pod.ts";
import { TriggerTimeTracker } from "../util/endpoint/trigger-time-tracker.ts";
import { computeEndpoints } from "./endpoints.ts";

/** Writes of Endpoints objects; delete must treat NotFound as success. */
export interface EndpointsClient {
  create(namespace: string, endpoints: Endpoints): Promise<Endpoints>;
  update(namespace: string, endpoints: Endpoints): Promise<Endpoints>;
  delete(namespace: string, name: string): Promise<void>;
}

export interface EndpointsControllerDeps {
  services: IndexInformer<Service>;
  pods: IndexInformer<Pod>;
  endpoints: IndexInformer<Endpoints>;
  client: EndpointsClient;
  queue?: RateLimitingQueue<string>;
  clock?: Clock;
  logger?: Logger;
}

/** Annotation of leader-election Endpoints, which are never ours to delete. */
const leaderAnnotation = "control-plane.alpha.kubernetes.io/leader";

export class EndpointsController {
  readonly queue: RateLimitingQueue<string>;
  readonly #d: EndpointsControllerDeps;
  readonly #log: Logger;
  readonly #services: GenericLister<Service>;
  readonly #pods: GenericLister<Pod>;
  readonly #triggers = new TriggerTimeTracker();
  readonly #runner: Controller;
  /** Our last write per key until the informer has caught up with it (read-your-writes). */
  readonly #written = new Map<string, Endpoints>();

  constructor(deps: EndpointsControllerDeps) {
    this.#d = deps;
    this.#log = deps.logger ?? noopLogger;
    this.#services = new GenericLister(deps.services);
    this.#pods = new GenericLister(deps.pods);
    this.queue = deps.queue ?? new RateLimitingQueue<string>("endpoint", deps.clock);
    const enqueue = (o: Service) => this.queue.add(metaNamespaceKey(o));
    deps.services.addEventHandler({ onAdd: enqueue, onUpdate: (_o, n) => enqueue(n), onDelete: enqueue });
    deps.pods.addEventHandler({
      onAdd: (p) => this.#enqueueServicesOf([p]),
      onUpdate: (o, n) => this.#enqueueServicesOf(podChanged(o, n) ? [o, n] : []),
      onDelete: (p) => this.#enqueueServicesOf([p]),
    });
    // A deleted Endpoints of a live Service is recreated on the next sync.
    deps.endpoints.addEventHandler({
      onDelete: (e) => {
        this.#written.delete(metaNamespaceKey(e));
        this.queue.add(metaNamespaceKey(e));
      },
    });
    this.#runner = new Controller({
      name: "endpoint",
      queue: this.queue,
      sync: (k) => this.syncService(k),
      informers: [deps.services, deps.pods, deps.endpoints],
      logger: this.#log,
    });
  }

  /** Waits for the caches, enqueues leftover Endpoints, runs `workers` workers until `signal` aborts. */
  async run(signal: AbortSignal, workers: number): Promise<void> {
    const started = this.#runner.run(signal, workers);
    void this.#afterSync(signal);
    await started;
  }

  async #afterSync(signal: AbortSignal): Promise<void> {
    if (await waitForCacheSync(signal, [this.#d.services, this.#d.endpoints])) this.checkLeftoverEndpoints();
  }

  /** Enqueues Endpoints whose Service is gone (upstream checkLeftoverEndpoints). */
  checkLeftoverEndpoints(): void {
    for (const ep of this.#d.endpoints.list()) {
      if (ep.metadata.annotations?.[leaderAnnotation] !== undefined) continue;
      const key = metaNamespaceKey(ep);
      if (this.#d.services.get(key) === undefined) this.queue.add(key);
    }
  }

  #enqueueServicesOf(pods: readonly Pod[]): void {
    for (const key of servicesForPods(this.#services, pods)) this.queue.add(key);
  }

  /** Reconciles the Endpoints of Service `key` (`namespace/name`). */
  async syncService(key: string): Promise<void> {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const service = this.#d.services.get(key);
    // Only the selected pods: the trigger time of a pod of another Service is not ours (and
    // parsing every pod's timestamps per sync was the costliest step under churn).
    const selector = service?.spec.selector;
    const pods = selector === undefined ? [] : this.#pods.byNamespace(namespace).list(selectorFromSet(selector));
    const existing = this.#freshest(key);
    if (service === undefined) {
      this.#triggers.deleteService(key);
      this.#written.delete(key);
      // Always delete, as upstream: our cache may not have seen an Endpoints we created just before.
      await this.#d.client.delete(namespace, name);
      return;
    }
    const lastChangeTriggerTime = this.#triggers.compute(key, service, pods);
    const plan = computeEndpoints({ service, pods, existing, lastChangeTriggerTime });
    if (plan.action === "create") {
      try {
        this.#written.set(key, await this.#d.client.create(namespace, plan.endpoints));
      } catch (err) {
        // If the namespace is terminating, creates will continue to fail: drop the item (upstream syncService).
        if (hasStatusCause(err, namespaceTerminatingCause)) return;
        throw err;
      }
    } else if (plan.action === "update") this.#written.set(key, await this.#d.client.update(namespace, plan.endpoints));
    // Per-object writes are debug output, as upstream's logger.V(4).Info("Update endpoints").
    if (plan.action === "create" || plan.action === "update") V(this.#log, 4).info("Endpoints written", { key, action: plan.action });
  }

  /**
   * The cached Endpoints of `key`, or our own last write if the informer has not delivered it yet.
   * Upstream reconciles from the lister and gets 409 Conflict (or AlreadyExists after a create)
   * whenever a second sync outruns the watch, then retries with backoff; under churn that is a
   * wasted write and a delay per change.
   */
  #freshest(key: string): Endpoints | undefined {
    const cached = this.#d.endpoints.get(key);
    const ours = this.#written.get(key);
    if (ours === undefined) return cached;
    const rv = ours.metadata.resourceVersion ?? "";
    const ordered = /^\d+$/.test(rv) && (cached === undefined || /^\d+$/.test(cached.metadata.resourceVersion ?? ""));
    if (!ordered || resourceVersionAtLeast(cached?.metadata.resourceVersion, rv)) {
      this.#written.delete(key); // caught up (or not comparable): the cache is the truth again
      return cached;
    }
    return ours;
  }
}
