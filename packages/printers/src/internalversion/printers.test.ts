/**
 * Cells of pkg/printers/internalversion/printers.go, merged from the apiserver's and kubectl's
 * former copies. Where those disagreed, upstream's code decides and the case says so.
 */
import type { EndpointSlice, Endpoints, Event, IPAddress, Node, Pod, Service } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import { findNodeRoles } from "./core.ts";
import { podHandler } from "./pod.ts";
import { endpointSliceHandler, endpointsHandler, formatDiscoveryEndpoints, formatDiscoveryPorts, formatEndpoints } from "./endpoints.ts";
import { eventHandler } from "./event.ts";
import { formatParentRef, ipAddressHandler } from "./networking.ts";
import { getServiceExternalIP, makePortString, serviceHandler } from "./service.ts";

const now = new Date("2025-01-01T00:10:00Z");
const meta = { name: "x", creationTimestamp: "2025-01-01T00:00:00Z" };
const wide = { wide: true, now };

const svc = (spec: Service["spec"], status: Service["status"] = {}): Service => ({ metadata: meta, spec, status });
const lb = (ingress: { ip?: string; hostname?: string }[], externalIPs: string[] = []): Service =>
  svc({ type: "LoadBalancer", externalIPs }, { loadBalancer: { ingress } });

describe("Service rows (printService)", () => {
  it.each([
    [
      "legacy clusterIP only",
      svc({ type: "ClusterIP", clusterIP: "10.0.0.1", ports: [{ port: 80, protocol: "TCP" }], selector: { b: "2", a: "1" } }),
      ["x", "ClusterIP", "10.0.0.1", "<none>", "80/TCP", "10m", "a=1,b=2"],
    ],
    [
      "clusterIPs[0] wins",
      svc({ type: "ClusterIP", clusterIP: "10.0.0.1", clusterIPs: ["10.0.0.1", "fd00::1"], ports: [{ port: 80, protocol: "TCP" }] }),
      ["x", "ClusterIP", "10.0.0.1", "<none>", "80/TCP", "10m", "<none>"],
    ],
    [
      "NodePort",
      svc({
        type: "NodePort",
        clusterIP: "10.0.0.2",
        ports: [
          { port: 80, nodePort: 30080, protocol: "TCP" },
          { port: 53, protocol: "UDP" },
        ],
      }),
      ["x", "NodePort", "10.0.0.2", "<none>", "80:30080/TCP,53/UDP", "10m", "<none>"],
    ],
    [
      "pending LoadBalancer",
      svc({ type: "LoadBalancer", clusterIP: "10.0.0.3", ports: [] }),
      ["x", "LoadBalancer", "10.0.0.3", "<pending>", "<none>", "10m", "<none>"],
    ],
    [
      "LoadBalancer ingress then external IPs",
      svc({ type: "LoadBalancer", clusterIP: "10.0.0.3", externalIPs: ["1.1.1.1"] }, { loadBalancer: { ingress: [{ ip: "2.2.2.2" }] } }),
      ["x", "LoadBalancer", "10.0.0.3", "2.2.2.2,1.1.1.1", "<none>", "10m", "<none>"],
    ],
    [
      "ExternalName",
      svc({ type: "ExternalName", externalName: "example.com" }),
      ["x", "ExternalName", "<none>", "example.com", "<none>", "10m", "<none>"],
    ],
    [
      "headless",
      svc({ type: "ClusterIP", clusterIP: "None", ports: [{ port: 80, protocol: "TCP" }] }),
      ["x", "ClusterIP", "None", "<none>", "80/TCP", "10m", "<none>"],
    ],
    // makePortString prints `%d/%s` of the protocol as stored: the apiserver's old copy printed TCP.
    [
      "port without protocol",
      svc({ type: "ClusterIP", clusterIP: "10.0.0.4", ports: [{ port: 80 }] }),
      ["x", "ClusterIP", "10.0.0.4", "<none>", "80/", "10m", "<none>"],
    ],
  ])("%s", (_name, obj, cells) => {
    expect(serviceHandler.printRow(obj, wide)).toEqual(cells);
  });

  it("drops SELECTOR without wide", () => {
    expect(serviceHandler.printRow(svc({ type: "ClusterIP", clusterIP: "10.0.0.1" }), { wide: false, now })).toEqual([
      "x",
      "ClusterIP",
      "10.0.0.1",
      "<none>",
      "<none>",
      "10m",
    ]);
  });

  it.each([
    ["ClusterIP without external IPs", svc({ type: "ClusterIP" }), false, "<none>"],
    ["NodePort with external IPs", svc({ type: "NodePort", externalIPs: ["1.1.1.1", "2.2.2.2"] }), false, "1.1.1.1,2.2.2.2"],
    ["pending LoadBalancer", lb([]), false, "<pending>"],
    ["LoadBalancer clipped to 16 bytes", lb([{ hostname: "a-very-long-hostname.example.com" }]), false, "a-very-long-h..."],
    [
      "LoadBalancer not clipped when wide",
      lb([{ hostname: "a-very-long-hostname.example.com" }]),
      true,
      "a-very-long-hostname.example.com",
    ],
    [
      "LoadBalancer sorted and joined with external IPs",
      lb([{ ip: "9.9.9.9" }, { ip: "1.2.3.4" }], ["5.5.5.5"]),
      true,
      "1.2.3.4,9.9.9.9,5.5.5.5",
    ],
    ["ExternalName", svc({ type: "ExternalName", externalName: "x.example" }), false, "x.example"],
    // getServiceExternalIP has no case for "": the apiserver's old copy printed <none>.
    ["unknown type", svc({}), false, "<unknown>"],
  ])("EXTERNAL-IP: %s", (_n, s, w, want) => {
    expect(getServiceExternalIP(s, w)).toBe(want);
  });

  it("makePortString shows node ports", () => {
    expect(
      makePortString([
        { port: 80, protocol: "TCP" },
        { port: 53, nodePort: 30053, protocol: "UDP" },
      ]),
    ).toBe("80/TCP,53:30053/UDP");
  });
});

