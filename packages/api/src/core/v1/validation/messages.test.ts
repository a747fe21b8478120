// Exact rendered messages of pkg/apis/core/validation/validation.go ValidateService and
// ValidateServiceUpdate, as kubectl would print them.
import { describe, expect, it } from "vitest";
import { fieldErrorString } from "../../../errors/index.ts";
import type { Service, ServiceSpec } from "../service.ts";
import {
  validateServiceClusterIPsRelatedFields,
  validateUpgradeDowngradeClusterIPs,
  validateUpgradeDowngradeIPFamilies,
} from "./cluster-ips.ts";
import { validateService } from "./service.ts";
import { makeValidService } from "./testing.ts";

const svc = (spec: Partial<ServiceSpec>): Service => {
  const s = makeValidService();
  Object.assign(s.spec, spec);
  return s;
};
const render = (errs: ReturnType<typeof validateService>) => errs.map(fieldErrorString);
const badIP = "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)";

describe("validateServiceClusterIPsRelatedFields messages", () => {
  it.each<[string, Partial<ServiceSpec>, string[]]>([
    ["clusterIP without clusterIPs", { clusterIP: "10.0.0.1" }, ["spec.clusterIPs: Required value"]],
    [
      "first value mismatch",
      { clusterIP: "10.0.0.1", clusterIPs: ["10.0.0.2"] },
      ['spec.clusterIPs: Invalid value: []string{"10.0.0.2"}: first value must match `clusterIP`'],
    ],
    [
      "clusterIPs without clusterIP, and the empty string",
      { clusterIPs: [""] },
      [
        'spec.clusterIPs: Invalid value: []string{""}: must be empty when `clusterIP` is not specified',
        `spec.clusterIPs[0]: Invalid value: "": ${badIP}`,
      ],
    ],
    ["bad family", { ipFamilies: ["IPv5"] }, ['spec.ipFamilies[0]: Unsupported value: "IPv5": supported values: "IPv4", "IPv6"']],
    ["duplicate family", { ipFamilies: ["IPv4", "IPv6", "IPv4"] }, ['spec.ipFamilies[2]: Duplicate value: "IPv4"']],
    [
      "bad policy",
      { ipFamilyPolicy: "Dual" },
      ['spec.ipFamilyPolicy: Unsupported value: "Dual": supported values: "PreferDualStack", "RequireDualStack", "SingleStack"'],
    ],
    [
      "None not alone",
      { clusterIP: "None", clusterIPs: ["None", "2001::1"] },
      ['spec.clusterIPs: Invalid value: []string{"None", "2001::1"}: \'None\' must be the first and only value'],
    ],
    ["None second", { clusterIP: "10.0.0.1", clusterIPs: ["10.0.0.1", "None"] }, [`spec.clusterIPs[1]: Invalid value: "None": ${badIP}`]],
    [
      "three IPs",
      { clusterIP: "10.0.0.1", clusterIPs: ["10.0.0.1", "2001::1", "10.0.0.2"] },
      ['spec.clusterIPs: Invalid value: []string{"10.0.0.1", "2001::1", "10.0.0.2"}: may only hold up to 2 values'],
    ],
    [
      "same family twice",
      { clusterIP: "10.0.0.1", clusterIPs: ["10.0.0.1", "10.0.0.2"] },
      ['spec.clusterIPs: Invalid value: []string{"10.0.0.1", "10.0.0.2"}: may specify no more than one IP for each IP family'],
    ],
    [
      "v4 family, v6 IP",
      { clusterIP: "2001::1", clusterIPs: ["2001::1"], ipFamilies: ["IPv4"] },
      ['spec.clusterIPs[0]: Invalid value: "2001::1": expected an IPv4 value as indicated by `ipFamilies[0]`'],
    ],
    [
      "v6 family, v4 IP",
      { clusterIP: "10.0.0.1", clusterIPs: ["10.0.0.1"], ipFamilies: ["IPv6"] },
      ['spec.clusterIPs[0]: Invalid value: "10.0.0.1": expected an IPv6 value as indicated by `ipFamilies[0]`'],
    ],
    ["SingleStack with two families is left to the registry", { ipFamilyPolicy: "SingleStack", ipFamilies: ["IPv4", "IPv6"] }, []],
    ["ExternalName is not checked here", { type: "ExternalName", clusterIPs: ["garbage"] }, []],
  ])("%s", (_n, spec, want) => expect(render(validateServiceClusterIPsRelatedFields(svc(spec)))).toEqual(want));
});

