/** Deterministic inputs (fixed clock) for the golden describe tests. */
import type { EndpointSlice, Event, Service } from "@servicenet/api";
import { describeService } from "./service.ts";
import { describeEndpointSlice } from "./endpoints.ts";
import { describeIPAddress, describeServiceCIDR } from "./networking.ts";

export const now = new Date("2026-02-01T12:00:00Z");
const base = (name: string, spec: NonNullable<Service["spec"]>, status?: Service["status"]): Service => ({
  kind: "Service",
  metadata: { name, namespace: "default", uid: `u-${name}` },
  spec: { sessionAffinity: "None", ...spec },
  ...(status === undefined ? {} : { status }),
});
const slice = (addressType: string, port: number, ips: [string, boolean | undefined][]): EndpointSlice => ({
  kind: "EndpointSlice",
  metadata: { name: `s-${addressType}`, namespace: "default" },
  addressType,
  ports: [{ name: "", protocol: "TCP", port }],
  endpoints: ips.map(([ip, ready]) => ({ addresses: [ip], conditions: ready === undefined ? {} : { ready } })),
});
const events: Event[] = [
  {
    kind: "Event",
    metadata: {},
    involvedObject: {},
    type: "Normal",
    reason: "IPAllocated",
    message: "allocated 10.96.0.20",
    source: { component: "ipallocator" },
    firstTimestamp: "2026-01-30T10:00:00Z",
    lastTimestamp: "2026-01-30T10:00:00Z",
    count: 1,
  },
  {
    kind: "Event",
    metadata: {},
    involvedObject: {},
    type: "Warning",
    reason: "SyncFailed",
    message: "boom",
    source: { component: "service-controller" },
    firstTimestamp: "2026-01-25T12:00:00Z",
    lastTimestamp: "2026-02-01T11:55:00Z",
    count: 7,
  },
];

/** Each entry renders one golden case. */
export const G: Record<string, () => string> = {
  singleStackWithEvents: () =>
    describeService(
      base("web", {
        type: "ClusterIP",
        selector: { app: "web" },
        ipFamilyPolicy: "SingleStack",
        ipFamilies: ["IPv4"],
        clusterIP: "10.96.0.20",
        clusterIPs: ["10.96.0.20"],
        ports: [{ protocol: "TCP", port: 80, targetPort: 8080 }],
      }),
      [
        slice("IPv4", 8080, [
          ["10.1.0.1", true],
          ["10.1.0.2", undefined],
          ["10.1.0.3", false],
          ["10.1.0.4", true],
          ["10.1.0.5", true],
        ]),
      ],
      events,
      { now },
    ),
  dualStackV6V4: () =>
    describeService(
      base("dual", {
        type: "ClusterIP",
        ipFamilyPolicy: "RequireDualStack",
        ipFamilies: ["IPv6", "IPv4"],
        clusterIP: "fd00::20",
        clusterIPs: ["fd00::20", "10.96.0.21"],
        ports: [{ protocol: "TCP", port: 443, targetPort: "https" }],
      }),
      [slice("IPv6", 8443, [["fd00:1::1", true]]), slice("IPv4", 8443, [["10.1.0.9", true]])],
      [],
      { now },
    ),
  headlessNoEvents: () =>
    describeService(
      base("db", { type: "ClusterIP", clusterIP: "None", clusterIPs: ["None"], ipFamilies: ["IPv4"], ipFamilyPolicy: "SingleStack" }),
      [],
      undefined,
      { now },
    ),
  externalName: () => describeService(base("ext", { type: "ExternalName", externalName: "db.example.com" }), [], [], { now }),
  loadBalancer: () =>
    describeService(
      base(
        "lb",
        {
          type: "LoadBalancer",
          clusterIP: "10.96.0.30",
          clusterIPs: ["10.96.0.30"],
          ipFamilies: ["IPv4"],
          ipFamilyPolicy: "SingleStack",
          externalTrafficPolicy: "Local",
          healthCheckNodePort: 32000,
          ports: [{ name: "web", protocol: "TCP", port: 80, targetPort: 80, nodePort: 30300 }],
        },
        { loadBalancer: { ingress: [{ ip: "192.0.2.1", ipMode: "Proxy" }] } },
      ),
      [],
      [],
      { now },
    ),
  serviceCIDRDeleting: () =>
    describeServiceCIDR(
      {
        kind: "ServiceCIDR",
        metadata: { name: "old", labels: { a: "b" } },
        spec: { cidrs: ["10.0.0.0/24", "fd00::/64"] },
        status: {
          conditions: [
            {
              type: "Ready",
              status: "False",
              reason: "Terminating",
              message: "There are still IPAddresses referencing the ServiceCIDR, please remove them or create a new ServiceCIDR",
              lastTransitionTime: "2026-01-31T00:00:00Z",
            },
          ],
        },
      },
      [],
      { now },
    ),
  ipAddress: () =>
    describeIPAddress(
      {
        kind: "IPAddress",
        metadata: { name: "10.0.0.5" },
        spec: { parentRef: { group: "", resource: "services", namespace: "default", name: "web" } },
      },
      [],
      { now },
    ),
  endpointSliceNoPorts: () =>
    describeEndpointSlice(
      { kind: "EndpointSlice", metadata: { name: "e", namespace: "default" }, addressType: "IPv4", endpoints: [] },
      undefined,
      { now },
    ),
};
