import { describe, expect, it } from "vitest";
import { fieldErrorString } from "../../errors/index.ts";
import { setDefaultsEndpointSlice } from "./defaults.ts";
import { EndpointSliceSchema, type EndpointSlice } from "./types.ts";
import { validateEndpointSlice, validateEndpointSliceUpdate } from "./validation.ts";

const slice = (over: Record<string, unknown> = {}): EndpointSlice =>
  setDefaultsEndpointSlice(
    EndpointSliceSchema.parse({
      metadata: { name: "hello-abc12", namespace: "default", resourceVersion: "1", labels: { "kubernetes.io/service-name": "hello" } },
      addressType: "IPv4",
      endpoints: [{ addresses: ["10.1.2.3"], conditions: { ready: true }, nodeName: "node-1", zone: "z1" }],
      ports: [{ name: "http", protocol: "TCP", port: 80 }],
      ...over,
    }),
  );
const eps = (addresses: string[], extra: Record<string, unknown> = {}) => [{ addresses, ...extra }];
const msgs = (s: EndpointSlice): string[] => validateEndpointSlice(s).map(fieldErrorString);
const many = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));

describe("validateEndpointSlice", () => {
  it.each<[string, Record<string, unknown>, number]>([
    ["good IPv4", {}, 0],
    ["good IPv6", { addressType: "IPv6", endpoints: eps(["2001:db8::1"]) }, 0],
    ["good FQDN", { addressType: "FQDN", endpoints: eps(["foo.example.com."]) }, 0],
    ["IPv6 address in IPv4 slice", { endpoints: eps(["2001:db8::1"]) }, 1],
    ["IPv4 address in IPv6 slice", { addressType: "IPv6", endpoints: eps(["10.0.0.1"]) }, 1],
    ["mapped IPv4 counts as IPv4", { endpoints: eps(["::ffff:10.0.0.1"]) }, 0],
    ["loopback", { endpoints: eps(["127.0.0.1"]) }, 1],
    ["unspecified", { addressType: "IPv6", endpoints: eps(["::"]) }, 1],
    ["link-local", { endpoints: eps(["169.254.1.1"]) }, 1],
    ["link-local multicast v6", { addressType: "IPv6", endpoints: eps(["ff02::1"]) }, 1],
    ["no addresses", { endpoints: eps([]) }, 1],
    ["101 addresses", { endpoints: eps(many(101, (i) => `10.0.${i >> 8}.${(i % 250) + 1}`)) }, 1],
    ["100 addresses", { endpoints: eps(many(100, (i) => `10.0.1.${i + 1}`)) }, 0],
    ["1001 endpoints", { endpoints: many(1001, () => ({ addresses: ["10.0.0.1"] })) }, 1],
    ["1000 endpoints", { endpoints: many(1000, () => ({ addresses: ["10.0.0.1"] })) }, 0],
    ["20001 ports", { ports: many(20001, (i) => ({ name: `p${i}`, protocol: "TCP", port: 1 })) }, 1],
    ["missing addressType", { addressType: "" }, 1],
    ["bad addressType", { addressType: "IP" }, 1],
    ["unknown type skips address checks", { addressType: "Bogus", endpoints: eps(["not-an-ip"]) }, 1],
    ["FQDN one label", { addressType: "FQDN", endpoints: eps(["localhost"]) }, 1],
    ["bad hostname", { endpoints: eps(["10.0.0.1"], { hostname: "Bad_Host" }) }, 1],
    ["bad nodeName", { endpoints: eps(["10.0.0.1"], { nodeName: "Node_1" }) }, 1],
    [
      "duplicate port names",
      {
        ports: [
          { name: "a", protocol: "TCP" },
          { name: "a", protocol: "UDP" },
        ],
      },
      1,
    ],
    ["two unnamed ports", { ports: [{ protocol: "TCP" }, { protocol: "UDP" }] }, 1],
    ["bad protocol", { ports: [{ name: "a", protocol: "ICMP" }] }, 1],
    ["bad port name", { ports: [{ name: "HTTP", protocol: "TCP" }] }, 1],
    ["good appProtocol", { ports: [{ name: "a", protocol: "TCP", appProtocol: "kubernetes.io/h2c" }] }, 0],
    ["bad appProtocol", { ports: [{ name: "a", protocol: "TCP", appProtocol: "a/b/c" }] }, 1],
    ["zone hints", { endpoints: eps(["10.0.0.1"], { hints: { forZones: [{ name: "z1" }, { name: "z1" }] } }) }, 1],
    ["too many zone hints", { endpoints: eps(["10.0.0.1"], { hints: { forZones: many(9, (i) => ({ name: `z${i}` })) } }) }, 1],
    ["node hints", { endpoints: eps(["10.0.0.1"], { hints: { forNodes: [{ name: "Bad_Node" }] } }) }, 1],
    ["reserved topology key", { endpoints: eps(["10.0.0.1"], { deprecatedTopology: { "topology.kubernetes.io/zone": "z" } }) }, 1],
  ])("%s -> %d errors", (_name, over, count) => {
    expect(validateEndpointSlice(slice(over))).toHaveLength(count);
  });

  it.each<[Record<string, unknown>, string]>([
    [{ endpoints: eps(["2001:db8::1"]) }, 'endpoints[0].addresses[0]: Invalid value: "2001:db8::1": must be a valid IPv4 address'],
    [
      { endpoints: eps(["127.0.0.1"]) },
      'endpoints[0].addresses[0]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
    ],
    [{ endpoints: eps(["10.0.0.256"]) }, 'endpoints[0].addresses[0]: Invalid value: "10.0.0.256": must be a valid IPv4 address'],
    [
      { addressType: "IPv6", endpoints: eps(["not-an-ip"]) },
      'endpoints[0].addresses[0]: Invalid value: "not-an-ip": must be a valid IPv6 address',
    ],
    [{ addressType: "IPv6", endpoints: eps(["::"]) }, 'endpoints[0].addresses[0]: Invalid value: "::": may not be unspecified (::)'],
    [{ endpoints: eps([]) }, "endpoints[0].addresses: Required value: must contain at least 1 address"],
    [{ addressType: "" }, "addressType: Required value"],
    [{ addressType: "IP" }, 'addressType: Unsupported value: "IP": supported values: "FQDN", "IPv4", "IPv6"'],
    [{ ports: [{ name: "a", protocol: "ICMP" }] }, 'ports[0].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"'],
    [{ ports: [{ protocol: "TCP" }, { protocol: "UDP" }] }, 'ports[1].name: Duplicate value: ""'],
    [{ endpoints: many(1001, () => ({ addresses: ["10.0.0.1"] })) }, "endpoints: Too many: 1001: must have at most 1000 items"],
    [
      { addressType: "FQDN", endpoints: eps(["localhost"]) },
      'endpoints[0].addresses[0]: Invalid value: "localhost": should be a domain with at least two segments separated by dots',
    ],
  ])("%j -> %s", (over, want) => {
    expect(msgs(slice(over))).toEqual([want]);
  });

  it("requires a namespace and a DNS-subdomain name", () => {
    const s = slice({ metadata: { name: "Bad_Name" } });
    expect(validateEndpointSlice(s).map((e) => `${e.field} ${e.type}`)).toEqual(["metadata.name Invalid", "metadata.namespace Required"]);
  });

  it("defaults a missing port protocol to TCP and name to empty", () => {
    const s = slice({ ports: [{ port: 53 }] });
    expect(s.ports).toEqual([{ name: "", protocol: "TCP", port: 53 }]);
    expect(validateEndpointSlice(s)).toEqual([]);
  });
});

describe("validateEndpointSliceUpdate", () => {
  it.each<[string, string, string, string[]]>([
    ["same type", "IPv4", "IPv4", []],
    ["type changed", "IPv4", "IPv6", ['addressType: Invalid value: "IPv6": field is immutable']],
    ["deprecated IP type kept", "IP", "IP", []],
    ["to deprecated IP type", "IPv4", "IP", ['addressType: Invalid value: "IP": field is immutable']],
  ])("%s", (_name, oldType, newType, want) => {
    const endpoints = newType === "IPv6" ? eps(["2001:db8::1"]) : eps(["10.0.0.1"]);
    const next = slice({ addressType: newType, endpoints, metadata: { name: "s", namespace: "default", resourceVersion: "2" } });
    const old = slice({ addressType: oldType, metadata: { name: "s", namespace: "default", resourceVersion: "1" } });
    expect(validateEndpointSliceUpdate(next, old).map(fieldErrorString)).toEqual(want);
  });
});
