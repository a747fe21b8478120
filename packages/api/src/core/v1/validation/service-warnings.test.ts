import { describe, expect, it } from "vitest";
import type { Service } from "../service.ts";
import { getWarningsForService } from "./service-warnings.ts";

/** upstream pkg/api/service/warnings_test.go TestGetWarningsForServiceClusterIPs, with the KEP-4858 texts. */
const svc = (spec: Service["spec"], annotations?: Record<string, string>): Service => ({
  metadata: { name: "svc-test", namespace: "ns", ...(annotations ? { annotations } : {}) },
  spec: { type: "ClusterIP", ...spec },
});
const withIPs = (...clusterIPs: string[]): Service => svc({ clusterIP: clusterIPs[0], clusterIPs });
const zeros = (path: string, v: string, use: string) =>
  `${path}: non-standard IP address "${v}" will be considered invalid in a future Kubernetes release: use "${use}"`;
const rfc5952 = (path: string, v: string, use: string) => `${path}: IPv6 address "${v}" should be in RFC 5952 canonical format ("${use}")`;

describe("getWarningsForService", () => {
  it.each<[string, Service, string[]]>([
    ["new topology mode set", svc({}, { "service.kubernetes.io/topology-mode": "foo" }), []],
    [
      "deprecated hints annotation set",
      svc({}, { "service.kubernetes.io/topology-aware-hints": "foo" }),
      ["annotation service.kubernetes.io/topology-aware-hints is deprecated, please use service.kubernetes.io/topology-mode instead"],
    ],
    ["IPv4 No failures", withIPs("192.12.2.2"), []],
    ["IPv6 No failures", withIPs("2001:db8::2"), []],
    ["IPv4 with leading zeros", withIPs("192.012.2.2"), [zeros("spec.clusterIPs[0]", "192.012.2.2", "192.12.2.2")]],
    ["IPv4-mapped IPv6", withIPs("::ffff:192.12.2.2"), [zeros("spec.clusterIPs[0]", "::ffff:192.12.2.2", "192.12.2.2")]],
    [
      "Dual Stack IPv6-IPv4 and IPv4 with leading zeros",
      withIPs("2001:db8::2", "192.012.2.2"),
      [zeros("spec.clusterIPs[1]", "192.012.2.2", "192.12.2.2")],
    ],
    ["IPv6 non canonical format", withIPs("2001:db8:0:0::2"), [rfc5952("spec.clusterIPs[0]", "2001:db8:0:0::2", "2001:db8::2")]],
    ["IPv6 upper case", withIPs("FD00::AB"), [rfc5952("spec.clusterIPs[0]", "FD00::AB", "fd00::ab")]],
    ["headless: no clusterIP warnings", svc({ clusterIP: "None", clusterIPs: ["None"] }), []],
    [
      "Service with all IPs fields with errors",
      svc({
        clusterIP: "2001:db8:0:0::2",
        clusterIPs: ["2001:db8:0:0::2", "192.012.2.2"],
        externalIPs: ["2001:db8:1:0::2", "10.012.2.2"],
        loadBalancerIP: "10.001.1.1",
        loadBalancerSourceRanges: ["2001:db8:1:0::/64", "10.012.2.0/24"],
      }),
      [
        rfc5952("spec.clusterIPs[0]", "2001:db8:0:0::2", "2001:db8::2"),
        zeros("spec.clusterIPs[1]", "192.012.2.2", "192.12.2.2"),
        rfc5952("spec.externalIPs[0]", "2001:db8:1:0::2", "2001:db8:1::2"),
        zeros("spec.externalIPs[1]", "10.012.2.2", "10.12.2.2"),
        zeros("spec.loadBalancerIP", "10.001.1.1", "10.1.1.1"),
        'spec.loadBalancerSourceRanges[0]: IPv6 CIDR value "2001:db8:1:0::/64" should be in RFC 5952 canonical format ("2001:db8:1::/64")',
        'spec.loadBalancerSourceRanges[1]: non-standard CIDR value "10.012.2.0/24" will be considered invalid in a future Kubernetes release: use "10.12.2.0/24"',
      ],
    ],
    [
      "externalIPs with ExternalName",
      svc({ type: "ExternalName", externalName: "example.com", externalIPs: ["1.2.3.4"] }),
      ['spec.externalIPs is ignored when spec.type is "ExternalName"'],
    ],
    [
      "externalName with ClusterIP",
      svc({ externalName: "example.com" }),
      ['spec.externalName is ignored when spec.type is not "ExternalName"'],
    ],
  ])("%s", (_name, service, want) => {
    expect(getWarningsForService(service)).toEqual(want);
  });
});
