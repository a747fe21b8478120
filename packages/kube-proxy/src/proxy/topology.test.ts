/** pkg/proxy/topology_test.go TestCategorizeEndpoints, plus 1.33's PreferSameNode rules of topologyModeFromHints. */
import { describe, expect, it } from "vitest";
import { makeEndpoint } from "./endpoint.ts";
import type { Endpoint } from "./endpoint.ts";
import type { ServicePortInfo } from "./service-port.ts";
import { categorizeEndpoints, labelTopologyZone } from "./topology.ts";

interface EpSpec {
  endpoint: string;
  zoneHints?: string[];
  nodeHints?: string[];
  ready?: boolean;
  serving?: boolean;
  terminating?: boolean;
  isLocal?: boolean;
}

function ep(s: EpSpec): Endpoint {
  const i = s.endpoint.lastIndexOf(":");
  return makeEndpoint({
    ip: s.endpoint.slice(0, i),
    port: Number(s.endpoint.slice(i + 1)),
    isLocal: s.isLocal ?? false,
    ready: s.ready ?? false,
    serving: s.serving ?? false,
    terminating: s.terminating ?? false,
    zoneHints: s.zoneHints ?? [],
    nodeHints: s.nodeHints ?? [],
  });
}

/** `&BaseServicePortInfo{...}`: only the fields the categorization reads. */
function svcInfo(f: { internalPolicyLocal?: boolean; externalPolicyLocal?: boolean; nodePort?: number } = {}): ServicePortInfo {
  return {
    name: { namespace: "ns", name: "svc", port: "", protocol: "TCP" },
    nameString: "ns/svc",
    clusterIP: "172.30.0.1",
    port: 80,
    protocol: "TCP",
    nodePort: f.nodePort ?? 0,
    loadBalancerVIPs: [],
    sessionAffinityClientIP: false,
    stickyMaxAgeSeconds: 0,
    externalIPs: [],
    loadBalancerSourceRanges: [],
    healthCheckNodePort: 0,
    externalPolicyLocal: f.externalPolicyLocal ?? false,
    internalPolicyLocal: f.internalPolicyLocal ?? false,
    hintsAnnotation: "",
  };
}

interface Case {
  name: string;
  pteEnabled?: boolean;
  preferSameNode?: boolean;
  nodeName?: string;
  nodeLabels?: Record<string, string>;
  serviceInfo: ServicePortInfo;
  endpoints: EpSpec[];
  /** null: the service does not use this kind of endpoints; []: it does but has none. */
  clusterEndpoints: string[] | null;
  localEndpoints: string[] | null;
  allEndpoints?: string[];
  onlyRemoteEndpoints?: boolean;
}

const zoneA = { [labelTopologyZone]: "zone-a" };
const fourZoned = (zones: (string[] | undefined)[], ready: boolean[] = [true, true, true, true]): EpSpec[] =>
  zones.map((z, i) => ({ endpoint: `10.1.2.${i + 3}:80`, ...(z === undefined ? {} : { zoneHints: z }), ready: ready[i] ?? true }));

