// Rows ported from upstream TestValidateServiceCreate (pkg/apis/core/validation/validation_test.go,
// commit 000f2605): same tweaks, same expected error counts.
import { describe, expect, it } from "vitest";
import { aggregateMessage } from "../../../errors/index.ts";
import type { Service } from "../service.ts";
import { validateServiceCreate } from "./service.ts";
import { validateServiceExternalTrafficPolicy } from "./service-policies.ts";
import { makeValidService } from "./testing.ts";

type Tweak = (s: Service) => void;
const RDS = "RequireDualStack";
const SS = "SingleStack";
const PDS = "PreferDualStack";
const ips = (s: Service, clusterIP: string, list: string[]) => ((s.spec.clusterIP = clusterIP), (s.spec.clusterIPs = list));
const port0 = (s: Service) => s.spec.ports![0]!;

const generalRows: Array<[string, Tweak, number]> = [
  ["missing namespace", (s) => delete s.metadata.namespace, 1],
  ["invalid namespace", (s) => (s.metadata.namespace = "-123"), 1],
  ["missing name", (s) => delete s.metadata.name, 1],
  ["invalid name", (s) => (s.metadata.name = "-123"), 1],
  ["too long name", (s) => (s.metadata.name = "a".repeat(64)), 1],
  ["invalid generateName", (s) => (s.metadata.generateName = "-123"), 1],
  ["too long generateName", (s) => (s.metadata.generateName = "a".repeat(64)), 1],
  ["invalid label", (s) => (s.metadata.labels!["NoUppercaseOrSpecialCharsLike=Equals"] = "bar"), 1],
  ["invalid annotation", (s) => (s.metadata.annotations!["NoSpecialCharsLike=Equals"] = "bar"), 1],
  ["nil selector", (s) => delete s.spec.selector, 0],
  ["invalid selector", (s) => (s.spec.selector!["NoSpecialCharsLike=Equals"] = "bar"), 1],
  ["missing session affinity", (s) => (s.spec.sessionAffinity = ""), 1],
  ["missing type", (s) => (s.spec.type = ""), 1],
  ["missing ports", (s) => delete s.spec.ports, 1],
  ["missing ports but headless", (s) => (delete s.spec.ports, ips(s, "None", ["None"])), 0],
  ["empty port[0] name", (s) => (port0(s).name = ""), 0],
  ["empty port[1] name", (s) => s.spec.ports!.push({ name: "", protocol: "TCP", port: 12345, targetPort: 12345 }), 1],
  [
    "empty multi-port port[0] name",
    (s) => ((port0(s).name = ""), s.spec.ports!.push({ name: "p", protocol: "TCP", port: 12345, targetPort: 12345 })),
    1,
  ],
  ["invalid port name", (s) => (port0(s).name = "INVALID"), 1],
  ["missing protocol", (s) => (port0(s).protocol = ""), 1],
  ["invalid protocol", (s) => (port0(s).protocol = "INVALID"), 1],
  ["invalid cluster ip", (s) => ips(s, "invalid", ["invalid"]), 1],
  ["missing port", (s) => (port0(s).port = 0), 1],
  ["invalid port", (s) => (port0(s).port = 65536), 1],
  ["invalid TargetPort int", (s) => (port0(s).targetPort = 65536), 1],
  ["valid port headless", (s) => ((port0(s).port = 11722), (port0(s).targetPort = 11722), ips(s, "None", ["None"])), 0],
  [
    "invalid port headless 1 (tolerated in v1)",
    (s) => ((port0(s).port = 11722), (port0(s).targetPort = 11721), ips(s, "None", ["None"])),
    0,
  ],
  [
    "invalid port headless 2 (tolerated in v1)",
    (s) => ((port0(s).port = 11722), (port0(s).targetPort = "target"), ips(s, "None", ["None"])),
    0,
  ],
  ["invalid publicIPs localhost", (s) => ((s.spec.externalTrafficPolicy = "Cluster"), (s.spec.externalIPs = ["127.0.0.1"])), 1],
  ["invalid publicIPs unspecified", (s) => ((s.spec.externalTrafficPolicy = "Cluster"), (s.spec.externalIPs = ["0.0.0.0"])), 1],
  ["valid appProtocol", (s) => (s.spec.ports = [{ port: 12345, targetPort: 12345, protocol: "TCP", appProtocol: "HTTP" }]), 0],
  [
    "valid custom appProtocol",
    (s) => (s.spec.ports = [{ port: 12345, targetPort: 12345, protocol: "TCP", appProtocol: "example.com/protocol" }]),
    0,
  ],
  [
    "invalid appProtocol",
    (s) =>
      (s.spec.ports = [{ port: 12345, targetPort: 12345, protocol: "TCP", appProtocol: "example.com/protocol_with{invalid}[characters]" }]),
    1,
  ],
  ["Use AllocateLoadBalancerNodePorts when type is not LoadBalancer", (s) => (s.spec.allocateLoadBalancerNodePorts = true), 1],
  [
    "valid LoadBalancerClass when type is LoadBalancer",
    (s) =>
      Object.assign(s.spec, {
        type: "LoadBalancer",
        externalTrafficPolicy: "Cluster",
        allocateLoadBalancerNodePorts: true,
        loadBalancerClass: "test.com/test-load-balancer-class",
      }),
    0,
  ],
  [
    "invalid LoadBalancerClass",
    (s) =>
      Object.assign(s.spec, {
        type: "LoadBalancer",
        externalTrafficPolicy: "Cluster",
        allocateLoadBalancerNodePorts: true,
        loadBalancerClass: "Bad/LoadBalancerClass",
      }),
    1,
  ],
  [
    "invalid: set LoadBalancerClass when type is not LoadBalancer",
    (s) => (s.spec.loadBalancerClass = "test.com/test-load-balancer-class"),
    1,
  ],
  [
    "topology annotations are mismatched",
    (s) =>
      Object.assign(s.metadata.annotations!, {
        "service.kubernetes.io/topology-aware-hints": "original",
        "service.kubernetes.io/topology-mode": "different",
      }),
    1,
  ],
  ["valid: trafficDistribution field set to PreferClose", (s) => (s.spec.trafficDistribution = "PreferClose"), 0],
  ["invalid: trafficDistribution field set to Random", (s) => (s.spec.trafficDistribution = "Random"), 1],
];

