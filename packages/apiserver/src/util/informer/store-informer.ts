/**
 * An in-process shared informer over a storage prefix (the apiserver-side counterpart of
 * client-go's SharedIndexInformer): list, then watch from the list's revision, keep a cache keyed
 * `namespace/name` (or `name` for cluster-scoped objects), call handlers in event order, relist
 * after a 410 or a broken watch, and re-deliver every object to handlers that asked for a resync.
 * The apiserver's own controllers (allocators, repair loops, the default ServiceCIDR controller)
 * read through these caches as upstream reads through informers of its loopback client.
 */
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

export interface StoreInformerOptions {
  /** Delay before relisting after a watch error (default 200 ms). */
  relistDelayMs?: number;
  log?: (msg: string) => void;
}

/** `namespace/name`, or `name` for cluster-scoped objects (client-go MetaNamespaceKeyFunc). */
export function objectCacheKey(obj: KubeObject): string {
  const ns = obj.metadata.namespace;
  return ns ? `${ns}/${obj.metadata.name ?? ""}` : (obj.metadata.name ?? "");
}

interface Registration<T> {
  handlers: InformerHandlers<T>;
  resyncMs: number;
  timer?: NodeJS.Timeout;
}

/** A list+watch cache of every object under `/registry/<storagePath>/`. */
export class StoreInformer<T extends KubeObject = KubeObject> implements Lister<T> {
  readonly #store: Store;
  readonly #prefix: string;
  readonly #opts: StoreInformerOptions;
  readonly #cache = new Map<string, T>();
  readonly #regs: Registration<T>[] = [];
  readonly #syncWaiters: (() => void)[] = [];
  #synced = false;
  #abort: AbortController | null = null;

  /** `storagePath` as in the resource table (`servicecidrs`, `services/specs`). */
  constructor(store: Store, storagePath: string, opts: StoreInformerOptions = {}) {
    this.#store = store;
    this.#prefix = resourcePrefix(storagePath);
    this.#opts = opts;
  }

  /** Registers handlers; existing objects are delivered as adds. `resyncMs` > 0 re-delivers all objects periodically. */
  addEventHandler(handlers: InformerHandlers<T>, resyncMs = 0): void {
    const reg: Registration<T> = { handlers, resyncMs };
    this.#regs.push(reg);
    for (const obj of this.#cache.values()) this.#call(() => handlers.onAdd?.(obj));
    if (resyncMs > 0 && this.#abort) this.#startResync(reg);
  }

  get(key: string): T | undefined {
    return this.#cache.get(key);
  }

  list(): T[] {
    return [...this.#cache.values()];
  }

  hasSynced(): boolean {
    return this.#synced;
  }

  /** Resolves after the first list has been delivered. */
  waitForSync(): Promise<void> {
    return this.#synced ? Promise.resolve() : new Promise((r) => this.#syncWaiters.push(r));
  }

  /** Starts list+watch in the background; idempotent. */
  start(): void {
    if (this.#abort) return;
    this.#abort = new AbortController();
    for (const reg of this.#regs) if (reg.resyncMs > 0) this.#startResync(reg);
    void this.#run(this.#abort.signal);
  }

  stop(): void {
    this.#abort?.abort();
    for (const reg of this.#regs) clearInterval(reg.timer);
  }

  #startResync(reg: Registration<T>): void {
    reg.timer = setInterval(() => {
      for (const obj of this.#cache.values()) this.#call(() => reg.handlers.onUpdate?.(obj, obj));
    }, reg.resyncMs);
    reg.timer.unref();
  }

  #call(fn: () => void): void {
    try {
      fn();
    } catch (e) {
      this.#opts.log?.(`informer ${this.#prefix}: handler failed: ${String(e)}`);
    }
  }

  async #run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        const rv = await this.#relist();
        for await (const ev of this.#store.watch(this.#prefix, { recursive: true, resourceVersion: rv, signal })) {
          if (ev.type === "ERROR") break;
          if (ev.type === "BOOKMARK") continue;
          this.#apply(ev.type, ev.object as T);
        }
      } catch (e) {
        if (signal.aborted) return;
        this.#opts.log?.(`informer ${this.#prefix}: ${String(e)}; relisting`);
      }
      if (!signal.aborted) await new Promise((r) => setTimeout(r, this.#opts.relistDelayMs ?? 200));
    }
  }

  /** Lists, replaces the cache and tells the handlers what changed since the last state. */
  async #relist(): Promise<string> {
    const res = await this.#store.list(this.#prefix);
    const seen = new Set<string>();
    for (const obj of res.items as T[]) {
      const key = objectCacheKey(obj);
      seen.add(key);
      const old = this.#cache.get(key);
      if (old && old.metadata.resourceVersion === obj.metadata.resourceVersion) continue;
      this.#apply(old ? "MODIFIED" : "ADDED", obj);
    }
    for (const [key, old] of [...this.#cache]) if (!seen.has(key)) this.#apply("DELETED", old);
    if (!this.#synced) {
      this.#synced = true;
      for (const w of this.#syncWaiters.splice(0)) w();
    }
    return res.resourceVersion;
  }

  #apply(type: "ADDED" | "MODIFIED" | "DELETED", obj: T): void {
    const key = objectCacheKey(obj);
    const old = this.#cache.get(key);
    if (type === "DELETED") {
      this.#cache.delete(key);
      for (const r of this.#regs) this.#call(() => r.handlers.onDelete?.(old ?? obj));
      return;
    }
    this.#cache.set(key, obj);
    for (const r of this.#regs) this.#call(() => (old ? r.handlers.onUpdate?.(old, obj) : r.handlers.onAdd?.(obj)));
  }
}
