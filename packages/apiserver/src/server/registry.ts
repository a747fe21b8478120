/**
 * One GenericStore per storage path, shared by every version that serves it, plus the two
 * cross-resource rules the registry needs: NamespaceLifecycle admission on create (the namespace
 * must exist and not be terminating) and namespace deletion emptying the namespace first.
 */
import { StatusError } from "@servicenet/api";
import { newServiceREST, serviceStoragePath, type Allocators } from "../registry/core/service/index.ts";
import { GenericStore, type GenericStoreConfig } from "../registry/generic/store.ts";
import type { KubeObject, Store } from "../storage/index.ts";
import type { ResourceDef } from "./resources.ts";

/** Namespaces that can never be deleted (upstream's immortal namespaces). */
export const immortalNamespaces: ReadonlySet<string> = new Set(["default", "kube-system", "kube-public"]);

export interface Registry {
  storeFor(def: Pick<ResourceDef, "storagePath">): GenericStore;
  /** Every distinct store, by storage path. */
  stores: ReadonlyMap<string, GenericStore>;
}

/**
 * Builds the stores for `table` over `store`. With `serviceAllocators`, Services are stored by a
 * ServiceREST that allocates ClusterIPs and NodePorts; without, they are stored as given.
 */
export function buildRegistry(store: Store, table: readonly ResourceDef[], serviceAllocators?: Allocators): Registry {
  const stores = new Map<string, GenericStore>();
  const namespaces = (): GenericStore | undefined => stores.get("namespaces");

  const admitCreate = async (ns: string): Promise<void> => {
    const nsStore = namespaces();
    if (!nsStore || ns === "") return;
    const obj = await nsStore.get(undefined, ns);
    if (obj.metadata.deletionTimestamp !== undefined) {
      throw StatusError.forbidden({ group: "", resource: "" }, "", `unable to create new content in namespace ${ns} because it is being terminated`);
    }
  };

  const emptyNamespace = async (obj: KubeObject): Promise<void> => {
    const name = obj.metadata.name ?? "";
    if (immortalNamespaces.has(name)) throw StatusError.forbidden({ group: "", resource: "namespaces" }, name, "this namespace may not be deleted");
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
      ...(def.storagePath === "namespaces" ? { beforeDelete: emptyNamespace } : {}),
    };
    const services = def.storagePath === serviceStoragePath && serviceAllocators;
    stores.set(def.storagePath, services ? newServiceREST(store, cfg, serviceAllocators, stores) : new GenericStore(store, cfg));
  }
  return {
    stores,
    storeFor: (def) => {
      const s = stores.get(def.storagePath);
      if (!s) throw StatusError.internal(`no storage for ${def.storagePath}`);
      return s;
    },
  };
}