// The "cluster IPs" block of TestValidateServiceCreate.
const ipRows: Array<[string, Tweak, number]> = [
  ["invalid, garbage single ip", (s) => ips(s, "garbage-ip", ["garbage-ip"]), 1],
  ["invalid, garbage ips", (s) => ((s.spec.ipFamilyPolicy = RDS), ips(s, "garbage-ip", ["garbage-ip", "garbage-second-ip"])), 2],
  ["invalid, garbage first ip", (s) => ((s.spec.ipFamilyPolicy = RDS), ips(s, "garbage-ip", ["garbage-ip", "2001::1"])), 1],
  ["invalid, garbage second ip", (s) => ((s.spec.ipFamilyPolicy = RDS), ips(s, "2001::1", ["2001::1", "garbage-ip"])), 1],
  ["invalid, NONE + IP", (s) => ((s.spec.ipFamilyPolicy = RDS), ips(s, "None", ["None", "2001::1"])), 1],
  ["invalid, IP + NONE", (s) => ((s.spec.ipFamilyPolicy = RDS), ips(s, "2001::1", ["2001::1", "None"])), 1],
  ["invalid, EMPTY STRING + IP", (s) => ((s.spec.ipFamilyPolicy = RDS), ips(s, "", ["", "2001::1"])), 2],
  ["invalid, IP + EMPTY STRING", (s) => ((s.spec.ipFamilyPolicy = RDS), ips(s, "2001::1", ["2001::1", ""])), 1],
  [
    "invalid, same ip family (v6)",
    (s) => ((s.spec.ipFamilyPolicy = RDS), ips(s, "2001::1", ["2001::1", "2001::4"]), (s.spec.ipFamilies = ["IPv4", "IPv6"])),
    2,
  ],
  [
    "invalid, same ip family (v4)",
    (s) => ((s.spec.ipFamilyPolicy = RDS), ips(s, "10.0.0.1", ["10.0.0.1", "10.0.0.10"]), (s.spec.ipFamilies = ["IPv4", "IPv6"])),
    2,
  ],
  [
    "invalid, more than two ips",
    (s) => (
      (s.spec.ipFamilyPolicy = RDS),
      ips(s, "10.0.0.1", ["10.0.0.1", "2001::1", "10.0.0.10"]),
      (s.spec.ipFamilies = ["IPv4", "IPv6"])
    ),
    1,
  ],
  [
    " multi ip, dualstack not set (request for downgrade)",
    (s) => ((s.spec.ipFamilyPolicy = SS), ips(s, "10.0.0.1", ["10.0.0.1", "2001::1"]), (s.spec.ipFamilies = ["IPv4", "IPv6"])),
    0,
  ],
  [
    "valid, headless-no-selector + multi family + gate off",
    (s) => ((s.spec.ipFamilyPolicy = RDS), ips(s, "None", ["None"]), (s.spec.ipFamilies = ["IPv4", "IPv6"]), delete s.spec.selector),
    0,
  ],
  [
    "valid, multi ip, single ipfamilies preferDualStack",
    (s) => ((s.spec.ipFamilyPolicy = PDS), ips(s, "10.0.0.1", ["10.0.0.1", "2001::1"]), (s.spec.ipFamilies = ["IPv4"])),
    0,
  ],
  [
    "valid, multi ip, single ipfamilies (must match when provided) + requireDualStack",
    (s) => ((s.spec.ipFamilyPolicy = RDS), ips(s, "10.0.0.1", ["10.0.0.1", "2001::1"]), (s.spec.ipFamilies = ["IPv4"])),
    0,
  ],
  ["invalid, families don't match (v4=>v6)", (s) => (ips(s, "10.0.0.1", ["10.0.0.1"]), (s.spec.ipFamilies = ["IPv6"])), 1],
  ["invalid, families don't match (v6=>v4)", (s) => (ips(s, "2001::1", ["2001::1"]), (s.spec.ipFamilies = ["IPv4"])), 1],
  ["valid. no field set", () => {}, 0],
  ["valid, single ip", (s) => ((s.spec.ipFamilyPolicy = SS), ips(s, "10.0.0.1", ["10.0.0.1"])), 0],
  ["valid, single family", (s) => ((s.spec.ipFamilyPolicy = SS), (s.spec.ipFamilies = ["IPv6"])), 0],
  [
    "valid, single ip + single family",
    (s) => ((s.spec.ipFamilyPolicy = SS), ips(s, "2001::1", ["2001::1"]), (s.spec.ipFamilies = ["IPv6"])),
    0,
  ],
  [
    "valid, single ip + single family (dual stack requested)",
    (s) => ((s.spec.ipFamilyPolicy = PDS), ips(s, "2001::1", ["2001::1"]), (s.spec.ipFamilies = ["IPv6"])),
    0,
  ],
  [
    "valid, single ip, multi ipfamilies",
    (s) => ((s.spec.ipFamilyPolicy = RDS), ips(s, "10.0.0.1", ["10.0.0.1"]), (s.spec.ipFamilies = ["IPv4", "IPv6"])),
    0,
  ],
  [
    "valid, multi ips, multi ipfamilies (4,6)",
    (s) => ((s.spec.ipFamilyPolicy = RDS), ips(s, "10.0.0.1", ["10.0.0.1", "2001::1"]), (s.spec.ipFamilies = ["IPv4", "IPv6"])),
    0,
  ],
  [
    "valid, ips, multi ipfamilies (6,4)",
    (s) => ((s.spec.ipFamilyPolicy = RDS), ips(s, "2001::1", ["2001::1", "10.0.0.1"]), (s.spec.ipFamilies = ["IPv6", "IPv4"])),
    0,
  ],
  ["valid, multi ips (6,4)", (s) => ((s.spec.ipFamilyPolicy = RDS), ips(s, "2001::1", ["2001::1", "10.0.0.1"])), 0],
  ["valid, multi ipfamilies (6,4)", (s) => ((s.spec.ipFamilyPolicy = RDS), (s.spec.ipFamilies = ["IPv6", "IPv4"])), 0],
  ["valid, multi ips (4,6)", (s) => ((s.spec.ipFamilyPolicy = RDS), ips(s, "10.0.0.1", ["10.0.0.1", "2001::1"])), 0],
  ["valid,  multi ipfamilies (4,6)", (s) => ((s.spec.ipFamilyPolicy = RDS), (s.spec.ipFamilies = ["IPv4", "IPv6"])), 0],
  ["valid, dual stack", (s) => (s.spec.ipFamilyPolicy = RDS), 0],
  [
    "invalid cluster ip != clusterIP in multi ip service",
    (s) => ((s.spec.ipFamilyPolicy = RDS), ips(s, "10.0.0.10", ["10.0.0.1", "2001::1"])),
    1,
  ],
  ["invalid cluster ip != clusterIP in single ip service", (s) => ips(s, "10.0.0.10", ["10.0.0.1"]), 1],
];

