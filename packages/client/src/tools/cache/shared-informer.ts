/**
 * The one shared informer (client-go tools/cache/shared_informer.go): a Reflector fills an
 * Indexer, and every change is handed to the registered handlers as add, update (old, new) or
 * delete. A relist re-delivers unchanged objects; as upstream's sharedIndexInformer (a Replaced
 * delta with an unchanged resourceVersion is a sync, sent only to resyncing listeners) they are
 * not updates. Objects missing from a relist are deleted. Periodic resync re-delivers the cache.
 */
import { realClock, type Clock, type TimerHandle } from "@servicenet/component-base/clock";
import { noopLogger, type Logger } from "@servicenet/component-base/logs";
import type { BackoffOptions } from "./backoff.ts";
import { metaNamespaceKey } from "./keys.ts";
import { newListWatch, type ListWatchOptions, type ListerWatcher } from "./list-watch.ts";
import { Reflector } from "./reflector.ts";
import { Indexer, withNamespaceIndex, type Indexers } from "./store.ts";

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

/** An Informer with named indexes (`cache.SharedIndexInformer`'s `GetIndexer().ByIndex`). */
export interface IndexInformer<T> extends Informer<T> {
  /**
   * Objects whose index `name` has `value`; throws for an index the informer was not built with.
   * Every informer has the namespace index (`namespaceIndex`), which listers read.
   */
  byIndex(name: string, value: string): T[];
}

/** The object shape informers need: metadata with name, namespace and resourceVersion (timestamps as wire strings). */
export interface ObjectWithMeta {
  metadata?: { name?: string | undefined; namespace?: string | undefined; resourceVersion?: string | undefined } | undefined;
}

interface CommonOptions<T> {
  /** Default resync period of handlers: re-deliver every cached object as an update this often; 0 disables resync. */
  resyncMs?: number;
  clock?: Clock;
  logger?: Logger;
  /** The reflector's backoff between failed rounds (default reflector.go's 800 ms .. 30 s). */
  backoff?: Partial<BackoffOptions>;
  /** Named indexes of the cache (`cache.Indexers`), beside the namespace index every informer has. */
  indexers?: Indexers<T>;
  /** Turns each listed or watched object into the cached one (`SetTransform`), e.g. a schema decode. */
  transform?: (obj: unknown) => T;
}

/** Either a ListerWatcher, or the path, list call and selectors to watch over client-node. */
export type SharedInformerOptions<T> = CommonOptions<T> & ({ listerWatcher: ListerWatcher<T>; name?: string } | ListWatchOptions<T>);

/** One informer per resource, shared by every controller that watches it (`SharedIndexInformer`). */
interface Registration<T> {
  readonly handlers: EventHandlers<T>;
  readonly resyncMs: number;
  timer?: TimerHandle | undefined;
}

export class SharedInformer<T extends ObjectWithMeta> implements Informer<T> {
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #regs: Registration<T>[] = [];
  readonly #indexer: Indexer<T>;
  readonly #reflector: Reflector<T>;
  readonly #resyncMs: number;
  readonly #transform: (obj: unknown) => T;
  readonly #syncWaiters: (() => void)[] = [];
  readonly #name: string;
  #synced = false;
  #started = false;

