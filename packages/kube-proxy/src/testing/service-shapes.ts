/**
 * Every Service shape the proxier tests exercise, each with its slice, for
 * checks that apply to all of them (every chain jumped to is declared, the
 * rule set loads). Dual-stack, so each family's proxier gets its half.
 */
import type { EndpointSlice, IPFamily, Service } from "@servicenet/api";
import { makeTestEndpointSlice, makeTestService, tcpPort } from "./fixtures.ts";
import { testNodeName } from "./upstream-services.ts";

export interface ServiceShape {
  readonly name: string;
  readonly services: readonly Service[];
  readonly slices: readonly EndpointSlice[];
}

interface EndpointSpec {
  /** Host part: the endpoint gets 10.180.0.<n> and fd00:10:180::<n>. */
  readonly n: number;
  readonly local?: boolean;
  readonly ready?: boolean;
  readonly terminating?: boolean;
  readonly zone?: string;
}

type Mutate = (s: Service) => void;

const nodePort: Mutate = (s) => {
  s.spec.type = "NodePort";
  s.spec.ports = [{ name: "p80", port: 80, protocol: "TCP", nodePort: 30080 }];
};
const loadBalancer: Mutate = (s) => {
  s.spec.type = "LoadBalancer";
  s.spec.ports = [{ name: "p80", port: 80, protocol: "TCP", nodePort: 30080 }];
  s.spec.healthCheckNodePort = 30000;
  s.status = { loadBalancer: { ingress: [{ ip: "192.0.2.10" }, { ip: "2001:db8::10" }] } };
};
const etpLocal: Mutate = (s) => (s.spec.externalTrafficPolicy = "Local");
const itpLocal: Mutate = (s) => (s.spec.internalTrafficPolicy = "Local");
const externalIPs: Mutate = (s) => (s.spec.externalIPs = ["192.0.2.20", "2001:db8::20"]);
const sourceRanges: Mutate = (s) => (s.spec.loadBalancerSourceRanges = ["203.0.113.0/25", "2001:db8:1::/64"]);
const affinity: Mutate = (s) => {
  s.spec.sessionAffinity = "ClientIP";
  s.spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: 300 } };
};

function dualStack(name: string, mutations: readonly Mutate[]): Service {
  return makeTestService("ns", name, (s) => {
    s.spec.clusterIP = "172.30.0.41";
    s.spec.clusterIPs = ["172.30.0.41", "fd00:172:30::41"];
    s.spec.ipFamilies = ["IPv4", "IPv6"];
    s.spec.ports = [{ name: "p80", port: 80, protocol: "TCP" }];
    for (const m of mutations) m(s);
  });
}

/** One slice per family of `ns/name` with the given endpoints. */
export function shapeSlices(name: string, eps: readonly EndpointSpec[]): EndpointSlice[] {
  return (["IPv4", "IPv6"] as const).map((family: IPFamily) =>
    makeTestEndpointSlice("ns", name, family === "IPv4" ? 4 : 6, (e) => {
      e.addressType = family;
      e.endpoints = eps.map((ep) => ({
        addresses: [family === "IPv4" ? `10.180.0.${ep.n}` : `fd00:10:180::${ep.n}`],
        conditions: {
          ready: ep.ready ?? true,
          serving: (ep.ready ?? true) || (ep.terminating ?? false),
          terminating: ep.terminating ?? false,
        },
        ...(ep.local === true ? { nodeName: testNodeName } : { nodeName: "other-node" }),
        ...(ep.zone !== undefined ? { zone: ep.zone, hints: { forZones: [{ name: ep.zone }] } } : {}),
      }));
      e.ports = [tcpPort("p80", 80)];
    }),
  );
}

const localAndRemote: readonly EndpointSpec[] = [{ n: 1, local: true }, { n: 2 }];
const remoteOnly: readonly EndpointSpec[] = [{ n: 2 }, { n: 3 }];

function shape(name: string, mutations: readonly Mutate[], eps: readonly EndpointSpec[]): ServiceShape {
  const svcName = name.replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
  return { name, services: [dualStack(svcName, mutations)], slices: shapeSlices(svcName, eps) };
}

/** The shapes, named after what they exercise. */
export const serviceShapes: readonly ServiceShape[] = [
  shape("clusterip", [], localAndRemote),
  shape("clusterip no endpoints", [], []),
  shape(
    "clusterip terminating fallback",
    [],
    [
      { n: 1, ready: false, terminating: true },
      { n: 2, ready: false },
    ],
  ),
  shape("clusterip session affinity", [affinity], localAndRemote),
  shape("clusterip external ips", [externalIPs], localAndRemote),
  shape("nodeport", [nodePort], localAndRemote),
  shape("nodeport no endpoints", [nodePort], []),
  shape("nodeport etp local", [nodePort, etpLocal], localAndRemote),
  shape("nodeport etp local remote only", [nodePort, etpLocal], remoteOnly),
  shape("clusterip itp local", [itpLocal], localAndRemote),
  shape("clusterip itp local remote only", [itpLocal], remoteOnly),
  shape("nodeport itp local", [nodePort, itpLocal], localAndRemote),
  shape("nodeport itp local etp local", [nodePort, itpLocal, etpLocal], localAndRemote),
  shape("nodeport itp local etp local remote only", [nodePort, itpLocal, etpLocal], remoteOnly),
  shape(
    "nodeport itp local etp local terminating",
    [nodePort, itpLocal, etpLocal],
    [{ n: 1, local: true, ready: false, terminating: true }],
  ),
  shape("loadbalancer", [loadBalancer], localAndRemote),
  shape("loadbalancer source ranges", [loadBalancer, sourceRanges], localAndRemote),
  shape("loadbalancer etp local", [loadBalancer, etpLocal], localAndRemote),
  shape(
    "loadbalancer itp local etp local source ranges affinity",
    [loadBalancer, itpLocal, etpLocal, sourceRanges, affinity],
    localAndRemote,
  ),
  shape("externalips itp local etp local", [externalIPs, itpLocal, etpLocal], remoteOnly),
  shape(
    "topology hints",
    [],
    [
      { n: 1, zone: "zone-a" },
      { n: 2, zone: "zone-b" },
    ],
  ),
];
