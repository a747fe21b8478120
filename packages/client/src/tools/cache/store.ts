/**
 * The informer's local cache (client-go tools/cache store.go, thread_safe_store.go, index.go): a
 * keyed store with named indexes, so controllers look objects up by a computed value
 * (`Indexer.ByIndex`) instead of scanning every object.
 */
import { metaNamespaceKey, type HasMeta } from "./keys.ts";

/** Computes the index values of an object (`cache.IndexFunc`). */
export type IndexFunc<T> = (obj: T) => readonly string[];

/** Named index functions (`cache.Indexers`). */
export type Indexers<T> = Readonly<Record<string, IndexFunc<T>>>;

/** The namespace index (`cache.NamespaceIndex`), as MetaNamespaceIndexFunc computes it. */
export const namespaceIndex = "namespace";

/** `cache.MetaNamespaceIndexFunc`. */
export function metaNamespaceIndexFunc(obj: HasMeta): string[] {
  return [obj.metadata?.namespace ?? ""];
}

/**
 * `indexers` with the namespace index added, as the generated informers build every informer's
 * indexer (`cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc}`), so listers
 * read one namespace without a scan.
 */
export function withNamespaceIndex<T extends HasMeta>(indexers: Indexers<T> = {}): Indexers<T> {
  return { [namespaceIndex]: metaNamespaceIndexFunc, ...indexers };
}

/** A keyed cache with indexes (`cache.Indexer`). */
export class Indexer<T extends HasMeta> {
  readonly #items = new Map<string, T>();
  readonly #indexers: Indexers<T>;
  /** index name -> index value -> keys */
  readonly #indices = new Map<string, Map<string, Set<string>>>();

  constructor(indexers: Indexers<T> = {}) {
    this.#indexers = indexers;
    for (const name of Object.keys(indexers)) this.#indices.set(name, new Map());
  }

  /** Adds or replaces `obj`; returns what was stored under its key before. */
  upsert(obj: T): T | undefined {
    const key = metaNamespaceKey(obj);
    const old = this.#items.get(key);
    if (old !== undefined) this.#unindex(key, old);
    this.#items.set(key, obj);
    this.#index(key, obj);
    return old;
  }

  /** Removes the object with `key`; returns it. */
  delete(key: string): T | undefined {
    const old = this.#items.get(key);
    if (old === undefined) return undefined;
    this.#unindex(key, old);
    this.#items.delete(key);
    return old;
  }

  get(key: string): T | undefined {
    return this.#items.get(key);
  }

  list(): T[] {
    return [...this.#items.values()];
  }

  listKeys(): string[] {
    return [...this.#items.keys()];
  }

  /** Objects whose index `name` contains `value` (`ByIndex`); throws for an unknown index, as upstream. */
  byIndex(name: string, value: string): T[] {
    const index = this.#indices.get(name);
    if (index === undefined) throw new Error(`Index with name ${name} does not exist`);
    return [...(index.get(value) ?? [])].map((k) => this.#items.get(k)!);
  }

  #index(key: string, obj: T): void {
    for (const [name, fn] of Object.entries(this.#indexers)) {
      const index = this.#indices.get(name)!;
      for (const v of fn(obj)) {
        let keys = index.get(v);
        if (keys === undefined) index.set(v, (keys = new Set()));
        keys.add(key);
      }
    }
  }

  #unindex(key: string, obj: T): void {
    for (const [name, fn] of Object.entries(this.#indexers)) {
      const index = this.#indices.get(name)!;
      for (const v of fn(obj)) {
        const keys = index.get(v);
        keys?.delete(key);
        if (keys?.size === 0) index.delete(v);
      }
    }
  }
}
