import type { EndpointSlice, IPFamily, Service } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import { IptablesProxier } from "../../iptables/proxier.ts";
import type { IptablesProxierOptions } from "../../iptables/proxier.ts";
import { populate } from "../../proxy/populate.ts";
import { makeTestEndpointSlice, makeTestService, tcpPort } from "../../testing/fixtures.ts";
import {
  fakeInterfaceAddrs,
  flowPacket,
  flowSummary,
  testExternalClient,
  testNodeIP,
  testNodeIPAlt,
  testNodeIPs,
  testNodeIPv6,
  testNodeIPv6Alt,
} from "../../testing/packet-flows.ts";
import type { PacketFlowTest } from "../../testing/packet-flows.ts";
import { clusterIPGeneral, loadBalancer, noEndpointsReject } from "../../testing/flow-scenarios.ts";
import { overallServices, overallSlices, testNodeName } from "../../testing/upstream-services.ts";
import { traceIptables } from "./evaluate.ts";
import { IptablesRuleset } from "./ruleset.ts";

/** Upstream's NewFakeProxier: pod CIDR 10.0.0.0/8 (fd00:10::/64), localhost NodePorts, the test node IPs. */
function rulesFor(
  family: IPFamily,
  services: Service[],
  slices: EndpointSlice[],
  extra: Partial<IptablesProxierOptions> = {},
): IptablesRuleset {
  const v4 = family === "IPv4";
  const p = new IptablesProxier({
    ipFamily: family,
    nodeName: testNodeName,
    clusterCIDR: v4 ? "10.0.0.0/8" : "fd00:10::/64",
    localhostNodePorts: v4,
    nodeIPs: testNodeIPs.filter((ip) => ip.includes(":") !== v4),
    ...extra,
  });
  populate(p, services, slices);
  const r = p.syncProxyRules();
  if (r === null) throw new Error("proxier not initialized");
  return new IptablesRuleset({ kubeletJumpRules: v4 }).restore(r.data);
}

function runPacketFlowTests(rules: () => IptablesRuleset, cases: readonly PacketFlowTest[]): void {
  it.each(cases)("$name", (tc) => {
    const r = traceIptables(rules(), flowPacket(tc, testNodeIPs), { localIPs: testNodeIPs });
    expect(flowSummary(r)).toEqual({ output: tc.output, masq: tc.masq ?? false });
  });
}

const once = <T>(f: () => T): (() => T) => {
  let v: T | undefined;
  return () => (v ??= f());
};

describe("TestTracePacket (upstream's static flows, on this proxier's TestOverallIPTablesRules output)", () => {
  runPacketFlowTests(
    once(() => rulesFor("IPv4", overallServices(false), overallSlices())),
    [
      { name: "no match", sourceIP: "10.0.0.2", destIP: "10.0.0.3", destPort: 80, output: "" },
      { name: "single endpoint", sourceIP: "10.0.0.2", destIP: "172.30.0.41", destPort: 80, output: "10.180.0.1:80" },
      { name: "multiple endpoints", sourceIP: "10.0.0.2", destIP: "172.30.0.44", destPort: 80, output: "10.180.0.4:80, 10.180.0.5:80" },
      { name: "LOCAL, KUBE-MARK-MASQ", sourceIP: testNodeIP, destIP: "192.168.99.22", destPort: 80, output: "10.180.0.2:80", masq: true },
      { name: "DROP", sourceIP: testExternalClient, destIP: "192.168.99.22", destPort: 80, output: "DROP" },
      { name: "ACCEPT (NodePortHealthCheck)", sourceIP: testNodeIP, destIP: testNodeIP, destPort: 30000, output: "ACCEPT" },
      { name: "REJECT", sourceIP: "10.0.0.2", destIP: "172.30.0.46", destPort: 80, output: "REJECT" },
    ],
  );
});

describe("TestNoEndpointsReject", () => {
  const s = noEndpointsReject();
  runPacketFlowTests(
    once(() => rulesFor("IPv4", s.services, s.slices)),
    s.flows,
  );
});

describe("TestClusterIPGeneral", () => {
  const s = clusterIPGeneral("");
  runPacketFlowTests(
    once(() => rulesFor("IPv4", s.services, s.slices)),
    s.flows,
  );
});

describe("TestLoadBalancer", () => {
  const s = loadBalancer();
  runPacketFlowTests(
    once(() => rulesFor("IPv4", s.services, s.slices)),
    s.flows,
  );
});