const cases: Case[] = [
  {
    name: "should use topology since all endpoints have hints, node has a zone label and and there are endpoints for the node's zone",
    nodeLabels: zoneA,
    serviceInfo: svcInfo(),
    endpoints: fourZoned([["zone-a"], ["zone-b"], ["zone-c"], ["zone-a"]]),
    clusterEndpoints: ["10.1.2.3:80", "10.1.2.6:80"],
    localEndpoints: null,
  },
  {
    name: "externalTrafficPolicy: Local, topology ignored for Local endpoints",
    nodeLabels: zoneA,
    serviceInfo: svcInfo({ externalPolicyLocal: true, nodePort: 8080 }),
    endpoints: [
      { endpoint: "10.1.2.3:80", zoneHints: ["zone-a"], ready: true, isLocal: true },
      { endpoint: "10.1.2.4:80", zoneHints: ["zone-b"], ready: true, isLocal: true },
      { endpoint: "10.1.2.5:80", zoneHints: ["zone-c"], ready: true },
      { endpoint: "10.1.2.6:80", zoneHints: ["zone-a"], ready: true },
    ],
    clusterEndpoints: ["10.1.2.3:80", "10.1.2.6:80"],
    localEndpoints: ["10.1.2.3:80", "10.1.2.4:80"],
    allEndpoints: ["10.1.2.3:80", "10.1.2.4:80", "10.1.2.6:80"],
  },
  {
    name: "internalTrafficPolicy: Local, topology ignored for Local endpoints",
    nodeLabels: zoneA,
    serviceInfo: svcInfo({ internalPolicyLocal: true, externalPolicyLocal: false, nodePort: 8080 }),
    endpoints: [
      { endpoint: "10.1.2.3:80", zoneHints: ["zone-a"], ready: true, isLocal: true },
      { endpoint: "10.1.2.4:80", zoneHints: ["zone-b"], ready: true, isLocal: true },
      { endpoint: "10.1.2.5:80", zoneHints: ["zone-c"], ready: true },
      { endpoint: "10.1.2.6:80", zoneHints: ["zone-a"], ready: true },
    ],
    clusterEndpoints: ["10.1.2.3:80", "10.1.2.6:80"],
    localEndpoints: ["10.1.2.3:80", "10.1.2.4:80"],
    allEndpoints: ["10.1.2.3:80", "10.1.2.4:80", "10.1.2.6:80"],
  },
  {
    name: "empty node labels",
    nodeLabels: {},
    serviceInfo: svcInfo(),
    endpoints: [{ endpoint: "10.1.2.3:80", zoneHints: ["zone-a"], ready: true }],
    clusterEndpoints: ["10.1.2.3:80"],
    localEndpoints: null,
  },
  {
    name: "empty zone label",
    nodeLabels: { [labelTopologyZone]: "" },
    serviceInfo: svcInfo(),
    endpoints: [{ endpoint: "10.1.2.3:80", zoneHints: ["zone-a"], ready: true }],
    clusterEndpoints: ["10.1.2.3:80"],
    localEndpoints: null,
  },
  {
    name: "node in different zone, no endpoint filtering",
    nodeLabels: { [labelTopologyZone]: "zone-b" },
    serviceInfo: svcInfo(),
    endpoints: [{ endpoint: "10.1.2.3:80", zoneHints: ["zone-a"], ready: true }],
    clusterEndpoints: ["10.1.2.3:80"],
    localEndpoints: null,
  },
  {
    name: "unready endpoint",
    nodeLabels: zoneA,
    serviceInfo: svcInfo(),
    endpoints: fourZoned([["zone-a"], ["zone-b"], ["zone-c"], ["zone-a"]], [true, true, true, false]),
    clusterEndpoints: ["10.1.2.3:80"],
    localEndpoints: null,
  },
  {
    name: "only unready endpoints in same zone (should not filter)",
    nodeLabels: zoneA,
    serviceInfo: svcInfo(),
    endpoints: fourZoned([["zone-a"], ["zone-b"], ["zone-c"], ["zone-a"]], [false, true, true, false]),
    clusterEndpoints: ["10.1.2.4:80", "10.1.2.5:80"],
    localEndpoints: null,
  },
  {
    name: "missing hints, no filtering applied",
    nodeLabels: zoneA,
    serviceInfo: svcInfo(),
    endpoints: fourZoned([["zone-a"], ["zone-b"], undefined, ["zone-a"]]),
    clusterEndpoints: ["10.1.2.3:80", "10.1.2.4:80", "10.1.2.5:80", "10.1.2.6:80"],
    localEndpoints: null,
  },
  {
    name: "multiple hints per endpoint, filtering includes any endpoint with zone included",
    nodeLabels: { [labelTopologyZone]: "zone-c" },
    serviceInfo: svcInfo(),
    endpoints: fourZoned([["zone-a", "zone-b", "zone-c"], ["zone-b", "zone-c"], ["zone-b", "zone-d"], ["zone-c"]]),
    clusterEndpoints: ["10.1.2.3:80", "10.1.2.4:80", "10.1.2.6:80"],
    localEndpoints: null,
  },
  {
    name: "conflicting topology and localness require merging allEndpoints",
    nodeLabels: zoneA,
    serviceInfo: svcInfo({ internalPolicyLocal: false, externalPolicyLocal: true, nodePort: 8080 }),
    endpoints: [
      { endpoint: "10.0.0.0:80", zoneHints: ["zone-a"], ready: true, isLocal: true },
      { endpoint: "10.0.0.1:80", zoneHints: ["zone-b"], ready: true, isLocal: true },
      { endpoint: "10.0.0.2:80", zoneHints: ["zone-a"], ready: true, isLocal: false },
      { endpoint: "10.0.0.3:80", zoneHints: ["zone-b"], ready: true, isLocal: false },
    ],
    clusterEndpoints: ["10.0.0.0:80", "10.0.0.2:80"],
    localEndpoints: ["10.0.0.0:80", "10.0.0.1:80"],
    allEndpoints: ["10.0.0.0:80", "10.0.0.1:80", "10.0.0.2:80"],
  },
  {
    name: "internalTrafficPolicy: Local, with empty endpoints",
    serviceInfo: svcInfo({ internalPolicyLocal: true }),
    endpoints: [],
    clusterEndpoints: null,
    localEndpoints: [],
  },
  {
    name: "internalTrafficPolicy: Local, but all endpoints are remote",
    serviceInfo: svcInfo({ internalPolicyLocal: true }),
    endpoints: [
      { endpoint: "10.0.0.0:80", ready: true, isLocal: false },
      { endpoint: "10.0.0.1:80", ready: true, isLocal: false },
    ],
    clusterEndpoints: null,
    localEndpoints: [],
    onlyRemoteEndpoints: true,
  },
  {
    name: "internalTrafficPolicy: Local, all endpoints are local",
    serviceInfo: svcInfo({ internalPolicyLocal: true }),
    endpoints: [
      { endpoint: "10.0.0.0:80", ready: true, isLocal: true },
      { endpoint: "10.0.0.1:80", ready: true, isLocal: true },
    ],
    clusterEndpoints: null,
    localEndpoints: ["10.0.0.0:80", "10.0.0.1:80"],
  },
  {
    name: "internalTrafficPolicy: Local, some endpoints are local",
    serviceInfo: svcInfo({ internalPolicyLocal: true }),
    endpoints: [
      { endpoint: "10.0.0.0:80", ready: true, isLocal: true },
      { endpoint: "10.0.0.1:80", ready: true, isLocal: false },
    ],
    clusterEndpoints: null,
    localEndpoints: ["10.0.0.0:80"],
  },
  {
    name: "Cluster traffic policy, endpoints not Ready",
    serviceInfo: svcInfo(),
    endpoints: [
      { endpoint: "10.0.0.0:80", ready: false },
      { endpoint: "10.0.0.1:80", ready: false },
    ],
    clusterEndpoints: [],
    localEndpoints: null,
  },
  {
    name: "Cluster traffic policy, some endpoints are Ready",
    serviceInfo: svcInfo(),
    endpoints: [
      { endpoint: "10.0.0.0:80", ready: false },
      { endpoint: "10.0.0.1:80", ready: true },
    ],
    clusterEndpoints: ["10.0.0.1:80"],
    localEndpoints: null,
  },
  {
    name: "Cluster traffic policy, all endpoints are terminating",
    pteEnabled: true,
    serviceInfo: svcInfo(),
    endpoints: [
      { endpoint: "10.0.0.0:80", ready: false, serving: true, terminating: true, isLocal: true },
      { endpoint: "10.0.0.1:80", ready: false, serving: true, terminating: true, isLocal: false },
    ],
    clusterEndpoints: ["10.0.0.0:80", "10.0.0.1:80"],
    localEndpoints: null,
  },
  {
    name: "iTP: Local, eTP: Cluster, some endpoints local",
    serviceInfo: svcInfo({ internalPolicyLocal: true, externalPolicyLocal: false, nodePort: 8080 }),
    endpoints: [
      { endpoint: "10.0.0.0:80", ready: true, isLocal: true },
      { endpoint: "10.0.0.1:80", ready: true, isLocal: false },
    ],
    clusterEndpoints: ["10.0.0.0:80", "10.0.0.1:80"],
    localEndpoints: ["10.0.0.0:80"],
    allEndpoints: ["10.0.0.0:80", "10.0.0.1:80"],
  },
  {
    name: "iTP: Cluster, eTP: Local, some endpoints local",
    serviceInfo: svcInfo({ internalPolicyLocal: false, externalPolicyLocal: true, nodePort: 8080 }),
    endpoints: [
      { endpoint: "10.0.0.0:80", ready: true, isLocal: true },
      { endpoint: "10.0.0.1:80", ready: true, isLocal: false },
    ],
    clusterEndpoints: ["10.0.0.0:80", "10.0.0.1:80"],
    localEndpoints: ["10.0.0.0:80"],
    allEndpoints: ["10.0.0.0:80", "10.0.0.1:80"],
  },
  {
    name: "iTP: Local, eTP: Local, some endpoints local",
    serviceInfo: svcInfo({ internalPolicyLocal: true, externalPolicyLocal: true, nodePort: 8080 }),
    endpoints: [
      { endpoint: "10.0.0.0:80", ready: true, isLocal: true },
      { endpoint: "10.0.0.1:80", ready: true, isLocal: false },
    ],
    clusterEndpoints: ["10.0.0.0:80", "10.0.0.1:80"],
    localEndpoints: ["10.0.0.0:80"],
    allEndpoints: ["10.0.0.0:80", "10.0.0.1:80"],
  },
  {
    name: "iTP: Local, eTP: Local, all endpoints remote",
    serviceInfo: svcInfo({ internalPolicyLocal: true, externalPolicyLocal: true, nodePort: 8080 }),
    endpoints: [
      { endpoint: "10.0.0.0:80", ready: true, isLocal: false },
      { endpoint: "10.0.0.1:80", ready: true, isLocal: false },
    ],
    clusterEndpoints: ["10.0.0.0:80", "10.0.0.1:80"],
    localEndpoints: [],
    allEndpoints: ["10.0.0.0:80", "10.0.0.1:80"],
  },
  {
    name: "iTP: Local, eTP: Local, all endpoints remote and terminating",
    pteEnabled: true,
    serviceInfo: svcInfo({ internalPolicyLocal: true, externalPolicyLocal: true, nodePort: 8080 }),
    endpoints: [
      { endpoint: "10.0.0.0:80", ready: false, serving: true, terminating: true, isLocal: false },
      { endpoint: "10.0.0.1:80", ready: false, serving: true, terminating: true, isLocal: false },
    ],
    clusterEndpoints: ["10.0.0.0:80", "10.0.0.1:80"],
    localEndpoints: [],
    allEndpoints: ["10.0.0.0:80", "10.0.0.1:80"],
    onlyRemoteEndpoints: true,
  },
  {
    name: "iTP: Cluster, eTP: Local, with terminating endpoints",
    pteEnabled: true,
    serviceInfo: svcInfo({ internalPolicyLocal: false, externalPolicyLocal: true, nodePort: 8080 }),
    endpoints: [
      { endpoint: "10.0.0.0:80", ready: true, isLocal: false },
      { endpoint: "10.0.0.1:80", ready: false, serving: false, isLocal: true },
      { endpoint: "10.0.0.2:80", ready: false, serving: true, terminating: true, isLocal: true },
      { endpoint: "10.0.0.3:80", ready: false, serving: true, terminating: true, isLocal: false },
    ],
    clusterEndpoints: ["10.0.0.0:80"],
    localEndpoints: ["10.0.0.2:80"],
    allEndpoints: ["10.0.0.0:80", "10.0.0.2:80"],
  },
  {
    name: "externalTrafficPolicy ignored if not externally accessible",
    serviceInfo: svcInfo({ externalPolicyLocal: true }),
    endpoints: [
      { endpoint: "10.0.0.0:80", ready: true, isLocal: false },
      { endpoint: "10.0.0.1:80", ready: true, isLocal: true },
    ],
    clusterEndpoints: ["10.0.0.0:80", "10.0.0.1:80"],
    localEndpoints: null,
    allEndpoints: ["10.0.0.0:80", "10.0.0.1:80"],
  },
  {
    name: "no cluster endpoints for iTP:Local internal-only service",
    serviceInfo: svcInfo({ internalPolicyLocal: true }),
    endpoints: [
      { endpoint: "10.0.0.0:80", ready: true, isLocal: false },
      { endpoint: "10.0.0.1:80", ready: true, isLocal: true },
    ],
    clusterEndpoints: null,
    localEndpoints: ["10.0.0.1:80"],
    allEndpoints: ["10.0.0.1:80"],
  },
  // Kubernetes 1.33 topologyModeFromHints: node hints, behind the PreferSameTrafficDistribution gate.
  ...preferSameNodeCases(),
];

