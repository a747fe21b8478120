/** client-go tools/cache: the one reflector, shared informer, indexer, listers and keys. */
export { SharedInformer } from "./shared-informer.ts";
export type { EventHandlers, IndexInformer, Informer, ObjectWithMeta, SharedInformerOptions } from "./shared-informer.ts";
export { Reflector } from "./reflector.ts";
export type { ReflectorOptions, ReflectorSink } from "./reflector.ts";
export { newListWatch } from "./list-watch.ts";
export type { ListerWatcher, ListWatchOptions, PlainList, WatchEvent, WatchHandle } from "./list-watch.ts";
export { BackoffManager, reflectorBackoff } from "./backoff.ts";
export type { BackoffOptions } from "./backoff.ts";
export { Indexer, metaNamespaceIndexFunc, namespaceIndex, withNamespaceIndex } from "./store.ts";
export { GenericLister, listAll, listAllByNamespace } from "./listers.ts";
export type { IndexedCache, ListedObject, NamespaceLister } from "./listers.ts";
export type { IndexFunc, Indexers } from "./store.ts";
export { MemoryInformer } from "./memory-informer.ts";
export { metaNamespaceKey, splitMetaNamespaceKey } from "./keys.ts";
export type { HasMeta } from "./keys.ts";
export { waitForCacheSync } from "./wait-for-cache-sync.ts";
