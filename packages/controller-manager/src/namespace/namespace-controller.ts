/**
 * The namespace controller (pkg/controller/namespace/namespace_controller.go): a namespace with a
 * deletionTimestamp is queued (after a grace period, so HA apiservers and etcd members see the
 * deletion and any last-minute creates) and handed to the NamespacedResourcesDeleter; content
 * that remains is retried after half its estimate, other failures with backoff (at least once a
 * minute), never dropped.
 */
import type { Namespace } from "@servicenet/api";
import { realClock, type Clock } from "@servicenet/component-base/clock";
import type { Informer } from "@servicenet/client/tools/cache";
import { noopLogger, V, type Logger } from "@servicenet/component-base/logs";
import {
  BucketRateLimiter,
  ItemExponentialFailureRateLimiter,
  MaxOfRateLimiter,
  RateLimitingQueue,
  type MetricsProvider,
} from "@servicenet/client/util/workqueue";
import { Controller } from "../framework/controller.ts";
import { ResourcesRemainingError, type NamespacedResourcesDeleter } from "./deletion/namespaced-resources-deleter.ts";

/** How long a deleted namespace waits before it is processed (upstream namespaceDeletionGracePeriod). */
export const namespaceDeletionGracePeriodMs = 5_000;

/** What the controller needs of the deleter (NamespacedResourcesDeleterInterface). */
export type NamespaceDeleter = Pick<NamespacedResourcesDeleter, "delete" | "initOpCache">;

export interface NamespaceControllerDeps {
  namespaces: Informer<Namespace>;
  deleter: NamespaceDeleter;
  clock?: Clock;
  /** The process's workqueue metrics (workqueue_* with name "namespace"). */
  queueMetrics?: MetricsProvider;
  logger?: Logger;
  /** Default namespaceDeletionGracePeriodMs; tests shorten it. */
  deletionGracePeriodMs?: number;
}

/** upstream nsControllerRateLimiter: 5 ms doubling to 60 s per namespace, 10 qps / 100 burst overall. */
function nsControllerRateLimiter(clock: Clock) {
  return new MaxOfRateLimiter<string>(
    new ItemExponentialFailureRateLimiter<string>(5, 60_000),
    new BucketRateLimiter<string>(clock, 10, 100),
  );
}

export class NamespaceController {
  readonly queue: RateLimitingQueue<string>;
  readonly #d: NamespaceControllerDeps;
  readonly #log: Logger;
  readonly #runner: Controller;

  constructor(deps: NamespaceControllerDeps) {
    this.#d = deps;
    this.#log = deps.logger ?? noopLogger;
    const clock = deps.clock ?? realClock;
    this.queue = new RateLimitingQueue<string>("namespace", clock, nsControllerRateLimiter(clock), deps.queueMetrics);
    deps.namespaces.addEventHandler({ onAdd: (ns) => this.enqueueNamespace(ns), onUpdate: (_o, ns) => this.enqueueNamespace(ns) });
    this.#runner = new Controller({
      name: "namespace",
      queue: this.queue,
      sync: (key) => this.sync(key),
      informers: [deps.namespaces],
      // upstream re-adds a failing namespace forever (rate limited); it never drops one.
      maxRetries: Number.POSITIVE_INFINITY,
      logger: this.#log,
    });
  }

  /** upstream enqueueNamespace: only namespaces being deleted, after the grace period. */
  enqueueNamespace(ns: Namespace): void {
    if (!ns.metadata.deletionTimestamp) return;
    this.queue.addAfter(ns.metadata.name ?? "", this.#d.deletionGracePeriodMs ?? namespaceDeletionGracePeriodMs);
  }

  /** Fills the deleter's operation cache from discovery (retried while the apiserver cannot answer), then runs the workers. */
  async run(signal: AbortSignal, workers: number): Promise<void> {
    for (;;) {
      if (signal.aborted) return;
      try {
        await this.#d.deleter.initOpCache();
        break;
      } catch (e) {
        this.#log.error("Unable to get any supported resources from server", { err: e instanceof Error ? e.message : String(e) });
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
    await this.#runner.run(signal, workers);
  }

  /** One key: syncNamespaceFromKey, with upstream's worker handling of remaining content. */
  async sync(key: string): Promise<void> {
    try {
      await this.syncNamespaceFromKey(key);
    } catch (e) {
      if (!(e instanceof ResourcesRemainingError)) throw e;
      const t = Math.floor(e.estimate / 2) + 1;
      V(this.#log, 4).info("Content remaining in namespace", { namespace: key, waitSeconds: t });
      this.queue.addAfter(key, t * 1000);
    }
  }

  /** upstream syncNamespaceFromKey. */
  async syncNamespaceFromKey(key: string): Promise<void> {
    const started = Date.now();
    try {
      if (this.#d.namespaces.get(key) === undefined) {
        this.#log.info("Namespace has been deleted", { namespace: key });
        return;
      }
      await this.#d.deleter.delete(key);
    } finally {
      V(this.#log, 4).info("Finished syncing namespace", { namespace: key, duration: `${Date.now() - started}ms` });
    }
  }
}
