/**
 * An Informer backed by a Map that tests (and embedders) drive by hand (the role of client-go's
 * tools/cache/testing fake sources):
 * set/remove fire the same handlers a watch would.
 */
import type { EventHandlers, Informer } from "./shared-informer.ts";
import { metaNamespaceKey } from "./keys.ts";

interface HasMeta {
  metadata?: { name?: string | undefined; namespace?: string | undefined } | undefined;
}

export class MemoryInformer<T extends HasMeta> implements Informer<T> {
  readonly #items = new Map<string, T>();
  readonly #handlers: EventHandlers<T>[] = [];
  #synced: boolean;

  constructor(initial: readonly T[] = [], synced = true) {
    for (const o of initial) this.#items.set(metaNamespaceKey(o), o);
    this.#synced = synced;
  }

  addEventHandler(handlers: EventHandlers<T>): void {
    this.#handlers.push(handlers);
    for (const o of this.#items.values()) handlers.onAdd?.(o);
  }

  list(): readonly T[] {
    return [...this.#items.values()];
  }

  get(key: string): T | undefined {
    return this.#items.get(key);
  }

  hasSynced(): boolean {
    return this.#synced;
  }

  markSynced(): void {
    this.#synced = true;
  }

  /** Adds or replaces an object, firing onAdd or onUpdate. */
  set(obj: T): void {
    const key = metaNamespaceKey(obj);
    const old = this.#items.get(key);
    this.#items.set(key, obj);
    for (const h of this.#handlers) {
      if (old === undefined) h.onAdd?.(obj);
      else h.onUpdate?.(old, obj);
    }
  }

  /** Removes an object by key, firing onDelete. */
  remove(key: string): void {
    const old = this.#items.get(key);
    if (old === undefined) return;
    this.#items.delete(key);
    for (const h of this.#handlers) h.onDelete?.(old);
  }
}
