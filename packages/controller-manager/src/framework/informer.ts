/**
 * Shared informers over client-node's ListWatch (makeInformer): LIST, then
 * WATCH from the list's resourceVersion, relist on 410. What client-node
 * lacks is added here: (old, new) pairs on update, hasSynced, periodic
 * resync, and restart with backoff after a non-410 error (client-node stops
 * the informer in that case; reference storage-and-ecosystem §5.5).
 */
import { makeInformer, type KubeConfig, type KubernetesObject } from "@kubernetes/client-node";
import { realClock, type Clock, type TimerHandle } from "./clock.ts";
import { metaNamespaceKey } from "./keys.ts";
import { noopLogger, type Logger } from "./logger.ts";
import { describeError } from "./plain.ts";

/** Callbacks of `cache.ResourceEventHandlerFuncs`. */
export interface EventHandlers<T> {
  onAdd?(obj: T): void;
  onUpdate?(oldObj: T, newObj: T): void;
  onDelete?(obj: T): void;
}

/** The read side a controller needs: a cache, handlers and sync state. */
export interface Informer<T> {
  addEventHandler(handlers: EventHandlers<T>): void;
  /** Every cached object. */
  list(): readonly T[];
  /** The cached object with key `namespace/name` (or `name`). */
  get(key: string): T | undefined;
  /** True once the first LIST has been delivered to the cache. */
  hasSynced(): boolean;
}

/** A plain-JSON list, what the list function must return. */
export interface PlainList<T> {
  metadata?: { resourceVersion?: string | undefined } | undefined;
  items: T[];
}

export interface SharedInformerOptions<T> {
  kubeConfig: KubeConfig;
  /** Watch path, e.g. `/api/v1/pods`. */
  path: string;
  /** LIST of the same resource as plain JSON (see toPlain). */
  list: () => Promise<PlainList<T>>;
  labelSelector?: string;
  /** Re-deliver every cached object as an update this often; 0 disables resync. */
  resyncMs?: number;
  clock?: Clock;
  logger?: Logger;
  /** First restart delay after an error; doubles up to 30 s. */
  restartBackoffMs?: number;
}

const maxRestartBackoffMs = 30_000;

/** One informer per resource, shared by every controller that watches it. */
/** The object shape informers need: metadata with name, namespace and resourceVersion (timestamps as wire strings). */
export interface ObjectWithMeta {
  metadata?: { name?: string | undefined; namespace?: string | undefined; resourceVersion?: string | undefined } | undefined;
}

export class SharedInformer<T extends ObjectWithMeta> implements Informer<T> {
  readonly #opts: SharedInformerOptions<T>;
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #handlers: EventHandlers<T>[] = [];
  readonly #last = new Map<string, T>();
  readonly #lw: ReturnType<typeof makeInformer<KubernetesObject>>;
  #synced = false;
  #stopped = true;
  #backoff: number;
  #restartTimer: TimerHandle | undefined;
  #resyncTimer: TimerHandle | undefined;

  constructor(opts: SharedInformerOptions<T>) {
    this.#opts = opts;
    this.#clock = opts.clock ?? realClock;
    this.#log = opts.logger ?? noopLogger;
    this.#backoff = opts.restartBackoffMs ?? 1000;
    // client-node types objects with Date timestamps; ours are plain JSON, hence the casts at this boundary.
    this.#lw = makeInformer<KubernetesObject>(opts.kubeConfig, opts.path, () => this.#listOnce(), opts.labelSelector);
    this.#lw.on("add", (o) => this.#onAddOrUpdate(o as T));
    this.#lw.on("update", (o) => this.#onAddOrUpdate(o as T));
    this.#lw.on("delete", (o) => this.#onDelete(o as T));
    this.#lw.on("error", (err) => this.#onError(err));
  }

  addEventHandler(handlers: EventHandlers<T>): void {
    this.#handlers.push(handlers);
    // A late handler still sees every cached object, as a shared informer replays adds.
    for (const o of this.#last.values()) handlers.onAdd?.(o);
  }

  list(): readonly T[] {
    return [...this.#last.values()];
  }

  get(key: string): T | undefined {
    return this.#last.get(key);
  }

  hasSynced(): boolean {
    return this.#synced;
  }

  /** Starts list+watch; resolves once the watch request is issued (not when synced). */
  async start(): Promise<void> {
    this.#stopped = false;
    this.#scheduleResync();
    await this.#lw.start();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#restartTimer !== undefined) this.#clock.clearTimeout(this.#restartTimer);
    if (this.#resyncTimer !== undefined) this.#clock.clearTimeout(this.#resyncTimer);
    await this.#lw.stop();
  }

  async #listOnce(): Promise<PlainList<T>> {
    const list = await this.#opts.list();
    // ListWatch fills its cache synchronously after this promise settles;
    // our own map is filled by its add callbacks in the same tick, so the
    // next macrotask sees a complete cache.
    setImmediate(() => {
      this.#synced = true;
      this.#backoff = this.#opts.restartBackoffMs ?? 1000;
    });
    return list;
  }

  #onAddOrUpdate(obj: T): void {
    const key = metaNamespaceKey(obj);
    const old = this.#last.get(key);
    this.#last.set(key, obj);
    if (old === undefined) {
      for (const h of this.#handlers) h.onAdd?.(obj);
      return;
    }
    // A relist re-delivers unchanged objects (client-node #301); they are not updates.
    const oldRV = old.metadata?.resourceVersion;
    if (oldRV !== undefined && oldRV === obj.metadata?.resourceVersion) return;
    for (const h of this.#handlers) h.onUpdate?.(old, obj);
  }

  #onDelete(obj: T): void {
    const key = metaNamespaceKey(obj);
    const last = this.#last.get(key) ?? obj;
    this.#last.delete(key);
    for (const h of this.#handlers) h.onDelete?.(last);
  }

  #onError(err: unknown): void {
    if (this.#stopped) return;
    this.#log.error("informer error, restarting", { path: this.#opts.path, err: describeError(err), backoffMs: this.#backoff });
    const delay = this.#backoff;
    this.#backoff = Math.min(maxRestartBackoffMs, this.#backoff * 2);
    this.#restartTimer = this.#clock.setTimeout(() => {
      if (!this.#stopped) void this.#lw.start().catch((e: unknown) => this.#onError(e));
    }, delay);
  }

  #scheduleResync(): void {
    const every = this.#opts.resyncMs ?? 0;
    if (every <= 0 || this.#stopped) return;
    this.#resyncTimer = this.#clock.setTimeout(() => {
      for (const o of this.#last.values()) for (const h of this.#handlers) h.onUpdate?.(o, o);
      this.#scheduleResync();
    }, every);
  }
}
