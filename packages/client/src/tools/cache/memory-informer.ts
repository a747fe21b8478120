/**
 * An Informer backed by an in-memory Indexer that tests (and embedders) drive by hand (the role of
 * client-go's tools/cache/testing fake sources): set/remove fire the same handlers a watch would,
 * and named indexes (with the namespace index every informer has) answer `byIndex` as a shared
 * informer's do.
 */
import type { EventHandlers, IndexInformer } from "./shared-informer.ts";
import { Indexer, withNamespaceIndex, type Indexers } from "./store.ts";

interface HasMeta {
  metadata?: { name?: string | undefined; namespace?: string | undefined } | undefined;
}

export class MemoryInformer<T extends HasMeta> implements IndexInformer<T> {
  readonly #items: Indexer<T>;
  readonly #handlers: EventHandlers<T>[] = [];
  #synced: boolean;

  constructor(initial: readonly T[] = [], synced = true, indexers: Indexers<T> = {}) {
    this.#items = new Indexer<T>(withNamespaceIndex(indexers));
    for (const o of initial) this.#items.upsert(o);
    this.#synced = synced;
  }

  addEventHandler(handlers: EventHandlers<T>): void {
    this.#handlers.push(handlers);
    for (const o of this.#items.list()) handlers.onAdd?.(o);
  }

  list(): readonly T[] {
    return this.#items.list();
  }

  get(key: string): T | undefined {
    return this.#items.get(key);
  }

  /** Objects whose index `name` has `value` (`GetIndexer().ByIndex`); throws for an index it was not given. */
  byIndex(name: string, value: string): T[] {
    return this.#items.byIndex(name, value);
  }

  hasSynced(): boolean {
    return this.#synced;
  }

  markSynced(): void {
    this.#synced = true;
  }

  /** Adds or replaces an object, firing onAdd or onUpdate. */
  set(obj: T): void {
    const old = this.#items.upsert(obj);
    for (const h of this.#handlers) {
      if (old === undefined) h.onAdd?.(obj);
      else h.onUpdate?.(old, obj);
    }
  }

  /** Removes an object by key, firing onDelete. */
  remove(key: string): void {
    const old = this.#items.delete(key);
    if (old === undefined) return;
    for (const h of this.#handlers) h.onDelete?.(old);
  }
}