/** Upstream's TestNodePorts table: localhost NodePorts and --nodeport-addresses, per family. */
const nodePortsCases: readonly {
  name: string;
  family: IPFamily;
  localhostNodePorts: boolean;
  nodePortAddresses: string[] | undefined;
  /** NodePort traffic to the alternate node IP is accepted. */
  allowAltNodeIP: boolean;
  /** KUBE-FIREWALL holds the anti-martian rule. */
  expectFirewall: boolean;
}[] = [
  {
    name: "ipv4, localhost-nodeports enabled",
    family: "IPv4",
    localhostNodePorts: true,
    nodePortAddresses: undefined,
    allowAltNodeIP: true,
    expectFirewall: true,
  },
  {
    name: "ipv4, localhost-nodeports disabled",
    family: "IPv4",
    localhostNodePorts: false,
    nodePortAddresses: undefined,
    allowAltNodeIP: true,
    expectFirewall: false,
  },
  {
    name: "ipv4, localhost-nodeports disabled, localhost in nodeport-addresses",
    family: "IPv4",
    localhostNodePorts: false,
    nodePortAddresses: ["192.168.0.0/24", "127.0.0.1/32"],
    allowAltNodeIP: false,
    expectFirewall: false,
  },
  {
    name: "ipv4, localhost-nodeports enabled, multiple nodeport-addresses",
    family: "IPv4",
    localhostNodePorts: false,
    nodePortAddresses: ["192.168.0.0/24", "192.168.1.0/24", "2001:db8::/64"],
    allowAltNodeIP: true,
    expectFirewall: false,
  },
  {
    name: "ipv6, localhost-nodeports enabled",
    family: "IPv6",
    localhostNodePorts: true,
    nodePortAddresses: undefined,
    allowAltNodeIP: true,
    expectFirewall: false,
  },
  {
    name: "ipv6, localhost-nodeports disabled",
    family: "IPv6",
    localhostNodePorts: false,
    nodePortAddresses: undefined,
    allowAltNodeIP: true,
    expectFirewall: false,
  },
  {
    name: "ipv6, localhost-nodeports disabled, multiple nodeport-addresses",
    family: "IPv6",
    localhostNodePorts: false,
    nodePortAddresses: ["192.168.0.0/24", "192.168.1.0/24", "2001:db8::/64"],
    allowAltNodeIP: false,
    expectFirewall: false,
  },
];

describe("TestNodePorts", () => {
  for (const tc of nodePortsCases) {
    describe(tc.name, () => {
      const family = tc.family;
      const v4 = family === "IPv4";
      const [svcIP, epIP1, epIP2] = v4
        ? ["172.30.0.41", "10.180.0.1", "10.180.2.1"]
        : ["fd00:172:30::41", "fd00:10:180::1", "fd00:10:180::2:1"];
      const svc = makeTestService("ns1", "svc1", (s) => {
        s.spec.type = "NodePort";
        s.spec.clusterIP = svcIP;
        s.spec.clusterIPs = [svcIP];
        s.spec.ipFamilies = [family];
        s.spec.ports = [{ name: "p80", port: 80, protocol: "TCP", nodePort: 3001 }];
      });
      const slice = makeTestEndpointSlice("ns1", "svc1", 1, (e) => {
        e.addressType = family;
        e.endpoints = [{ addresses: [epIP1] }, { addresses: [epIP2], nodeName: testNodeName }];
        e.ports = [tcpPort("p80", 80)];
      });
      const [podIP, client, nodeIP, altNodeIP, localhost] = v4
        ? ["10.0.0.2", testExternalClient, testNodeIP, testNodeIPAlt, "127.0.0.1"]
        : ["fd00:10::2", "2600:5200::1", testNodeIPv6, testNodeIPv6Alt, "::1"];
      const output = v4 ? `${epIP1}:80, ${epIP2}:80` : `[${epIP1}]:80, [${epIP2}]:80`;
      const opts = {
        localhostNodePorts: tc.localhostNodePorts,
        interfaceAddrs: fakeInterfaceAddrs,
        ...(tc.nodePortAddresses !== undefined ? { nodePortAddresses: tc.nodePortAddresses } : {}),
      };
      const rules = once(() => rulesFor(family, [svc], [slice], opts));
      runPacketFlowTests(rules, [
        { name: "pod to cluster IP", sourceIP: podIP, destIP: svcIP, destPort: 80, output },
        { name: "external to nodePort", sourceIP: client, destIP: nodeIP, destPort: 3001, output, masq: true },
        { name: "node to nodePort", sourceIP: nodeIP, destIP: nodeIP, destPort: 3001, output, masq: true },
        v4 && tc.localhostNodePorts
          ? { name: "localhost to nodePort gets masqueraded", sourceIP: localhost, destIP: localhost, destPort: 3001, output, masq: true }
          : { name: "localhost to nodePort is ignored", sourceIP: localhost, destIP: localhost, destPort: 3001, output: "" },
        tc.allowAltNodeIP
          ? { name: "external to nodePort on secondary IP", sourceIP: client, destIP: altNodeIP, destPort: 3001, output, masq: true }
          : { name: "secondary nodeIP ignores NodePorts", sourceIP: client, destIP: altNodeIP, destPort: 3001, output: "" },
      ]);
      it(tc.expectFirewall ? "KUBE-FIREWALL drops martian localnet packets" : "KUBE-FIREWALL is empty", () => {
        const p = new IptablesProxier({ ipFamily: family, nodeName: testNodeName, ...opts });
        populate(p, [svc], [slice]);
        const text = p.syncProxyRules()?.data ?? "";
        expect(text.includes('-A KUBE-FIREWALL -m comment --comment "block incoming localnet connections"')).toBe(tc.expectFirewall);
      });
    });
  }
});
