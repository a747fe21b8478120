/** Test harness for the IPAddress allocators: a memory store with live ServiceCIDR and IPAddress informers. */
import { parseIP, type IP, type IPFamily } from "@servicenet/api";
import { createStore, objectKey, resourcePrefix, type KubeObject, type Store } from "../../../../storage/index.ts";
import { StoreInformer } from "../../../../util/informer/store-informer.ts";
import { MetaAllocator, type MetaAllocatorOptions } from "./cidrallocator.ts";
import { ipAddressStoragePath, storeIPAddressClient, type IPAddressClient } from "./ipaddress-client.ts";
import { eventually } from "@servicenet/testing";

export interface AllocatorHarness {
  store: Store;
  client: IPAddressClient;
  serviceCIDRs: StoreInformer;
  ipAddresses: StoreInformer;
  meta: MetaAllocator;
  /** Creates (or replaces the spec of) a ServiceCIDR and waits until the allocator saw it. */
  addServiceCIDR(name: string, ...cidrs: string[]): Promise<void>;
  /** Sets deletionTimestamp (as a DELETE of an object with a finalizer does) and waits. */
  markDeleting(name: string): Promise<void>;
  /** Deletes the ServiceCIDR object and waits. */
  removeServiceCIDR(name: string): Promise<void>;
  /** Waits until the IPAddress cache holds what storage holds. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

async function until(cond: () => boolean | Promise<boolean>, what: string): Promise<void> {
  await eventually(cond, { timeoutMs: 2_000, intervalMs: 2, what });
}

/** Builds a MetaAllocator for `family` over a fresh memory store (or `store`). */
export async function newAllocatorHarness(
  family: IPFamily,
  extra: Partial<MetaAllocatorOptions> = {},
  given?: Store,
): Promise<AllocatorHarness> {
  const store = given ?? (await createStore({ backend: "memory" }));
  const client = storeIPAddressClient(store);
  const serviceCIDRs = new StoreInformer(store, "servicecidrs");
  const ipAddresses = new StoreInformer(store, ipAddressStoragePath);
  const meta = new MetaAllocator({ family, client, serviceCIDRs, ipAddresses, ...extra });
  serviceCIDRs.start();
  ipAddresses.start();
  await Promise.all([serviceCIDRs.waitForSync(), ipAddresses.waitForSync()]);
  const rvSeen = async (key: string) => {
    const cur = await store.get(key, { ignoreNotFound: true });
    const cached = serviceCIDRs.get(key.slice(key.lastIndexOf("/") + 1));
    return cur === null ? cached === undefined : cached?.metadata.resourceVersion === cur.metadata.resourceVersion;
  };
  const key = (name: string) => objectKey("servicecidrs", undefined, name);
  return {
    store,
    client,
    serviceCIDRs,
    ipAddresses,
    meta,
    addServiceCIDR: async (name, ...cidrs) => {
      const obj: KubeObject = {
        apiVersion: "networking.k8s.io/v1",
        kind: "ServiceCIDR",
        metadata: { name, creationTimestamp: new Date().toISOString() },
        spec: { cidrs },
      };
      await store.guaranteedUpdate(key(name), (cur) => ({ ...obj, metadata: { ...obj.metadata, ...cur.metadata, name } }), {
        ignoreNotFound: true,
      });
      await until(() => rvSeen(key(name)), `ServiceCIDR ${name}`);
    },
    markDeleting: async (name) => {
      await store.guaranteedUpdate(key(name), (cur) => ({
        ...cur,
        metadata: { ...cur.metadata, deletionTimestamp: new Date().toISOString() },
      }));
      await until(() => rvSeen(key(name)), `ServiceCIDR ${name} deleting`);
    },
    removeServiceCIDR: async (name) => {
      await store.delete(key(name));
      await until(() => rvSeen(key(name)), `ServiceCIDR ${name} gone`);
    },
    settle: () =>
      until(async () => (await store.count(resourcePrefix(ipAddressStoragePath))) === ipAddresses.list().length, "IPAddress cache"),
    close: async () => {
      meta.destroy();
      serviceCIDRs.stop();
      ipAddresses.stop();
      if (!given) await store.close();
    },
  };
}

/** Parses an IP or throws (tests). */
export function ip(text: string): IP {
  const p = parseIP(text);
  if (!p) throw new Error(`bad IP ${text}`);
  return p;
}

/** A Service reference for tests. */
export const svcRef = (name: string, namespace = "default") => ({ namespace, name });
