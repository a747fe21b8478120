/**
 * Listers (client-go tools/cache/listers.go and the generated `listers/<group>/<version>` types):
 * reads of an informer's cache by namespace and label selector, through the namespace index
 * instead of a scan of every cached object. One generic lister serves every kind; the generated
 * typed listers differ only in their type parameter.
 */
import { everything, type LabelMatcher } from "@servicenet/api";
import type { HasMeta } from "./keys.ts";
import { namespaceIndex } from "./store.ts";

/** The object shape a lister reads: the key fields and the labels a selector matches. */
export interface ListedObject extends HasMeta {
  metadata?:
    { name?: string | undefined; namespace?: string | undefined; labels?: Readonly<Record<string, string>> | undefined } | undefined;
}

/** The cache a lister reads (`cache.Indexer`'s List, GetByKey and ByIndex). */
export interface IndexedCache<T> {
  list(): readonly T[];
  get(key: string): T | undefined;
  byIndex(name: string, value: string): T[];
}

/** `cache.ListAll`: the objects of `store` whose labels `selector` matches. */
export function listAll<T extends ListedObject>(store: Pick<IndexedCache<T>, "list">, selector: LabelMatcher): T[] {
  const all = store.list();
  // labels.Everything(): every object, without reading its labels.
  if (selector === everything) return [...all];
  return all.filter((o) => selector(o.metadata?.labels));
}

/**
 * `cache.ListAllByNamespace`: the objects in `namespace` ("" is every namespace) whose labels
 * `selector` matches, looked up in the namespace index.
 */
export function listAllByNamespace<T extends ListedObject>(indexer: IndexedCache<T>, namespace: string, selector: LabelMatcher): T[] {
  if (namespace === "") return listAll(indexer, selector);
  let items: T[];
  try {
    items = indexer.byIndex(namespaceIndex, namespace);
  } catch {
    // Upstream falls back to a filtered scan of the whole cache when there is no namespace index.
    items = indexer.list().filter((o) => (o.metadata?.namespace ?? "") === namespace);
  }
  return selector === everything ? items : items.filter((o) => selector(o.metadata?.labels));
}

/** The reads of one namespace (`cache.GenericNamespaceLister`, the generated `<Kind>NamespaceLister`). */
export interface NamespaceLister<T> {
  /** The objects in this namespace whose labels `selector` matches (default: all). */
  list(selector?: LabelMatcher): T[];
  /**
   * The object `name` in this namespace, or undefined: upstream's Get returns a NotFound error
   * then, and that is the only error it has.
   */
  get(name: string): T | undefined;
}

/**
 * The lister of one kind (`cache.GenericLister`, the generated `<Kind>Lister`), over an informer's
 * indexer. For cluster-scoped kinds `get(name)` reads by name; for namespaced kinds `list` spans
 * every namespace and `byNamespace(ns)` narrows to one.
 */
export class GenericLister<T extends ListedObject> {
  readonly #indexer: IndexedCache<T>;

  constructor(indexer: IndexedCache<T>) {
    this.#indexer = indexer;
  }

  /** The objects of every namespace whose labels `selector` matches (default: all). */
  list(selector: LabelMatcher = everything): T[] {
    return listAll(this.#indexer, selector);
  }

  /** The cluster-scoped object `name`, or undefined (upstream: a NotFound error). */
  get(name: string): T | undefined {
    return this.#indexer.get(name);
  }

  /** The reads of `namespace` (`ByNamespace`, the generated `Pods(ns)`, `Services(ns)`, ...). */
  byNamespace(namespace: string): NamespaceLister<T> {
    const indexer = this.#indexer;
    return {
      list: (selector: LabelMatcher = everything) => listAllByNamespace(indexer, namespace, selector),
      get: (name: string) => indexer.get(`${namespace}/${name}`),
    };
  }
}