describe("Endpoints and EndpointSlice rows", () => {
  it("Endpoints: at most three, then `+ N more...`", () => {
    const ep: Endpoints = {
      metadata: meta,
      subsets: [{ addresses: ["10.0.0.1", "10.0.0.2", "fd00::1", "10.0.0.4"].map((ip) => ({ ip })), ports: [{ port: 80 }] }],
    };
    expect(endpointsHandler.printRow(ep, wide)).toEqual(["x", "10.0.0.1:80,10.0.0.2:80,[fd00::1]:80 + 1 more...", "10m"]);
    expect(endpointsHandler.printRow({ metadata: meta }, wide)[1]).toBe("<none>");
  });

  it("formatEndpoints walks ports, then addresses, and ignores not-ready addresses", () => {
    const ep: Endpoints = {
      metadata: {},
      subsets: [
        {
          addresses: [{ ip: "10.0.0.1" }, { ip: "fd00::1" }],
          ports: [
            { name: "a", port: 80 },
            { name: "b", port: 81 },
          ],
        },
      ],
    };
    // The apiserver's old copy walked addresses first: 10.0.0.1:80,10.0.0.1:81,[fd00::1]:80.
    expect(formatEndpoints(ep)).toBe("10.0.0.1:80,[fd00::1]:80,10.0.0.1:81 + 1 more...");
    // printers.go formatEndpoints: "<none>" only without subsets; only not-ready addresses print "".
    expect(formatEndpoints({ metadata: {}, subsets: [{ notReadyAddresses: [{ ip: "1.1.1.1" }], ports: [{ port: 80 }] }] })).toBe("");
    expect(formatEndpoints({ metadata: {}, subsets: [{ notReadyAddresses: [{ ip: "1.1.1.1" }] }] })).toBe("");
    expect(formatEndpoints({ metadata: {}, subsets: [] })).toBe("<none>");
    expect(formatEndpoints({ metadata: {} })).toBe("<none>");
  });

  it("EndpointSlice: ports and addresses, <unset> when empty", () => {
    const es: EndpointSlice = {
      metadata: meta,
      addressType: "IPv4",
      ports: [{ port: 80 }, { name: "dns" }],
      endpoints: [{ addresses: ["10.0.0.1"] }],
    };
    expect(endpointSliceHandler.printRow(es, wide)).toEqual(["x", "IPv4", "80,dns", "10.0.0.1", "10m"]);
    expect(endpointSliceHandler.printRow({ metadata: meta, addressType: "IPv6", endpoints: [] }, wide)).toEqual([
      "x",
      "IPv6",
      "<unset>",
      "<unset>",
      "10m",
    ]);
  });

  it("formatDiscoveryPorts and formatDiscoveryEndpoints cap at 3", () => {
    expect(formatDiscoveryPorts([{ port: 80 }, { name: "x" }, {}, { port: 4 }])).toBe("80,x,* + 1 more...");
    expect(formatDiscoveryPorts([])).toBe("<unset>");
    expect(formatDiscoveryEndpoints([{ addresses: ["a", "b"] }, { addresses: ["c", "d", "e"] }])).toBe("a,b,c + 2 more...");
  });

  it('an empty port name prints "" (a non-nil *Name), not "*" as the apiserver\'s old copy did', () => {
    expect(formatDiscoveryPorts([{ name: "" }, { port: 53 }])).toBe(",53");
  });
});