function preferSameNodeCases(): Case[] {
  const eps = (nodeHints: (string[] | undefined)[]): EpSpec[] =>
    nodeHints.map((n, i) => ({
      endpoint: `10.1.2.${i + 3}:80`,
      zoneHints: ["zone-a"],
      ...(n === undefined ? {} : { nodeHints: n }),
      ready: true,
    }));
  return [
    {
      name: "PreferSameNode: every endpoint has a node hint and one is for this node",
      preferSameNode: true,
      nodeLabels: zoneA,
      serviceInfo: svcInfo(),
      endpoints: eps([["node-1"], ["node-2"], ["node-1"]]),
      clusterEndpoints: ["10.1.2.3:80", "10.1.2.5:80"],
      localEndpoints: null,
    },
    {
      name: "PreferSameNode: gate off, node hints ignored, zone hints used",
      preferSameNode: false,
      nodeLabels: zoneA,
      serviceInfo: svcInfo(),
      endpoints: eps([["node-1"], ["node-2"], ["node-1"]]),
      clusterEndpoints: ["10.1.2.3:80", "10.1.2.4:80", "10.1.2.5:80"],
      localEndpoints: null,
    },
    {
      name: "PreferSameNode: no hint for this node, falls back to zone hints",
      preferSameNode: true,
      nodeLabels: zoneA,
      serviceInfo: svcInfo(),
      endpoints: eps([["node-2"], ["node-3"]]),
      clusterEndpoints: ["10.1.2.3:80", "10.1.2.4:80"],
      localEndpoints: null,
    },
    {
      name: "PreferSameNode: an endpoint without node hint, falls back to zone hints",
      preferSameNode: true,
      nodeLabels: { [labelTopologyZone]: "zone-b" },
      serviceInfo: svcInfo(),
      endpoints: eps([["node-1"], undefined]),
      clusterEndpoints: ["10.1.2.3:80", "10.1.2.4:80"],
      localEndpoints: null,
    },
  ];
}

