// Rows ported from upstream TestValidateServiceUpdate (pkg/apis/core/validation/validation_test.go,
// commit 000f2605): both objects start as makeValidService(), then the row tweaks them.
import { describe, expect, it } from "vitest";
import { aggregateMessage } from "../../../errors/index.ts";
import type { Service, ServiceSpec } from "../service.ts";
import { validateServiceUpdate } from "./service.ts";
import { makeValidService } from "./testing.ts";

type Tweak = (oldSvc: Service, newSvc: Service) => void;
const set = (s: Service, spec: Partial<ServiceSpec>) => Object.assign(s.spec, spec);
const lb = { type: "LoadBalancer", allocateLoadBalancerNodePorts: true };
const lbNew = { ...lb, externalTrafficPolicy: "Cluster" };
const np = { type: "NodePort", externalTrafficPolicy: "Cluster" };
const v4 = { clusterIP: "1.2.3.4", clusterIPs: ["1.2.3.4"] };
const v4b = { clusterIP: "1.2.3.5", clusterIPs: ["1.2.3.5"] };
const dual = { clusterIP: "1.2.3.4", clusterIPs: ["1.2.3.4", "2001::1"] };
const none = { clusterIP: "None", clusterIPs: ["None"] };
const empty = { clusterIP: "", clusterIPs: undefined };
const RDS = "RequireDualStack";
const SS = "SingleStack";
const PDS = "PreferDualStack";

// [name, old type spec, new type spec] for the "can/cannot change ClusterIP when changing type" matrix.
const typeMatrix: Array<[string, Partial<ServiceSpec>, Partial<ServiceSpec>]> = [
  ["ClusterIP", {}, {}],
  ["ClusterIP when changing type to NodePort", {}, np],
  ["ClusterIP when changing type to LoadBalancer", {}, lbNew],
  ["NodePort", np, np],
  ["NodePort when changing type to ClusterIP", np, { type: "ClusterIP" }],
  ["NodePort when changing type to LoadBalancer", np, lbNew],
  ["LoadBalancer", lb, lbNew],
  ["LoadBalancer when changing type to ClusterIP", lb, { type: "ClusterIP" }],
  ["LoadBalancer when changing type to NodePort", lb, np],
];
const typeRows: Array<[string, Tweak, number]> = typeMatrix.flatMap(([name, o, n]): Array<[string, Tweak, number]> => [
  [`${name}: cannot change its set ClusterIP`, (os, ns) => (set(os, { ...o, ...v4 }), set(ns, { ...n, ...v4b })), 1],
  [`${name}: can change its empty ClusterIP`, (os, ns) => (set(os, { ...o, ...empty }), set(ns, { ...n, ...v4b })), 0],
]);

