import { describe, expect, it } from "vitest";
import { fieldErrorString } from "../../../errors/index.ts";
import type { Endpoints } from "../endpoints.ts";
import type { Namespace } from "../namespace.ts";
import type { Node } from "../node.ts";
import type { Pod } from "../pod.ts";
import { validateEndpoints } from "./endpoints.ts";
import { validateNamespace } from "./namespace.ts";
import { validateNode, validateNodeUpdate } from "./node.ts";
import { validatePod } from "./pod.ts";
import { validateLoadBalancerStatus } from "./service-status.ts";
import { validateNonSpecialIP } from "./special-ip.ts";
import { makeValidService } from "./testing.ts";

const render = (errs: ReturnType<typeof validatePod>) => errs.map(fieldErrorString);
const badIP = "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)";

describe("validateNonSpecialIP", () => {
  it.each([
    ["10.0.0.1", []],
    ["2001:db8::1", []],
    ["0.0.0.0", ["may not be unspecified (0.0.0.0)"]],
    ["::", ["may not be unspecified (::)"]],
    ["127.0.0.2", ["may not be in the loopback range (127.0.0.0/8, ::1/128)"]],
    ["::1", ["may not be in the loopback range (127.0.0.0/8, ::1/128)"]],
    ["fe80::1", ["may not be in the link-local range (169.254.0.0/16, fe80::/10)"]],
    ["224.0.0.251", ["may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)"]],
    ["ff02::fb", ["may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)"]],
    ["ff05::1", []],
    ["bogus", ["must be a valid IP address"]],
  ])("%s", (ip, want) => expect(validateNonSpecialIP(ip, "x").map((e) => e.detail)).toEqual(want));
});

const endpoints = (subsets: Endpoints["subsets"]): Endpoints => ({ metadata: { name: "web", namespace: "default" }, subsets });

describe("validateEndpoints", () => {
  it.each<[string, Endpoints["subsets"], string[]]>([
    ["valid", [{ addresses: [{ ip: "10.1.0.5", nodeName: "n1" }], ports: [{ port: 80, protocol: "TCP" }] }], []],
    ["headless without ports", [{ addresses: [{ ip: "10.1.0.5" }] }], []],
    [
      "no addresses",
      [{ ports: [{ port: 80, protocol: "TCP" }] }],
      ["subsets[0]: Required value: must specify `addresses` or `notReadyAddresses`"],
    ],
    ["bad IP reported once, as 1.33", [{ addresses: [{ ip: "x" }] }], [`subsets[0].addresses[0].ip: Invalid value: "x": ${badIP}`]],
    [
      "bad not-ready IP reported once",
      [{ notReadyAddresses: [{ ip: "10.0.0.256" }] }],
      [`subsets[0].notReadyAddresses[0].ip: Invalid value: "10.0.0.256": ${badIP}`],
    ],
    [
      "loopback not ready address",
      [{ notReadyAddresses: [{ ip: "127.0.0.1" }] }],
      ['subsets[0].notReadyAddresses[0].ip: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)'],
    ],
    [
      "unnamed ports when several",
      [
        {
          addresses: [{ ip: "10.1.0.5" }],
          ports: [
            { port: 80, protocol: "TCP" },
            { name: "b", port: 81, protocol: "UDP" },
          ],
        },
      ],
      ["subsets[0].ports[0].name: Required value"],
    ],
    ["missing protocol", [{ addresses: [{ ip: "10.1.0.5" }], ports: [{ port: 80 }] }], ["subsets[0].ports[0].protocol: Required value"]],
  ])("%s", (_n, subsets, want) => expect(render(validateEndpoints(endpoints(subsets)))).toEqual(want));
});

const pod = (
  status: Pod["status"],
  containers: Pod["spec"]["containers"] = [{ name: "c", image: "nginx", ports: [{ containerPort: 80, protocol: "TCP" }] }],
): Pod => ({
  metadata: { name: "p", namespace: "default" },
  spec: { containers },
  ...(status ? { status } : {}),
});

