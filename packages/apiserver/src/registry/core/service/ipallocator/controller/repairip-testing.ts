/** Fixtures for the RepairIPAddress tests: a memory store, real StoreInformers, a fake clock and recorder. */
import { ipAllocatorControllerName, labelIPAddressFamily, labelIPAddressManagedBy, parseIP } from "@servicenet/api";
import { createStore, objectKey, type KubeObject, type Store } from "../../../../../storage/index.ts";
import { FakeRecorder } from "@servicenet/client/tools/events";
import { StoreInformer } from "../../../../../util/informer/store-informer.ts";
import { MetricsRegistry } from "@servicenet/component-base/metrics";
import { storeIPAddressClient, type IPAddressClient } from "../ipaddress-client.ts";
import { clusterIPRepairMetrics, type ClusterIPRepairMetrics } from "../metrics.ts";
import { FakeClock } from "@servicenet/component-base/clock";
import { RepairIPAddress, type RepairIPAddressOptions } from "./repairip.ts";

export const serviceCIDRv4 = "10.0.0.0/16";
export const serviceCIDRv6 = "2001:db8::/64";
/** The fake clock's view of now in upstream's tests. */
export const testTimeNow = Date.UTC(2012, 0, 1);
export const seconds = (n: number): number => n * 1000;

const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d+Z$/, "Z");

export function newService(name: string, ips: string[], created = testTimeNow): KubeObject {
  return {
    apiVersion: "v1",
    kind: "Service",
    metadata: { namespace: "bar", name, uid: `svc-${name}`, creationTimestamp: iso(created) },
    spec: { clusterIP: ips[0], clusterIPs: ips, type: "ClusterIP" },
  };
}

/** The IPAddress the allocator would have created for `svcName`, created at `created`. */
export function newIPAddress(name: string, svcName: string, created = testTimeNow): KubeObject {
  const family = parseIP(name)?.family ?? "IPv4";
  return {
    apiVersion: "networking.k8s.io/v1",
    kind: "IPAddress",
    metadata: {
      name,
      uid: `ip-${name}`,
      creationTimestamp: iso(created),
      labels: { [labelIPAddressFamily]: family, [labelIPAddressManagedBy]: ipAllocatorControllerName },
    },
    spec: { parentRef: { group: "", resource: "services", namespace: "bar", name: svcName } },
  };
}

export function newServiceCIDR(name: string, ...cidrs: string[]): KubeObject {
  return {
    apiVersion: "networking.k8s.io/v1",
    kind: "ServiceCIDR",
    metadata: { name, uid: `cidr-${name}`, creationTimestamp: iso(testTimeNow) },
    spec: { cidrs },
  };
}

export interface FakeRepair {
  repair: RepairIPAddress;
  store: Store;
  clock: FakeClock;
  recorder: FakeRecorder;
  metrics: ClusterIPRepairMetrics;
  /** [verb, resource] of every IPAddress write, as client-go's fake Actions(). */
  actions: string[][];
  /** The IPAddress client over the store (no action recording). */
  raw: IPAddressClient;
  informers: StoreInformer[];
  close(): Promise<void>;
}

export interface FakeRepairSetup {
  svcs?: KubeObject[];
  ipAddresses?: KubeObject[];
  cidrs?: KubeObject[];
  testTime?: number;
  /** Wraps the recording client (to inject failures). */
  client?: (c: IPAddressClient) => IPAddressClient;
  options?: Partial<RepairIPAddressOptions>;
  /** Leave the informers unstarted (the test starts them through `informers`). */
  unstarted?: boolean;
}

/** Stores the objects, starts synced informers and builds the controller on them. */
export async function newFakeRepair(setup: FakeRepairSetup = {}): Promise<FakeRepair> {
  const store = await createStore({ backend: "memory" });
  for (const c of setup.cidrs ?? []) await store.create(objectKey("servicecidrs", undefined, c.metadata.name!), c);
  for (const s of setup.svcs ?? []) await store.create(objectKey("services/specs", s.metadata.namespace, s.metadata.name!), s);
  for (const ip of setup.ipAddresses ?? []) await store.create(objectKey("ipaddresses", undefined, ip.metadata.name!), ip);
  const raw = storeIPAddressClient(store);
  const actions: string[][] = [];
  const recording: IPAddressClient = {
    create: (o) => (actions.push(["create", "ipaddresses"]), raw.create(o)),
    delete: (n) => (actions.push(["delete", "ipaddresses"]), raw.delete(n)),
    get: (n) => raw.get(n),
  };
  const informers = [
    new StoreInformer(store, "services/specs"),
    new StoreInformer(store, "servicecidrs"),
    new StoreInformer(store, "ipaddresses"),
  ];
  const [services, serviceCIDRs, ipAddresses] = informers as [StoreInformer, StoreInformer, StoreInformer];
  const clock = new FakeClock(setup.testTime ?? testTimeNow);
  const recorder = new FakeRecorder();
  const metrics = clusterIPRepairMetrics(new MetricsRegistry());
  const client = setup.client ? setup.client(recording) : recording;
  const repair = new RepairIPAddress({
    services,
    serviceCIDRs,
    ipAddresses,
    client,
    recorder,
    clock,
    metrics,
    intervalMs: 0,
    ...setup.options,
  });
  if (!setup.unstarted) {
    for (const i of informers) i.start();
    await Promise.all(informers.map((i) => i.waitForSync()));
  }
  return {
    repair,
    store,
    clock,
    recorder,
    metrics,
    actions,
    raw,
    informers,
    close: async () => {
      for (const i of informers) i.stop();
      await store.close();
    },
  };
}