const sorted = (eps: readonly Endpoint[] | null) => (eps === null ? null : eps.map((e) => e.endpoint).sort());

describe("TestCategorizeEndpoints", () => {
  it.each(cases.map((c) => [c.name, c] as const))("%s", (_name, tc) => {
    const topo = {
      nodeName: tc.nodeName ?? "node-1",
      zone: tc.nodeLabels?.[labelTopologyZone] ?? "",
      preferSameTrafficDistribution: tc.preferSameNode ?? false,
    };
    const r = categorizeEndpoints(tc.endpoints.map(ep), tc.serviceInfo, topo);
    // Upstream's nil ("not used") must stay null; an expected empty set also accepts no list (no endpoints at all).
    if (tc.clusterEndpoints === null) expect(r.clusterEndpoints).toBeNull();
    else expect(sorted(r.clusterEndpoints ?? [])).toEqual([...tc.clusterEndpoints].sort());
    if (tc.localEndpoints === null) expect(r.localEndpoints).toBeNull();
    else expect(sorted(r.localEndpoints ?? [])).toEqual([...tc.localEndpoints].sort());
    let expectedAll: string[];
    if (tc.clusterEndpoints !== null && tc.localEndpoints === null) expectedAll = tc.clusterEndpoints;
    else if (tc.localEndpoints !== null && tc.clusterEndpoints === null) expectedAll = tc.localEndpoints;
    else expectedAll = tc.allEndpoints ?? [];
    expect(sorted(r.allReachableEndpoints)).toEqual([...expectedAll].sort());
    expect(r.hasAnyEndpoints).toBe(expectedAll.length > 0 || (tc.onlyRemoteEndpoints ?? false));
  });
});
