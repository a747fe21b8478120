/**
 * The REST storage of every served resource (upstream pkg/controlplane/instance.go's
 * RESTStorageProviders and pkg/registry/core/rest/storage_core.go NewLegacyRESTStorage): one
 * GenericStore per storage path, shared by every version that serves it, plus the two
 * cross-resource rules it needs: NamespaceLifecycle admission on create (the namespace
 * must exist and not be terminating) and namespace deletion emptying the namespace first.
 */
import { StatusError } from "@servicenet/api";
import { newServiceREST, serviceStoragePath, type Allocators } from "../registry/core/service/index.ts";
import { GenericStore, type GenericStoreConfig } from "../registry/generic/store.ts";
import type { KubeObject, Store } from "../storage/index.ts";
import { StoreInformer } from "../util/informer/store-informer.ts";
import type { ResourceDef } from "./resources.ts";

/** Namespaces that can never be deleted (upstream's immortal namespaces). */
export const immortalNamespaces: ReadonlySet<string> = new Set(["default", "kube-system", "kube-public"]);

export interface RESTStorage {
  storeFor(def: Pick<ResourceDef, "storagePath">): GenericStore;
  /** Every distinct store, by storage path. */
  stores: ReadonlyMap<string, GenericStore>;
  /** Stops the namespace cache of the admission check. */
  stop(): void;
}

/** How long a namespace deleted through this apiserver is looked up live (upstream's forceLiveLookupTTL). */
export const namespaceLiveLookupMs = 30_000;

/**
 * Builds the stores for `table` over `store`. With `serviceAllocators`, Services are stored by a
 * ServiceREST that allocates ClusterIPs and NodePorts; without, they are stored as given.
 */
export function newRESTStorage(store: Store, table: readonly ResourceDef[], serviceAllocators?: Allocators): RESTStorage {
  const stores = new Map<string, GenericStore>();
  const namespaces = (): GenericStore | undefined => stores.get("namespaces");

  // NamespaceLifecycle reads namespaces from an informer cache, as upstream's admission plugin does
  // (a storage read per create showed in profiles). A namespace missing from the cache, or
  // asked to be deleted through this apiserver in the last 30 s, is read from storage instead.
  const nsCache = new StoreInformer(store, "namespaces");
  let nsCacheStarted = false;
  const liveLookupUntil = new Map<string, number>();
  const cachedNamespace = (ns: string): KubeObject | undefined => {
    if (!nsCacheStarted) {
      nsCacheStarted = true;
      nsCache.start();
    }
    const until = liveLookupUntil.get(ns);
    if (until !== undefined) {
      if (Date.now() < until) return undefined;
      liveLookupUntil.delete(ns);
    }
    return nsCache.hasSynced() ? nsCache.get(ns) : undefined;
  };

  const admitCreate = async (ns: string): Promise<void> => {
    const nsStore = namespaces();
    if (!nsStore || ns === "") return;
    const obj = cachedNamespace(ns) ?? (await nsStore.get(undefined, ns));
    if (obj.metadata.deletionTimestamp !== undefined) {
      throw StatusError.forbidden(
        { group: "", resource: "" },
        "",
        `unable to create new content in namespace ${ns} because it is being terminated`,
      );
    }
  };

  const emptyNamespace = async (obj: KubeObject): Promise<void> => {
    const name = obj.metadata.name ?? "";
    if (immortalNamespaces.has(name))
      throw StatusError.forbidden({ group: "", resource: "namespaces" }, name, "this namespace may not be deleted");
    for (const s of stores.values()) if (s.strategy.namespaced) await s.deleteCollection(name, {});
  };

  for (const def of table) {
    if (stores.has(def.storagePath)) continue;
    const cfg: GenericStoreConfig = {
      group: def.group,
      resource: def.resource,
      storagePath: def.storagePath,
      strategy: def.strategy,
      ...(def.namespaced ? { admitCreate } : {}),
      ...(def.storagePath === "namespaces"
        ? {
            beforeDelete: emptyNamespace,
            onDeleteRequest: (_ns: string | undefined, name: string) => void liveLookupUntil.set(name, Date.now() + namespaceLiveLookupMs),
          }
        : {}),
    };
    const services = def.storagePath === serviceStoragePath && serviceAllocators;
    stores.set(def.storagePath, services ? newServiceREST(store, cfg, serviceAllocators, stores) : new GenericStore(store, cfg));
  }
  return {
    stores,
    stop: () => nsCache.stop(),
    storeFor: (def) => {
      const s = stores.get(def.storagePath);
      if (!s) throw StatusError.internal(`no storage for ${def.storagePath}`);
      return s;
    },
  };
}
