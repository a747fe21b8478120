/**
 * An in-process shared informer over a storage prefix: client-go's SharedIndexInformer (the one in
 * @servicenet/client) fed by a ListerWatcher over the Store instead of HTTP. It lists, watches
 * from the list's revision, keeps a cache keyed `namespace/name` (or `name` for cluster-scoped
 * objects), calls handlers in event order, relists after a 410, and re-delivers every object to
 * handlers that asked for a resync. The apiserver's own controllers (allocators, repair loops, the
 * default ServiceCIDR controller) read through these caches as upstream reads through informers
 * of its loopback client.
 */
import { SharedInformer, type Indexers, type ListerWatcher } from "@servicenet/client/tools/cache";
import { backgroundClock } from "@servicenet/component-base/clock";
import type { Logger } from "@servicenet/component-base/logs";
import { resourcePrefix, type KubeObject, type Store } from "../../storage/index.ts";

/** Callbacks; they must not throw (errors are logged and dropped, as client-go handlers' panics are not). */
export interface InformerHandlers<T> {
  onAdd?(obj: T): void;
  onUpdate?(oldObj: T, newObj: T): void;
  onDelete?(obj: T): void;
}

/** The read side of an informer, for code that only looks things up. */
export interface Lister<T> {
  /** The cached object with key `namespace/name` (namespaced) or `name`. */
  get(key: string): T | undefined;
  list(): T[];
  hasSynced(): boolean;
}

export interface StoreInformerOptions<T = KubeObject> {
  /** First backoff before a new list/watch round after an error (default 200 ms, doubling to 30 s). */
  relistDelayMs?: number;
  logger?: Logger;
  /** Named indexes of the cache (`cache.Indexers`), beside the namespace index every informer has. */
  indexers?: Indexers<T>;
}

/** `namespace/name`, or `name` for cluster-scoped objects (client-go MetaNamespaceKeyFunc). */
export function objectCacheKey(obj: KubeObject): string {
  const ns = obj.metadata.namespace;
  return ns ? `${ns}/${obj.metadata.name ?? ""}` : (obj.metadata.name ?? "");
}

/** `cache.ListerWatcher` over the Store: LIST the prefix, WATCH it recursively from a revision. */
export function storeListWatch<T extends KubeObject>(store: Store, prefix: string): ListerWatcher<T> {
  return {
    async list() {
      const res = await store.list(prefix);
      return { metadata: { resourceVersion: res.resourceVersion }, items: res.items as T[] };
    },
    async watch(resourceVersion, onEvent, done) {
      const ac = new AbortController();
      void (async () => {
        try {
          for await (const ev of store.watch(prefix, { recursive: true, resourceVersion, signal: ac.signal })) {
            onEvent(ev);
            if (ev.type === "ERROR" || ac.signal.aborted) return; // an ERROR event ends the stream
          }
          if (!ac.signal.aborted) done(null);
        } catch (err) {
          if (!ac.signal.aborted) done(err);
        }
      })();
      return { abort: () => ac.abort() };
    },
  };
}

/**
 * A list+watch cache of every object under `/registry/<storagePath>/`: @servicenet/client's one
 * Reflector and SharedInformer (relist on 410, deletes on relist, per-handler resync, handler
 * errors logged) over the Store instead of HTTP.
 */
export class StoreInformer<T extends KubeObject = KubeObject> implements Lister<T> {
  readonly #inf: SharedInformer<T>;

  /** `storagePath` as in the resource table (`servicecidrs`, `services/specs`). */
  constructor(store: Store, storagePath: string, opts: StoreInformerOptions<T> = {}) {
    const prefix = resourcePrefix(storagePath);
    this.#inf = new SharedInformer<T>({
      listerWatcher: storeListWatch<T>(store, prefix),
      name: prefix,
      // Loops beside a server: pending timers never keep the process alive.
      clock: backgroundClock,
      backoff: { initialMs: opts.relistDelayMs ?? 200 },
      ...(opts.logger ? { logger: opts.logger } : {}),
      ...(opts.indexers ? { indexers: opts.indexers } : {}),
    });
  }

  /** Registers handlers; existing objects are delivered as adds. `resyncMs` > 0 re-delivers all objects periodically. */
  addEventHandler(handlers: InformerHandlers<T>, resyncMs = 0): void {
    this.#inf.addEventHandler(handlers, resyncMs);
  }

  get(key: string): T | undefined {
    return this.#inf.get(key);
  }

  list(): T[] {
    return [...this.#inf.list()];
  }

  /** Objects whose index `name` has `value` (`GetIndexer().ByIndex`); throws for an index it was not built with. */
  byIndex(name: string, value: string): T[] {
    return this.#inf.byIndex(name, value);
  }

  hasSynced(): boolean {
    return this.#inf.hasSynced();
  }

  /** Resolves after the first list has been delivered. */
  waitForSync(): Promise<void> {
    return this.#inf.waitForSync();
  }

  /** Starts list+watch in the background; idempotent. */
  start(): void {
    void this.#inf.start();
  }

  stop(): void {
    void this.#inf.stop();
  }
}
