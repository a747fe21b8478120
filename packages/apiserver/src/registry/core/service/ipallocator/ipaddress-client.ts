/**
 * How the IPAddress allocator and the repair loop write IPAddress objects. Upstream they go
 * through the loopback clientset; here they go through the IPAddress REST store of the same
 * storage (validation, uid, creationTimestamp, watch events) without an HTTP round trip.
 */
import { formatIP, ipAllocatorControllerName, labelIPAddressFamily, labelIPAddressManagedBy, type IP } from "@servicenet/api";
import { GenericStore } from "../../../generic/store.ts";
import { ipAddressStrategy } from "../../../networking/ipaddress/strategy.ts";
import type { KubeObject, Store } from "../../../../storage/index.ts";
import type { ServiceRef } from "./interfaces.ts";

/** Create/delete/get of IPAddress objects; errors are StatusErrors (AlreadyExists, NotFound, ...). */
export interface IPAddressClient {
  create(obj: KubeObject): Promise<KubeObject>;
  delete(name: string): Promise<void>;
  get(name: string): Promise<KubeObject | null>;
}

/** The storage path of IPAddresses (shared by networking.k8s.io v1 and v1beta1). */
export const ipAddressStoragePath = "ipaddresses";

/** An IPAddressClient over the IPAddress REST store of `store`. */
export function storeIPAddressClient(store: Store): IPAddressClient {
  const gs = new GenericStore(store, {
    group: "networking.k8s.io",
    resource: "ipaddresses",
    storagePath: ipAddressStoragePath,
    strategy: ipAddressStrategy,
  });
  return {
    create: (obj) => gs.create(undefined, obj),
    delete: async (name) => void (await gs.delete(undefined, name)),
    get: async (name) => {
      try {
        return await gs.get(undefined, name);
      } catch (e) {
        if ((e as { reason?: string }).reason === "NotFound") return null;
        throw e;
      }
    },
  };
}

/** The IPAddress the Service allocator creates for `ip` held by `svc` (upstream ipallocator.go). */
export function serviceIPAddress(ip: IP, svc: ServiceRef): KubeObject {
  return {
    apiVersion: "networking.k8s.io/v1",
    kind: "IPAddress",
    metadata: {
      name: formatIP(ip),
      labels: { [labelIPAddressFamily]: ip.family, [labelIPAddressManagedBy]: ipAllocatorControllerName },
    },
    spec: { parentRef: { group: "", resource: "services", namespace: svc.namespace, name: svc.name } },
  };
}