const rows: Array<[string, Tweak, number]> = [
  ["no change", () => {}, 0],
  ["change name", (_o, n) => (n.metadata.name += "2"), 1],
  ["change namespace", (_o, n) => (n.metadata.namespace += "2"), 1],
  ["change label valid", (_o, n) => (n.metadata.labels!.key = "other-value"), 0],
  ["change cluster IP", (o, n) => (set(o, v4), set(n, { clusterIP: "8.6.7.5", clusterIPs: ["8.6.7.5"] })), 1],
  ["remove cluster IP", (o, n) => (set(o, v4), set(n, empty)), 1],
  ["change affinity", (_o, n) => set(n, { sessionAffinity: "ClientIP", sessionAffinityConfig: { clientIP: { timeoutSeconds: 90 } } }), 0],
  ["remove affinity", (_o, n) => set(n, { sessionAffinity: "" }), 1],
  ["change type", (_o, n) => set(n, lbNew), 0],
  ["remove type", (_o, n) => set(n, { type: "" }), 1],
  ["change type -> nodeport", (_o, n) => set(n, np), 0],
  ["add loadBalancerSourceRanges", (o, n) => (set(o, lb), set(n, { ...lbNew, loadBalancerSourceRanges: ["10.0.0.0/8"] })), 0],
  [
    "update loadBalancerSourceRanges",
    (o, n) => (
      set(o, { ...lb, loadBalancerSourceRanges: ["10.0.0.0/8"] }),
      set(n, { ...lbNew, loadBalancerSourceRanges: ["10.100.0.0/16"] })
    ),
    0,
  ],
  ["LoadBalancer type cannot have None ClusterIP", (_o, n) => set(n, { ...none, ...lbNew }), 1],
  ["`None` ClusterIP can NOT be changed", (o, n) => (set(o, none), set(n, v4)), 1],
  ["`None` ClusterIP can NOT be removed", (o, n) => (set(o, none), set(n, empty)), 1],
  ["ClusterIP can NOT be changed to None", (o, n) => (set(o, v4), set(n, none)), 1],
  ...typeRows,
  [
    "LoadBalancer can change AllocateLoadBalancerNodePorts from true to false",
    (o, n) => (set(o, lb), set(n, { ...lbNew, allocateLoadBalancerNodePorts: false })),
    0,
  ],
  [
    "LoadBalancer can change AllocateLoadBalancerNodePorts from false to true",
    (o, n) => (set(o, { ...lb, allocateLoadBalancerNodePorts: false }), set(n, lbNew)),
    0,
  ],
  [
    "ExternalName can change its empty ClusterIP when changing type to ClusterIP",
    (o, n) => (set(o, { type: "ExternalName", ...empty }), set(n, v4b)),
    0,
  ],
  [
    "ExternalName can change its set ClusterIP when changing type to ClusterIP",
    (o, n) => (set(o, { type: "ExternalName", ...v4 }), set(n, v4b)),
    0,
  ],
  [
    "invalid node port with clusterIP None",
    (o, n) => {
      set(o, { type: "NodePort", ...empty });
      set(n, { ...np, ...none });
      for (const s of [o, n]) s.spec.ports!.push({ name: "q", port: 1, protocol: "TCP", nodePort: 1, targetPort: 1 });
    },
    1,
  ],
  // Service IP family
  ["convert from ExternalName", (o) => set(o, { type: "ExternalName" }), 0],
  [
    "invalid: convert to ExternalName",
    (o, n) => {
      const ipFields = { clusterIP: "10.0.0.10", clusterIPs: ["10.0.0.10"], ipFamilies: ["IPv4"], ipFamilyPolicy: SS };
      set(o, ipFields);
      // Not clearing these is a validation error; the strategy would clear them.
      set(n, { ...ipFields, type: "ExternalName", externalName: "foo" });
    },
    3,
  ],
  [
    "valid: convert to ExternalName",
    (o, n) => (
      set(o, { clusterIP: "10.0.0.10", clusterIPs: ["10.0.0.10"], ipFamilies: ["IPv4"], ipFamilyPolicy: SS }),
      set(n, { type: "ExternalName", externalName: "foo" })
    ),
    0,
  ],
  ["same ServiceIPFamily", (o, n) => (set(o, { ipFamilies: ["IPv4"] }), set(n, { ipFamilies: ["IPv4"] })), 0],
  [
    "same ServiceIPFamily, change IPFamilyPolicy to singleStack",
    (o, n) => (set(o, { ipFamilies: ["IPv4"] }), set(n, { ipFamilyPolicy: SS, ipFamilies: ["IPv4"] })),
    0,
  ],
  [
    "same ServiceIPFamily, change IPFamilyPolicy singleStack => requireDualStack",
    (o, n) => (set(o, { ipFamilyPolicy: SS, ipFamilies: ["IPv4"] }), set(n, { ipFamilyPolicy: RDS, ipFamilies: ["IPv4"] })),
    0,
  ],
  [
    "add a new ServiceIPFamily",
    (o, n) => (set(o, { ipFamilyPolicy: RDS, ipFamilies: ["IPv4"] }), set(n, { ipFamilyPolicy: RDS, ipFamilies: ["IPv4", "IPv6"] })),
    0,
  ],
  [
    "ExternalName while changing Service IPFamily",
    (o, n) => (set(o, { type: "ExternalName", externalName: "somename" }), set(n, { type: "ExternalName", externalName: "somename" })),
    0,
  ],
  ["setting ipfamily from nil to v4", (_o, n) => set(n, { externalName: "somename", ipFamilies: ["IPv4"] }), 0],
  ["setting ipfamily from nil to v6", (_o, n) => set(n, { externalName: "somename", ipFamilies: ["IPv6"] }), 0],
  ["change primary ServiceIPFamily", (o, n) => (set(o, { ...v4, ipFamilies: ["IPv4"] }), set(n, { ...v4, ipFamilies: ["IPv6"] })), 2],
  // upgrade + downgrade from/to dual-stack
  // (upstream sets the old object's policy here, a typo kept for fidelity: the new policy stays unset)
  [
    "valid: upgrade to dual stack with requiredDualStack",
    (o, n) => (set(o, { ...v4, ipFamilyPolicy: RDS, ipFamilies: ["IPv4"] }), set(n, { ...v4, ipFamilies: ["IPv4"] })),
    0,
  ],
  [
    "valid: upgrade to dual stack with preferDualStack",
    (o, n) => (set(o, { ...v4, ipFamilyPolicy: SS, ipFamilies: ["IPv4"] }), set(n, { ...v4, ipFamilyPolicy: PDS, ipFamilies: ["IPv4"] })),
    0,
  ],
  [
    "valid: upgrade to dual stack, no specific secondary ip",
    (o, n) => (
      set(o, { ...v4, ipFamilyPolicy: SS, ipFamilies: ["IPv4"] }),
      set(n, { ...v4, ipFamilyPolicy: RDS, ipFamilies: ["IPv4", "IPv6"] })
    ),
    0,
  ],
  [
    "valid: upgrade to dual stack, with specific secondary ip",
    (o, n) => (
      set(o, { ...v4, ipFamilyPolicy: SS, ipFamilies: ["IPv4"] }),
      set(n, { ...dual, ipFamilyPolicy: RDS, ipFamilies: ["IPv4", "IPv6"] })
    ),
    0,
  ],
  [
    "valid: downgrade from dual to single",
    (o, n) => (
      set(o, { ...dual, ipFamilyPolicy: RDS, ipFamilies: ["IPv4", "IPv6"] }),
      set(n, { ...v4, ipFamilyPolicy: SS, ipFamilies: ["IPv4"] })
    ),
    0,
  ],
  [
    "valid: change families for a headless service",
    (o, n) => (
      set(o, { ...none, ipFamilyPolicy: RDS, ipFamilies: ["IPv4", "IPv6"] }),
      set(n, { ...none, ipFamilyPolicy: RDS, ipFamilies: ["IPv6", "IPv4"] })
    ),
    0,
  ],
  [
    "valid: upgrade a headless service",
    (o, n) => (
      set(o, { ...none, ipFamilyPolicy: SS, ipFamilies: ["IPv4"] }),
      set(n, { ...none, ipFamilyPolicy: RDS, ipFamilies: ["IPv6", "IPv4"] })
    ),
    0,
  ],
  [
    "valid: downgrade a headless service",
    (o, n) => (
      set(o, { ...none, ipFamilyPolicy: RDS, ipFamilies: ["IPv4", "IPv6"] }),
      set(n, { ...none, ipFamilyPolicy: SS, ipFamilies: ["IPv6"] })
    ),
    0,
  ],
  [
    "invalid flip families",
    (o, n) => (
      set(o, { clusterIP: "1.2.3.40", clusterIPs: ["1.2.3.4", "2001::1"], ipFamilyPolicy: RDS, ipFamilies: ["IPv4", "IPv6"] }),
      set(n, { clusterIP: "2001::1", clusterIPs: ["2001::1", "1.2.3.5"], ipFamilyPolicy: RDS, ipFamilies: ["IPv6", "IPv4"] })
    ),
    4,
  ],
  [
    "invalid change first ip, in dualstack service",
    (o, n) => (
      set(o, { ...dual, ipFamilyPolicy: RDS, ipFamilies: ["IPv4", "IPv6"] }),
      set(n, { clusterIP: "1.2.3.5", clusterIPs: ["1.2.3.5", "2001::1"], ipFamilyPolicy: RDS, ipFamilies: ["IPv4", "IPv6"] })
    ),
    1,
  ],
  [
    "invalid, change second ip in dualstack service",
    (o, n) => (
      set(o, { ...dual, ipFamilyPolicy: RDS, ipFamilies: ["IPv4", "IPv6"] }),
      set(n, { clusterIP: "1.2.3.4", clusterIPs: ["1.2.3.4", "2002::1"], ipFamilyPolicy: RDS, ipFamilies: ["IPv4", "IPv6"] })
    ),
    1,
  ],
  [
    "downgrade keeping the families (trimmed in strategy)",
    (o, n) => (
      set(o, { ...dual, ipFamilyPolicy: RDS, ipFamilies: ["IPv4", "IPv6"] }),
      set(n, { ...v4, ipFamilyPolicy: SS, ipFamilies: ["IPv4", "IPv6"] })
    ),
    0,
  ],
  [
    "invalid, downgrade without changing to singleStack",
    (o, n) => (
      set(o, { ...dual, ipFamilyPolicy: RDS, ipFamilies: ["IPv4", "IPv6"] }),
      set(n, { ...v4, ipFamilyPolicy: RDS, ipFamilies: ["IPv4"] })
    ),
    2,
  ],
  [
    "invalid, downgrade and change primary ip",
    (o, n) => (
      set(o, { ...dual, ipFamilyPolicy: RDS, ipFamilies: ["IPv4", "IPv6"] }),
      set(n, { ...v4b, ipFamilyPolicy: SS, ipFamilies: ["IPv4"] })
    ),
    1,
  ],
  [
    "invalid: upgrade to dual stack and change primary",
    (o, n) => (
      set(o, { ...v4, ipFamilyPolicy: SS, ipFamilies: ["IPv4"] }),
      set(n, { ...v4b, ipFamilyPolicy: RDS, ipFamilies: ["IPv4", "IPv6"] })
    ),
    1,
  ],
  [
    "update to valid app protocol",
    (o, n) => (
      (o.spec.ports = [{ name: "a", port: 443, targetPort: 3000, protocol: "TCP" }]),
      (n.spec.ports = [{ name: "a", port: 443, targetPort: 3000, protocol: "TCP", appProtocol: "https" }])
    ),
    0,
  ],
  [
    "update to invalid app protocol",
    (o, n) => (
      (o.spec.ports = [{ name: "a", port: 443, targetPort: 3000, protocol: "TCP" }]),
      (n.spec.ports = [{ name: "a", port: 443, targetPort: 3000, protocol: "TCP", appProtocol: "~https" }])
    ),
    1,
  ],
  ["Set AllocateLoadBalancerNodePorts when type is not LoadBalancer", (_o, n) => set(n, { allocateLoadBalancerNodePorts: true }), 1],
  [
    "update LoadBalancer type of service without change LoadBalancerClass",
    (o, n) => (set(o, { ...lb, loadBalancerClass: "test.com/test-old" }), set(n, { ...lbNew, loadBalancerClass: "test.com/test-old" })),
    0,
  ],
  [
    "invalid: change LoadBalancerClass when update service",
    (o, n) => (set(o, { ...lb, loadBalancerClass: "test.com/test-old" }), set(n, { ...lbNew, loadBalancerClass: "test.com/test-new" })),
    1,
  ],
  [
    "invalid: unset LoadBalancerClass when update service",
    (o, n) => (set(o, { ...lb, loadBalancerClass: "test.com/test-old" }), set(n, lbNew)),
    1,
  ],
  [
    "invalid: set LoadBalancerClass when update service",
    (o, n) => (set(o, lb), set(n, { ...lbNew, loadBalancerClass: "test.com/test-new" })),
    1,
  ],
  [
    "update to LoadBalancer type of service with valid LoadBalancerClass",
    (_o, n) => set(n, { ...lbNew, loadBalancerClass: "test.com/test-load-balancer-class" }),
    0,
  ],
];

describe("validateServiceUpdate (upstream TestValidateServiceUpdate rows)", () => {
  it.each(rows)("%s -> %i errors", (_name, tweak, numErrs) => {
    const oldSvc = makeValidService();
    const newSvc = makeValidService();
    tweak(oldSvc, newSvc);
    // Upstream's tweaks assign undefined for "unset"; our objects simply omit the key.
    for (const s of [oldSvc, newSvc]) if (s.spec.clusterIPs === undefined) delete s.spec.clusterIPs;
    const errs = validateServiceUpdate(newSvc, oldSvc);
    expect(errs, errs.length > 0 ? aggregateMessage(errs) : "no errors").toHaveLength(numErrs);
  });
});
