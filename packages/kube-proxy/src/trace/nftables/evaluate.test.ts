import type { EndpointSlice, IPFamily, Service } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import { NftablesProxier } from "../../nftables/proxier.ts";
import type { NftablesProxierOptions } from "../../nftables/proxier.ts";
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
  testPrimaryNodePortAddresses,
} from "../../testing/packet-flows.ts";
import type { PacketFlowTest } from "../../testing/packet-flows.ts";
import { clusterIPGeneral, loadBalancer, noEndpointsReject } from "../../testing/flow-scenarios.ts";
import { overallServices, overallSlices, testNodeName } from "../../testing/upstream-services.ts";
import { traceNftables } from "./evaluate.ts";
import { NftablesRuleset } from "./ruleset.ts";

/** Upstream's NewFakeProxier (pkg/proxy/nftables/proxier_test.go): pod CIDR 10.0.0.0/8 (fd00:10::/64), service CIDR 172.30.0.0/16, NodePorts on the primary node IP. */
function rulesFor(
  family: IPFamily,
  services: Service[],
  slices: EndpointSlice[],
  extra: Partial<NftablesProxierOptions> = {},
): NftablesRuleset {
  const v4 = family === "IPv4";
  const p = new NftablesProxier({
    ipFamily: family,
    nodeName: testNodeName,
    clusterCIDR: v4 ? "10.0.0.0/8" : "fd00:10::/64",
    nodeIPs: [v4 ? testNodeIP : testNodeIPv6],
    nodePortAddresses: testPrimaryNodePortAddresses,
    interfaceAddrs: fakeInterfaceAddrs,
    serviceCIDRs: [v4 ? "172.30.0.0/16" : "fd00:172:30::/112"],
    ...extra,
  });
  populate(p, services, slices);
  const r = p.syncProxyRules();
  if (r === null) throw new Error("proxier not initialized");
  return new NftablesRuleset().apply(r.data);
}

function runPacketFlowTests(rules: () => NftablesRuleset, cases: readonly PacketFlowTest[]): void {
  it.each(cases)("$name", (tc) => {
    const r = traceNftables(rules(), flowPacket(tc, testNodeIPs), { localIPs: testNodeIPs });
    expect(flowSummary(r)).toEqual({ output: tc.output, masq: tc.masq ?? false });
  });
}

const once = <T>(f: () => T): (() => T) => {
  let v: T | undefined;
  return () => (v ??= f());
};

describe("iptables TestTracePacket's flows, on this proxier's TestOverallNFTablesRules output", () => {
  runPacketFlowTests(
    once(() => rulesFor("IPv4", overallServices(true), overallSlices())),
    [
      { name: "no match", sourceIP: "10.0.0.2", destIP: "10.0.0.3", destPort: 80, output: "" },
      { name: "single endpoint", sourceIP: "10.0.0.2", destIP: "172.30.0.41", destPort: 80, output: "10.180.0.1:80" },
      { name: "multiple endpoints", sourceIP: "10.0.0.2", destIP: "172.30.0.44", destPort: 80, output: "10.180.0.4:80, 10.180.0.5:80" },
      { name: "LOCAL, KUBE-MARK-MASQ", sourceIP: testNodeIP, destIP: "192.168.99.22", destPort: 80, output: "10.180.0.2:80", masq: true },
      { name: "DROP", sourceIP: testExternalClient, destIP: "192.168.99.22", destPort: 80, output: "DROP" },
      // The nftables proxier writes no accept rule for health-check ports: nothing touches the packet.
      { name: "NodePortHealthCheck is left alone", sourceIP: testNodeIP, destIP: testNodeIP, destPort: 30000, output: "" },
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
  const s = clusterIPGeneral("REJECT");
  runPacketFlowTests(
    once(() => rulesFor("IPv4", s.services, s.slices)),
    [...s.flows, { name: "packet to unallocated cluster ip", sourceIP: "10.180.0.2", destIP: "172.30.0.50", destPort: 80, output: "DROP" }],
  );
});

describe("TestLoadBalancer", () => {
  const s = loadBalancer();
  runPacketFlowTests(
    once(() => rulesFor("IPv4", s.services, s.slices)),
    s.flows,
  );
});

/** Upstream's TestNodePorts table (nftables): --nodeport-addresses per family; localhost NodePorts never work. */
const nodePortsCases: readonly { name: string; family: IPFamily; nodePortAddresses: string[] | undefined; allowAltNodeIP: boolean }[] = [
  { name: "ipv4", family: "IPv4", nodePortAddresses: undefined, allowAltNodeIP: true },
  {
    name: "ipv4, multiple nodeport-addresses",
    family: "IPv4",
    nodePortAddresses: ["192.168.0.0/24", "192.168.1.0/24", "2001:db8::/64"],
    allowAltNodeIP: true,
  },
  { name: "ipv4, primary node IP only", family: "IPv4", nodePortAddresses: testPrimaryNodePortAddresses, allowAltNodeIP: false },
  { name: "ipv6", family: "IPv6", nodePortAddresses: undefined, allowAltNodeIP: true },
  {
    name: "ipv6, multiple nodeport-addresses",
    family: "IPv6",
    nodePortAddresses: ["192.168.0.0/24", "192.168.1.0/24", "2001:db8::/64", "2001:db8:1::2/128"],
    allowAltNodeIP: true,
  },
  { name: "ipv6, primary node IP only", family: "IPv6", nodePortAddresses: testPrimaryNodePortAddresses, allowAltNodeIP: false },
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
      // undefined overrides the fixture's `primary` default: every local address (MatchAll).
      runPacketFlowTests(
        once(() => rulesFor(family, [svc], [slice], { nodePortAddresses: tc.nodePortAddresses })),
        [
          { name: "pod to cluster IP", sourceIP: podIP, destIP: svcIP, destPort: 80, output },
          { name: "external to nodePort", sourceIP: client, destIP: nodeIP, destPort: 3001, output, masq: true },
          { name: "node to nodePort", sourceIP: nodeIP, destIP: nodeIP, destPort: 3001, output, masq: true },
          { name: "localhost to nodePort is ignored", sourceIP: localhost, destIP: localhost, destPort: 3001, output: "" },
          tc.allowAltNodeIP
            ? { name: "external to nodePort on secondary IP", sourceIP: client, destIP: altNodeIP, destPort: 3001, output, masq: true }
            : { name: "secondary nodeIP ignores NodePorts", sourceIP: client, destIP: altNodeIP, destPort: 3001, output: "" },
        ],
      );
    });
  }
});
