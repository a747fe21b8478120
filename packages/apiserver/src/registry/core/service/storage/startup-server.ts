/**
 * What the server's startup calls, so wiring ServiceREST in stays a few lines: construct the
 * services store and restore the allocators before the first request (kubernetes.default is
 * reconciled by controlplane/controller/kubernetesservice).
 */
import type { Store } from "../../../../storage/index.ts";
import type { GenericStore, GenericStoreConfig } from "../../../generic/store.ts";
import type { Allocators } from "./alloc.ts";
import { ServiceREST } from "./rest.ts";
import type { RestoreReport } from "./startup.ts";

/** The storage path of Services (the resource table's `services/specs`). */
export const serviceStoragePath = "services/specs";

/**
 * The services entry of the registry: a ServiceREST over `store` whose AfterDelete also deletes
 * the Endpoints of the same name through `stores` (looked up lazily, the map is still filling).
 */
export function newServiceREST(
  store: Store,
  config: GenericStoreConfig,
  allocators: Allocators,
  stores?: ReadonlyMap<string, GenericStore>,
): ServiceREST {
  return new ServiceREST(store, config, {
    allocators,
    ...(stores
      ? { deleteEndpoints: async (ns: string, name: string) => void (await stores.get("services/endpoints")?.delete(ns, name)) }
      : {}),
  });
}

/** The ServiceREST among a registry's stores, if the services entry is one. */
export function serviceRESTOf(stores: ReadonlyMap<string, GenericStore>): ServiceREST | undefined {
  const s = stores.get(serviceStoragePath);
  return s instanceof ServiceREST ? s : undefined;
}

/** Restores the allocators from storage; call before the server accepts requests. */
export async function initServiceStorage(stores: ReadonlyMap<string, GenericStore>): Promise<RestoreReport | undefined> {
  return serviceRESTOf(stores)?.init();
}