describe("validateServiceCreate (upstream TestValidateServiceCreate rows)", () => {
  it.each([...generalRows, ...ipRows])("%s -> %i errors", (_name, tweak, numErrs) => {
    const svc = makeValidService();
    tweak(svc);
    const errs = validateServiceCreate(svc);
    expect(errs, errs.length > 0 ? aggregateMessage(errs) : "no errors").toHaveLength(numErrs);
  });
});

// Upstream TestValidateServiceExternalTrafficPolicy (calls the helper directly).
const etpRows: Array<[string, Tweak, number]> = [
  [
    "valid loadBalancer service with externalTrafficPolicy and healthCheckNodePort set",
    (s) =>
      Object.assign(s.spec, {
        type: "LoadBalancer",
        allocateLoadBalancerNodePorts: true,
        externalTrafficPolicy: "Local",
        healthCheckNodePort: 34567,
      }),
    0,
  ],
  [
    "valid nodePort service with externalTrafficPolicy set",
    (s) => Object.assign(s.spec, { type: "NodePort", externalTrafficPolicy: "Local" }),
    0,
  ],
  ["valid clusterIP service with none of externalTrafficPolicy and healthCheckNodePort set", () => {}, 0],
  [
    "cannot set healthCheckNodePort field on loadBalancer service with externalTrafficPolicy!=Local",
    (s) =>
      Object.assign(s.spec, {
        type: "LoadBalancer",
        allocateLoadBalancerNodePorts: true,
        externalTrafficPolicy: "Cluster",
        healthCheckNodePort: 34567,
      }),
    1,
  ],
  [
    "cannot set healthCheckNodePort field on nodePort service",
    (s) => Object.assign(s.spec, { type: "NodePort", externalTrafficPolicy: "Local", healthCheckNodePort: 34567 }),
    1,
  ],
  [
    "cannot set externalTrafficPolicy or healthCheckNodePort fields on clusterIP service",
    (s) => Object.assign(s.spec, { externalTrafficPolicy: "Local", healthCheckNodePort: 34567 }),
    2,
  ],
  [
    "cannot set externalTrafficPolicy field on ExternalName service",
    (s) => Object.assign(s.spec, { type: "ExternalName", externalTrafficPolicy: "Local" }),
    1,
  ],
  ["externalTrafficPolicy is required on NodePort service", (s) => (s.spec.type = "NodePort"), 1],
  ["externalTrafficPolicy is required on LoadBalancer service", (s) => (s.spec.type = "LoadBalancer"), 1],
  ["externalTrafficPolicy is required on ClusterIP service with externalIPs", (s) => (s.spec.externalIPs = ["1.2.3,4"]), 1],
];