describe("validatePod (minimal)", () => {
  it.each<[string, Pod, string[]]>([
    ["pending pod", pod(undefined), []],
    [
      "dual-stack IPs",
      pod({ podIP: "10.1.0.5", podIPs: [{ ip: "10.1.0.5" }, { ip: "fd00::5" }], hostIP: "192.168.1.2", hostIPs: [{ ip: "192.168.1.2" }] }),
      [],
    ],
    [
      "two IPv4 pod IPs",
      pod({ podIP: "10.1.0.5", podIPs: [{ ip: "10.1.0.5" }, { ip: "10.1.0.6" }] }),
      [
        'status.podIPs: Invalid value: []interface {}{{"ip":"10.1.0.5"}, {"ip":"10.1.0.6"}}: may specify no more than one IP for each IP family',
      ],
    ],
    [
      "podIP differs from podIPs[0]",
      pod({ podIP: "10.1.0.6", podIPs: [{ ip: "10.1.0.5" }] }),
      ['status.podIPs[0].ip: Invalid value: "10.1.0.5": must be equal to `podIP`'],
    ],
    ["bad pod IP", pod({ podIP: "x", podIPs: [{ ip: "x" }] }), [`status.podIPs[0]: Invalid value: "x": ${badIP}`]],
    [
      "hostIP differs",
      pod({ hostIP: "192.168.1.3", hostIPs: [{ ip: "192.168.1.2" }] }),
      ['status.hostIPs[0].ip: Invalid value: "192.168.1.2": must be equal to `hostIP`'],
    ],
    ["no containers", pod(undefined, []), ["spec.containers: Required value"]],
    [
      "bad container",
      pod(undefined, [{ name: "C", ports: [{ containerPort: 0, protocol: "ICMP" }] }]),
      [
        expect.stringContaining('spec.containers[0].name: Invalid value: "C": a lowercase RFC 1123 label'),
        "spec.containers[0].image: Required value",
        "spec.containers[0].ports[0].containerPort: Invalid value: 0: must be between 1 and 65535, inclusive",
        'spec.containers[0].ports[0].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
      ],
    ],
  ])("%s", (_n, p, want) => expect(render(validatePod(p))).toEqual(want));
});

describe("validateNamespace and validateNode", () => {
  it.each<[string, Namespace, string[]]>([
    ["valid", { metadata: { name: "dev" }, spec: { finalizers: ["kubernetes", "example.com/x"] } }, []],
    ["namespaced namespace", { metadata: { name: "dev", namespace: "x" } }, ["metadata.namespace: Forbidden: not allowed on this type"]],
    ["subdomain name is not a label", { metadata: { name: "a.b" } }, ['metadata.name: Invalid value: "a.b": must not contain dots']],
    [
      "unknown bare finalizer",
      { metadata: { name: "dev" }, spec: { finalizers: ["mine"] } },
      ['spec.finalizers: Invalid value: "mine": name is neither a standard finalizer name nor is it fully qualified'],
    ],
  ])("namespace: %s", (_n, ns, want) => expect(render(validateNamespace(ns))).toEqual(want));

  const node = (podCIDRs: string[]): Node => ({ metadata: { name: "n1", resourceVersion: "1" }, spec: { podCIDRs } });
  it.each<[string, string[], string[]]>([
    ["dual", ["10.1.0.0/24", "fd00:1::/64"], []],
    [
      "same family",
      ["10.1.0.0/24", "10.2.0.0/24"],
      ['spec.podCIDRs: Invalid value: []string{"10.1.0.0/24", "10.2.0.0/24"}: may specify no more than one CIDR for each IP family'],
    ],
    [
      "bad CIDR",
      ["10.1.0.0/33"],
      ['spec.podCIDRs[0]: Invalid value: "10.1.0.0/33": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)'],
    ],
  ])("node: %s", (_n, cidrs, want) => expect(render(validateNode(node(cidrs)))).toEqual(want));

  it("node podCIDRs may be set once, not changed", () => {
    expect(validateNodeUpdate(node(["10.1.0.0/24"]), node([]))).toEqual([]);
    expect(render(validateNodeUpdate(node(["10.2.0.0/24"]), node(["10.1.0.0/24"])))).toEqual([
      'spec.podCIDRs: Forbidden: node updates may not change podCIDR except from "" to valid',
    ]);
  });
});

describe("validateLoadBalancerStatus", () => {
  it("requires ipMode with ip, forbids ingress on non-LB, rejects IP hostnames", () => {
    const s = makeValidService();
    s.status = { loadBalancer: { ingress: [{ ip: "192.0.2.1" }] } };
    expect(render(validateLoadBalancerStatus(s, "status.loadBalancer"))).toEqual([
      "status.loadBalancer.ingress: Forbidden: may only be used when `spec.type` is 'LoadBalancer'",
    ]);
    s.spec.type = "LoadBalancer";
    s.status = {
      loadBalancer: { ingress: [{ ip: "192.0.2.1" }, { hostname: "192.0.2.2" }, { hostname: "lb.example.com", ipMode: "VIP" }] },
    };
    expect(render(validateLoadBalancerStatus(s, "status.loadBalancer"))).toEqual([
      "status.loadBalancer.ingress[0].ipMode: Required value: must be specified when `ip` is set",
      'status.loadBalancer.ingress[1].hostname: Invalid value: "192.0.2.2": must be a DNS name, not an IP address',
      "status.loadBalancer.ingress[2].ipMode: Forbidden: may not be specified when `ip` is not set",
    ]);
  });
});