  constructor(opts: SharedInformerOptions<T>) {
    this.#clock = opts.clock ?? realClock;
    this.#log = opts.logger ?? noopLogger;
    this.#resyncMs = opts.resyncMs ?? 0;
    this.#transform = opts.transform ?? ((o) => o as T);
    this.#indexer = new Indexer<T>(withNamespaceIndex(opts.indexers));
    const lw = "listerWatcher" in opts ? opts.listerWatcher : newListWatch(opts);
    const name = "listerWatcher" in opts ? (opts.name ?? "informer") : opts.path;
    this.#name = name;
    const sink = {
      replace: (items: T[]) => this.#replace(items),
      add: (o: T) => this.#upsert(o),
      update: (o: T) => this.#upsert(o),
      delete: (o: T) => this.#delete(o),
    };
    this.#reflector = new Reflector<T>(lw, sink, {
      name,
      clock: this.#clock,
      logger: this.#log,
      ...(opts.backoff ? { backoff: opts.backoff } : {}),
    });
  }

  /**
   * Adds handlers (`AddEventHandlerWithResyncPeriod`); `resyncMs` (default: the informer's) > 0
   * re-delivers every cached object to these handlers as update(o, o) that often.
   */
  addEventHandler(handlers: EventHandlers<T>, resyncMs = this.#resyncMs): void {
    const reg: Registration<T> = { handlers, resyncMs };
    this.#regs.push(reg);
    // A late handler still sees every cached object, as a shared informer replays adds.
    for (const o of this.#indexer.list()) this.#call(reg, () => handlers.onAdd?.(o));
    if (this.#started) this.#scheduleResync(reg);
  }

  list(): readonly T[] {
    return this.#indexer.list();
  }

  get(key: string): T | undefined {
    return this.#indexer.get(key);
  }

  /** Objects whose index `name` has `value` (`GetIndexer().ByIndex`). */
  byIndex(name: string, value: string): T[] {
    return this.#indexer.byIndex(name, value);
  }

  hasSynced(): boolean {
    return this.#synced;
  }

  /** Resolves once the first list has been delivered. */
  waitForSync(): Promise<void> {
    return this.#synced ? Promise.resolve() : new Promise((r) => this.#syncWaiters.push(r));
  }

  /** The resourceVersion of the last list or event applied. */
  get lastSyncResourceVersion(): string {
    return this.#reflector.lastSyncResourceVersion;
  }

  /** Starts list+watch in the background (`Run`); hasSynced() turns true after the first list. */
  async start(): Promise<void> {
    if (this.#started) return;
    this.#started = true;
    for (const reg of this.#regs) this.#scheduleResync(reg);
    this.#reflector.run();
  }

  async stop(): Promise<void> {
    this.#started = false;
    for (const reg of this.#regs) {
      if (reg.timer !== undefined) this.#clock.clearTimeout(reg.timer);
      reg.timer = undefined;
    }
    await this.#reflector.stop();
  }

  // DeltaFIFO.Replace order: the listed objects first, then deletes for keys the list no longer has.
  #replace(raw: T[]): void {
    const items = raw.map((o) => this.#transform(o));
    const keep = new Set(items.map((o) => metaNamespaceKey(o)));
    for (const o of items) {
      const old = this.#indexer.upsert(o);
      if (old === undefined) this.#notifyAdd(o);
      else if (old.metadata?.resourceVersion === undefined || old.metadata.resourceVersion !== o.metadata?.resourceVersion)
        this.#notifyUpdate(old, o);
    }
    for (const key of this.#indexer.listKeys()) if (!keep.has(key)) this.#notifyDelete(this.#indexer.delete(key)!);
    if (!this.#synced) {
      this.#synced = true;
      for (const w of this.#syncWaiters.splice(0)) w();
    }
  }

  #upsert(raw: T): void {
    const o = this.#transform(raw);
    const old = this.#indexer.upsert(o);
    if (old === undefined) this.#notifyAdd(o);
    else this.#notifyUpdate(old, o);
  }

  #delete(raw: T): void {
    const o = this.#transform(raw);
    // The last cached state, as the handlers saw it.
    this.#notifyDelete(this.#indexer.delete(metaNamespaceKey(o)) ?? o);
  }

  #notifyAdd(o: T): void {
    for (const r of this.#regs) this.#call(r, () => r.handlers.onAdd?.(o));
  }

  #notifyUpdate(old: T, o: T): void {
    for (const r of this.#regs) this.#call(r, () => r.handlers.onUpdate?.(old, o));
  }

  #notifyDelete(o: T): void {
    for (const r of this.#regs) this.#call(r, () => r.handlers.onDelete?.(o));
  }

  // A failing handler must not break the cache or the other handlers (utilruntime.HandleError).
  #call(_reg: Registration<T>, fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.#log.error("informer event handler failed", { informer: this.#name, err: err instanceof Error ? err.message : String(err) });
    }
  }

  #scheduleResync(reg: Registration<T>): void {
    if (reg.resyncMs <= 0 || reg.timer !== undefined) return;
    reg.timer = this.#clock.setTimeout(() => {
      reg.timer = undefined;
      if (!this.#started) return;
      for (const o of this.#indexer.list()) this.#call(reg, () => reg.handlers.onUpdate?.(o, o));
      this.#scheduleResync(reg);
    }, reg.resyncMs);
  }
}