describe("validateServiceExternalTrafficPolicy (upstream rows)", () => {
  it.each(etpRows)("%s -> %i errors", (_name, tweak, numErrs) => {
    const svc = makeValidService();
    tweak(svc);
    expect(validateServiceExternalTrafficPolicy(svc)).toHaveLength(numErrs);
  });
});

// Issue #17: the ClusterIP spellings kube-apiserver 1.33 takes (StrictIPCIDRValidation alpha, off)
// and the ones it refuses, with validation.IsValidIPForLegacyField's message.
describe("clusterIP spellings (1.33, StrictIPCIDRValidation off)", () => {
  const withIP = (ip: string, family: string) => {
    const s = makeValidService();
    ips(s, ip, [ip]);
    s.spec.ipFamilies = [family];
    return s;
  };
  it.each([
    ["010.096.000.030", "IPv4"],
    ["0010.96.0.30", "IPv4"],
    ["::ffff:10.96.0.31", "IPv4"],
    ["::ffff:010.096.000.031", "IPv4"],
    ["fd00:10:96::00ab", "IPv6"],
    ["FD00:10:96::AC", "IPv6"],
    ["fd00:10:96:0:0:0:0:ad", "IPv6"],
  ])("accepts %s", (ip, family) => {
    expect(validateServiceCreate(withIP(ip, family))).toEqual([]);
  });
  it.each([
    ["10.96.0.256", "IPv4"],
    ["0x0a.96.0.30", "IPv4"],
    [" 10.96.0.30", "IPv4"],
    ["10.96.30", "IPv4"],
    ["fd00:10:96::000ab", "IPv6"],
    ["fe80::1%eth0", "IPv6"],
  ])("refuses %s", (ip, family) => {
    expect(aggregateMessage(validateServiceCreate(withIP(ip, family)))).toBe(
      `spec.clusterIPs[0]: Invalid value: "${ip}": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)`,
    );
  });
});
