/**
 * The controller loop of R10: informer handlers enqueue keys, N workers
 * take keys and call sync(key), handleErr retries with backoff up to
 * maxRetries (15, as endpoints_controller.go and servicecidrs_controller.go).
 */
import { describeError, isConflict } from "@servicenet/client/errors";
import { waitForCacheSync, type Informer } from "@servicenet/client/tools/cache";
import type { RateLimitingQueue } from "@servicenet/client/util/workqueue";
import { noopLogger, V, type Logger } from "@servicenet/component-base/logs";

/** Retries before a key is dropped (upstream maxRetries). */
export const defaultMaxRetries = 15;

export interface ControllerSpec {
  name: string;
  queue: RateLimitingQueue<string>;
  /** Reconciles one key; a thrown error requeues it with backoff. */
  sync(key: string): Promise<void>;
  /** Informers that must have synced before workers start. */
  informers: readonly Informer<unknown>[];
  maxRetries?: number;
  logger?: Logger;
  /** Poll interval of waitForCacheSync. */
  syncPollMs?: number;
}

/** Runs a controller: waits for caches, starts `workers` loops, shuts the queue down on abort. */
export class Controller {
  readonly #spec: ControllerSpec;
  readonly #log: Logger;
  readonly #maxRetries: number;

  constructor(spec: ControllerSpec) {
    this.#spec = spec;
    this.#log = spec.logger ?? noopLogger;
    this.#maxRetries = spec.maxRetries ?? defaultMaxRetries;
  }

  /** Resolves when `signal` aborts and every worker has finished its current key. */
  async run(signal: AbortSignal, workers: number): Promise<void> {
    const { name, queue } = this.#spec;
    // Every controller of the process runs under one stop signal (upstream: one ctx for all of
    // NewControllerInitializers' controllers). Listening on it directly would put a listener or
    // two per controller on that one signal (Node warns past 10); a child signal per controller
    // follows it with no listener on the parent, as a child context follows its parent in Go.
    const own = AbortSignal.any([signal]);
    own.addEventListener("abort", () => queue.shutDown(), { once: true });
    this.#log.info("Starting controller", { controller: name, workers });
    if (!(await waitForCacheSync(own, this.#spec.informers, this.#spec.syncPollMs))) return;
    this.#log.info("Caches are synced", { controller: name });
    await Promise.all(Array.from({ length: workers }, () => this.#worker()));
    this.#log.info("Shutting down controller", { controller: name });
  }

  async #worker(): Promise<void> {
    while (await this.processNextWorkItem()) {
      /* keep going until shutdown */
    }
  }

  /** Takes one key and syncs it; false once the queue is shut down. */
  async processNextWorkItem(): Promise<boolean> {
    const { queue } = this.#spec;
    const key = await queue.get();
    if (key === undefined) return false;
    try {
      await this.#spec.sync(key);
      this.handleErr(undefined, key);
    } catch (err) {
      this.handleErr(err, key);
    } finally {
      queue.done(key);
    }
    return true;
  }

  /** Forgets a key on success; requeues it rate-limited on error until maxRetries, then drops it. */
  handleErr(err: unknown, key: string): void {
    const { queue, name } = this.#spec;
    if (err === undefined) {
      queue.forget(key);
      return;
    }
    if (queue.numRequeues(key) < this.#maxRetries) {
      // A retry is not news at the default level: upstream's controllers log it at V(2)
      // (servicecidrs_controller.go processNext), and a 409 Conflict from a cache one write behind
      // is routine, so it is debug output (V(4)). Only a dropped key is an error.
      V(this.#log, isConflict(err) ? 4 : 2).info("Error syncing, retrying", { controller: name, key, err: describeError(err) });
      queue.addRateLimited(key);
      return;
    }
    this.#log.error("Dropping key out of the queue", { controller: name, key, err: describeError(err) });
    queue.forget(key);
  }
}