describe("validateService type rules", () => {
  it.each<[string, Partial<ServiceSpec>, string[]]>([
    [
      "headless LoadBalancer",
      {
        type: "LoadBalancer",
        allocateLoadBalancerNodePorts: true,
        externalTrafficPolicy: "Cluster",
        clusterIP: "None",
        clusterIPs: ["None"],
      },
      ["spec.clusterIPs[0]: Invalid value: \"None\": may not be set to 'None' for LoadBalancer services"],
    ],
    [
      "headless NodePort",
      { type: "NodePort", externalTrafficPolicy: "Cluster", clusterIP: "None", clusterIPs: ["None"] },
      ["spec.clusterIPs[0]: Invalid value: \"None\": may not be set to 'None' for NodePort services"],
    ],
    [
      "ExternalName with IP fields",
      {
        type: "ExternalName",
        externalName: "example.com.",
        clusterIP: "10.0.0.1",
        clusterIPs: ["10.0.0.1"],
        ipFamilies: ["IPv4"],
        ipFamilyPolicy: "SingleStack",
      },
      [
        "spec.clusterIPs: Forbidden: may not be set for ExternalName services",
        "spec.ipFamilies: Forbidden: may not be set for ExternalName services",
        "spec.ipFamilyPolicy: Forbidden: may not be set for ExternalName services",
      ],
    ],
    ["ExternalName without a name", { type: "ExternalName" }, ["spec.externalName: Required value"]],
    [
      "nodePort on ClusterIP",
      { ports: [{ name: "p", protocol: "TCP", port: 80, targetPort: 80, nodePort: 30080 }] },
      ["spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"],
    ],
    [
      "LB without allocateLoadBalancerNodePorts",
      { type: "LoadBalancer", externalTrafficPolicy: "Cluster" },
      ["allocateLoadBalancerNodePorts: Required value"],
    ],
    [
      "bad type",
      { type: "Headless" },
      ['spec.type: Unsupported value: "Headless": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"'],
    ],
    [
      "port range",
      { ports: [{ name: "p", protocol: "TCP", port: 70000, targetPort: 80 }] },
      ["spec.ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive"],
    ],
    [
      "bad protocol",
      { ports: [{ name: "p", protocol: "ICMP", port: 80, targetPort: 80 }] },
      ['spec.ports[0].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"'],
    ],
    [
      "duplicate port and name",
      {
        ports: [
          { name: "p", protocol: "TCP", port: 80, targetPort: 80 },
          { name: "p", protocol: "TCP", port: 80, targetPort: 81 },
        ],
      },
      ['spec.ports[1].name: Duplicate value: "p"', 'spec.ports[1]: Duplicate value: {"port":80,"protocol":"TCP"}'],
    ],
    [
      "source ranges on ClusterIP",
      { loadBalancerSourceRanges: ["10.0.0.0/8"] },
      ["spec.LoadBalancerSourceRanges: Forbidden: may only be used when `type` is 'LoadBalancer'"],
    ],
    [
      "external IP link-local",
      { externalTrafficPolicy: "Cluster", externalIPs: ["169.254.1.1"] },
      ['spec.externalIPs[0]: Invalid value: "169.254.1.1": may not be in the link-local range (169.254.0.0/16, fe80::/10)'],
    ],
    [
      "ClientIP without timeout config",
      { sessionAffinity: "ClientIP" },
      ["spec.sessionAffinityConfig: Required value: when session affinity type is ClientIP"],
    ],
    [
      "timeout too long",
      { sessionAffinity: "ClientIP", sessionAffinityConfig: { clientIP: { timeoutSeconds: 86401 } } },
      ["spec.sessionAffinityConfig.clientIP.timeoutSeconds: Invalid value: 86401: must be greater than 0 and less than 86400"],
    ],
    [
      "ETP on ClusterIP",
      { externalTrafficPolicy: "Local" },
      ['spec.externalTrafficPolicy: Invalid value: "Local": may only be set for externally-accessible services'],
    ],
    [
      "HCNP required for LB Local",
      { type: "LoadBalancer", allocateLoadBalancerNodePorts: true, externalTrafficPolicy: "Local" },
      ["spec.healthCheckNodePort: Required value"],
    ],
    ["ITP required", { internalTrafficPolicy: undefined }, ["spec.internalTrafficPolicy: Required value"]],
  ])("%s", (_n, spec, want) => {
    const s = svc(spec);
    if ("internalTrafficPolicy" in spec && spec.internalTrafficPolicy === undefined) delete s.spec.internalTrafficPolicy;
    expect(render(validateService(s))).toEqual(want);
  });

  it("rejects a Service name that is not a DNS-1035 label", () => {
    const s = makeValidService();
    s.metadata.name = "1web";
    expect(render(validateService(s))).toEqual([
      "metadata.name: Invalid value: \"1web\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    ]);
  });
});

describe("upgrade/downgrade messages", () => {
  const dual = {
    clusterIP: "10.0.0.1",
    clusterIPs: ["10.0.0.1", "2000::1"],
    ipFamilies: ["IPv4", "IPv6"],
    ipFamilyPolicy: "RequireDualStack",
  };
  it.each<[string, Partial<ServiceSpec>, Partial<ServiceSpec>, string[]]>([
    [
      "primary unset",
      { clusterIP: "10.0.0.1", clusterIPs: ["10.0.0.1"] },
      { clusterIP: "", clusterIPs: [] },
      ["spec.clusterIPs[0]: Invalid value: []string{}: primary clusterIP can not be unset"],
    ],
    [
      "secondary changed",
      dual,
      { ...dual, clusterIPs: ["10.0.0.1", "2000::2"] },
      ['spec.clusterIPs[1]: Invalid value: []string{"10.0.0.1", "2000::2"}: may not change once set'],
    ],
    [
      "release without SingleStack",
      dual,
      { ...dual, clusterIPs: ["10.0.0.1"], ipFamilies: ["IPv4"], ipFamilyPolicy: "PreferDualStack" },
      [
        "spec.ipFamilyPolicy: Invalid value: \"PreferDualStack\": must be set to 'SingleStack' when releasing the secondary clusterIP",
        "spec.ipFamilyPolicy: Invalid value: \"PreferDualStack\": must be set to 'SingleStack' when releasing the secondary ipFamily",
      ],
    ],
    [
      "policy unset on release",
      dual,
      { clusterIP: "10.0.0.1", clusterIPs: ["10.0.0.1"], ipFamilies: ["IPv4", "IPv6"] },
      [`spec.ipFamilyPolicy: Invalid value: "null": must be set to 'SingleStack' when releasing the secondary clusterIP`],
    ],
    [
      "families reordered (always index 0)",
      dual,
      { ...dual, ipFamilies: ["IPv6", "IPv4"] },
      [
        'spec.ipFamilies[0]: Invalid value: []string{"IPv6", "IPv4"}: may not change once set',
        'spec.ipFamilies[0]: Invalid value: []string{"IPv6", "IPv4"}: may not change once set',
      ],
    ],
    [
      "families primary unset",
      { ...dual, clusterIPs: ["10.0.0.1"], ipFamilies: ["IPv4"] },
      { clusterIP: "", clusterIPs: [], ipFamilies: [] },
      [
        "spec.clusterIPs[0]: Invalid value: []string{}: primary clusterIP can not be unset",
        "spec.ipFamilies[0]: Invalid value: []string{}: primary ipFamily can not be unset",
      ],
    ],
    [
      "headless may change families",
      { clusterIP: "None", clusterIPs: ["None"], ipFamilies: ["IPv4"] },
      { clusterIP: "None", clusterIPs: ["None"], ipFamilies: ["IPv6", "IPv4"] },
      [],
    ],
    ["to ExternalName skips both", dual, { type: "ExternalName", externalName: "x" }, []],
  ])("%s", (_n, before, after, want) => {
    const o = svc(before);
    const n = svc(after);
    expect(render([...validateUpgradeDowngradeClusterIPs(o, n), ...validateUpgradeDowngradeIPFamilies(o, n)])).toEqual(want);
  });
});
