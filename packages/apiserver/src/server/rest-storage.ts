/**
 * The REST storage of every served resource (upstream pkg/controlplane/instance.go's
 * RESTStorageProviders and pkg/registry/core/rest/storage_core.go NewLegacyRESTStorage): one
 * GenericStore per storage path, shared by every version that serves it; namespaces get their
 * life-cycle storage (registry/core/namespace/storage), and every namespaced write goes through
 * NamespaceLifecycle admission. Emptying a terminating namespace is the namespace controller's job
 * (controller-manager), as upstream.
 */
import { StatusError } from "@servicenet/api";
import { Lifecycle } from "../admission/plugin/namespace/lifecycle/admission.ts";
import { NamespaceREST } from "../registry/core/namespace/storage/storage.ts";
import { newServiceREST, serviceStoragePath, type Allocators } from "../registry/core/service/index.ts";
import { GenericStore, type GenericStoreConfig } from "../registry/generic/store.ts";
import { CustomResourceDefinitionREST } from "../apiextensions/registry/customresourcedefinition/etcd.ts";
import type { RBACStorageOptions } from "../registry/rbac/policybased.ts";
import { newRBACStorage } from "../registry/rbac/rest/storage-rbac.ts";
import { PriorityClassREST, priorityClassStoragePath } from "../registry/scheduling/priorityclass/storage/storage.ts";
import type { Store } from "../storage/index.ts";
import { StoreInformer } from "../util/informer/store-informer.ts";
import type { ResourceDef } from "./resources.ts";

export interface RESTStorage {
  storeFor(def: Pick<ResourceDef, "storagePath">): GenericStore;
  /** Every distinct store, by storage path. */
  stores: ReadonlyMap<string, GenericStore>;
  /** A store for a resource outside the table (a CRD's custom resources), with the same admission. */
  newStore(def: ResourceDef): GenericStore;
  /** The namespace informer admission reads namespaces from (started on first use). */
  namespaces: StoreInformer;
  /** Stops the namespace cache of the admission check. */
  stop(): void;
}

/**
 * Builds the stores for `table` over `store`. With `serviceAllocators`, Services are stored by a
 * ServiceREST that allocates ClusterIPs and NodePorts; without, they are stored as given. `rbac`
 * is what the RBAC storages check writes with (no checks without a rule resolver).
 */
export function newRESTStorage(
  store: Store,
  table: readonly ResourceDef[],
  serviceAllocators?: Allocators,
  rbac: RBACStorageOptions = {},
  admission: { namespaceLifecycle?: boolean } = {},
): RESTStorage {
  const stores = new Map<string, GenericStore>();
  // NamespaceLifecycle reads namespaces from an informer cache, as upstream's admission plugin does
  // (a storage read per create showed in profiles).
  const nsCache = new StoreInformer(store, "namespaces");
  const lifecycleOn = admission.namespaceLifecycle ?? true;
  const lifecycle = new Lifecycle({
    cache: nsCache,
    getNamespace: async (name) => {
      const namespaces = stores.get("namespaces");
      if (!namespaces) throw StatusError.notFound({ group: "", resource: "namespaces" }, name);
      return namespaces.get(undefined, name);
    },
  });

  const configOf = (def: ResourceDef): GenericStoreConfig => {
    const gr = { group: def.group, resource: def.resource };
    return {
      group: def.group,
      resource: def.resource,
      storagePath: def.storagePath,
      strategy: def.strategy,
      ...(def.namespaced && lifecycleOn
        ? { admitCreate: (namespace, obj) => lifecycle.admit({ operation: "CREATE", namespace, name: "", resource: gr, object: obj }) }
        : {}),
    };
  };
  for (const def of table) {
    if (stores.has(def.storagePath)) continue;
    const cfg = configOf(def);
    const services = def.storagePath === serviceStoragePath && serviceAllocators;
    const rest =
      def.storagePath === "namespaces"
        ? new NamespaceREST(store, cfg, lifecycleOn ? lifecycle : undefined)
        : services
          ? newServiceREST(store, cfg, serviceAllocators, stores)
          : def.storagePath === "apiextensions.k8s.io/customresourcedefinitions"
            ? new CustomResourceDefinitionREST(store, cfg)
            : def.storagePath === priorityClassStoragePath
              ? new PriorityClassREST(store, cfg)
              : (newRBACStorage(store, cfg, rbac) ?? new GenericStore(store, cfg));
    stores.set(def.storagePath, rest);
  }
  return {
    stores,
    namespaces: nsCache,
    stop: () => nsCache.stop(),
    newStore: (def) => new GenericStore(store, configOf(def)),
    storeFor: (def) => {
      const s = stores.get(def.storagePath);
      if (!s) throw StatusError.internal(`no storage for ${def.storagePath}`);
      return s;
    },
  };
}
