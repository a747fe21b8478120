/**
 * Test builders after upstream pkg/api/service/testing (MakeService and its
 * tweaks) and storage_test.go's newStorage: the cluster CIDRs 10.0.0.0/16 and
 * 2000::/108 and the default NodePort range. Exported for registry and HTTP tests.
 */
import { type IPFamily, parseCIDR, type Service, type ServicePort, type ServiceSpec } from "@servicenet/api";
import { seededRandom } from "../allocator/random.ts";
import { Range } from "../ipallocator/bitmap.ts";
import { PortAllocator } from "../portallocator/allocator.ts";
import { defaultNodePortRange } from "../portallocator/port-range.ts";
import { Allocators } from "./alloc.ts";
import { defaultOnReadService, normalizeClusterIPs, patchAllocatedValues } from "./normalize.ts";
import type { Transaction } from "./transaction.ts";

/** A test Service: a view with a required spec. */
export interface TestService extends Service {
  metadata: { name: string; namespace?: string };
  spec: ServiceSpec & {
    ports?: Array<ServicePort & { targetPort?: number | string }>;
    externalName?: string;
    sessionAffinity?: string;
    internalTrafficPolicy?: string;
  };
}

export type Tweak = (svc: TestService) => void;

/** MakeService: ClusterIP type, selector {k: v}, one TCP port 93 -> 76, SessionAffinity None, ITP Cluster. */
export function makeService(name: string, ...tweaks: Tweak[]): TestService {
  const svc: TestService = {
    metadata: { name, namespace: "default" },
    spec: {
      type: "ClusterIP",
      selector: { k: "v" },
      sessionAffinity: "None",
      internalTrafficPolicy: "Cluster",
      ports: [{ name: "", protocol: "TCP", port: 93, targetPort: 76 }],
    },
  };
  for (const t of tweaks) t(svc);
  return svc;
}

export const setTypeClusterIP: Tweak = (s) => {
  s.spec.type = "ClusterIP";
};
export const setTypeNodePort: Tweak = (s) => {
  s.spec.type = "NodePort";
};
export const setTypeLoadBalancer: Tweak = (s) => {
  s.spec.type = "LoadBalancer";
  s.spec.allocateLoadBalancerNodePorts = true;
};
export const setTypeExternalName: Tweak = (s) => {
  s.spec.type = "ExternalName";
  s.spec.externalName = "foo.example.com";
};
/** SetClusterIPs: sets clusterIP to the first and clusterIPs to all. */
export const setClusterIPs =
  (...ips: string[]): Tweak =>
  (s) => {
    s.spec.clusterIP = ips[0];
    s.spec.clusterIPs = ips;
  };
/** SetClusterIP: the singular field only (an old client). */
export const setClusterIP =
  (ip: string): Tweak =>
  (s) => {
    s.spec.clusterIP = ip;
  };
export const setHeadless: Tweak = (s) => {
  s.spec.type = "ClusterIP";
  s.spec.clusterIP = "None";
  s.spec.clusterIPs = ["None"];
};
export const setIPFamilies =
  (...families: string[]): Tweak =>
  (s) => {
    s.spec.ipFamilies = families;
  };
export const setIPFamilyPolicy =
  (policy: string): Tweak =>
  (s) => {
    s.spec.ipFamilyPolicy = policy;
  };
/** SetSelector(nil) upstream yields an empty map: selectorless. */
export const setSelector =
  (sel: Record<string, string>): Tweak =>
  (s) => {
    s.spec.selector = sel;
  };
export const setExternalTrafficPolicy =
  (etp: string): Tweak =>
  (s) => {
    s.spec.externalTrafficPolicy = etp;
  };
export const setNodePorts =
  (...ports: number[]): Tweak =>
  (s) => {
    ports.forEach((np, i) => {
      const p = s.spec.ports?.[i];
      if (p) p.nodePort = np;
    });
  };
export const setPorts =
  (...ports: Array<{ name?: string; port: number; protocol?: string; nodePort?: number }>): Tweak =>
  (s) => {
    s.spec.ports = ports.map((p) => ({ protocol: "TCP", ...p }));
  };

/** The four cluster modes of upstream storage_test.go (single-stack v4/v6, dual-stack either way), primary family first. */
export const clusterModes = {
  v4: ["IPv4"],
  v6: ["IPv6"],
  v4v6: ["IPv4", "IPv6"],
  v6v4: ["IPv6", "IPv4"],
} as const satisfies Record<string, readonly IPFamily[]>;

export type ClusterMode = keyof typeof clusterModes;

const testCIDRs: Record<IPFamily, string> = { IPv4: "10.0.0.0/16", IPv6: "2000::/108" };

/** Everything a registry test needs: the Allocators and direct handles on each allocator. */
export interface TestAllocators {
  alloc: Allocators;
  ranges: Map<IPFamily, Range>;
  ports: PortAllocator;
}

/** newStorage's allocators for `mode`, seeded for reproducibility. */
export function makeTestAllocators(mode: ClusterMode, seed = 1): TestAllocators {
  const ranges = new Map<IPFamily, Range>();
  clusterModes[mode].forEach((fam, i) => ranges.set(fam, new Range(parseCIDR(testCIDRs[fam])!, { random: seededRandom(seed + i) })));
  const ports = new PortAllocator(defaultNodePortRange, { random: seededRandom(seed + 7) });
  const alloc = new Allocators({
    serviceIPAllocatorsByFamily: ranges,
    defaultServiceIPFamily: clusterModes[mode][0],
    serviceNodePorts: ports,
  });
  return { alloc, ranges, ports };
}

/** A comparable picture of every allocator's state (for "nothing leaked" assertions). */
export function allocatorState(t: TestAllocators): string {
  const parts = [...t.ranges].map(([fam, r]) => `${fam}:${r.snapshot().data}`);
  parts.push(`ports:${t.ports.snapshot().data}`);
  return parts.join("|");
}

/** Creates `foo` with `tweaks` and commits it, as a stored object. */
export async function createStored(t: TestAllocators, ...tweaks: Tweak[]): Promise<TestService> {
  const svc = makeService("foo", ...tweaks);
  normalizeClusterIPs(svc, null);
  await (await t.alloc.allocateCreate(svc, false)).commit();
  return svc;
}

/** BeginUpdate's steps in upstream order; `stored` is left untouched, `after` is mutated. */
export async function beginUpdate(t: TestAllocators, stored: TestService, after: TestService, dryRun = false): Promise<Transaction> {
  const old = structuredClone(stored);
  defaultOnReadService(old, t.alloc.defaultServiceIPFamily);
  patchAllocatedValues(after, old);
  normalizeClusterIPs(after, old);
  return t.alloc.allocateUpdate(after, old, dryRun);
}