describe("IPAddress PARENTREF", () => {
  it.each([
    [
      { metadata: {}, spec: { parentRef: { group: "", resource: "services", namespace: "default", name: "kubernetes" } } },
      "services/default/kubernetes",
    ],
    [
      { metadata: {}, spec: { parentRef: { group: "gateway.networking.k8s.io", resource: "Gateways", name: "gw" } } },
      "gateways.gateway.networking.k8s.io/gw",
    ],
    [{ metadata: {}, spec: {} }, "<none>"],
  ] as [IPAddress, string][])("%j -> %s", (ip, want) => {
    expect(formatParentRef(ip)).toBe(want);
  });

  it("rows keep the age cell", () => {
    expect(
      ipAddressHandler.printRow(
        { metadata: meta, spec: { parentRef: { group: "", resource: "services", namespace: "default", name: "web" } } },
        wide,
      ),
    ).toEqual(["x", "services/default/web", "10m"]);
  });
});

describe("Event rows", () => {
  const ev: Event = {
    metadata: meta,
    involvedObject: { kind: "Service", name: "web" },
    type: "Warning",
    reason: "Failed",
    message: " boom ",
    lastTimestamp: "2025-01-01T00:09:00Z",
    firstTimestamp: "2025-01-01T00:05:00Z",
    count: 3,
    source: { component: "c", host: "h" },
  };
  it("wide", () => {
    expect(eventHandler.printRow(ev, wide)).toEqual(["60s", "Warning", "Failed", "service/web", "", "c, h", "boom", "5m", 3, "x"]);
  });
  it("narrow, a series and a singleton", () => {
    expect(eventHandler.printRow(ev, { wide: false, now })).toEqual(["60s", "Warning", "Failed", "service/web", "boom"]);
    const series: Event = { ...ev, series: { count: 7, lastObservedTime: "2025-01-01T00:08:00.000000Z" } };
    expect(eventHandler.printRow(series, wide).filter((_, i) => i === 0 || i === 8)).toEqual(["2m", 7]);
    const single: Event = { metadata: meta, involvedObject: { kind: "Node" }, eventTime: "2025-01-01T00:07:00.000000Z" };
    expect(eventHandler.printRow(single, wide)).toEqual(["3m", "", "", "node", "", "", "", "3m", 1, "x"]);
  });
});

describe("Pod and Node rows", () => {
  it("READY counts running ready containers; READINESS GATES counts true conditions", () => {
    const pod = {
      metadata: meta,
      spec: { containers: [{ name: "a" }, { name: "b" }], readinessGates: [{ conditionType: "g1" }, { conditionType: "g2" }] },
      status: {
        phase: "Running",
        podIP: "10.1.0.5",
        conditions: [{ type: "g1", status: "True" }],
        containerStatuses: [
          {
            name: "a",
            ready: true,
            restartCount: 1,
            state: { running: {} },
            lastState: { terminated: { exitCode: 1, finishedAt: "2025-01-01T00:08:00Z" } },
          },
          // Ready but not running does not count (the apiserver's old copy counted it and printed 0/N gates).
          { name: "b", ready: true, restartCount: 0, state: {} },
        ],
      },
    } as Pod;
    expect(podHandler.printRow(pod, wide)).toEqual(["x", "1/2", "Running", "1 (2m ago)", "10m", "10.1.0.5", "<none>", "<none>", "1/2"]);
  });

  it("findNodeRoles reads node-role.kubernetes.io/ keys and kubernetes.io/role", () => {
    const node = {
      metadata: { labels: { "node-role.kubernetes.io/control-plane": "", "kubernetes.io/role": "edge", "node-role.kubernetes.io/": "x" } },
      spec: {},
    } as Node;
    expect(findNodeRoles(node)).toEqual(["control-plane", "edge"]);
  });
});
