import type { IPFamily } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import { IptablesProxier } from "../iptables/proxier.ts";
import { NftablesProxier } from "../nftables/proxier.ts";
import { populate } from "../proxy/populate.ts";
import { makeTestEndpointSlice, makeTestService, tcpPort } from "../testing/fixtures.ts";
import { testNodeName } from "../testing/upstream-services.ts";
import {
  detectLocalByBridgeInterface,
  detectLocalByCIDR,
  detectLocalByInterfaceNamePrefix,
  noOpLocalDetector,
  proxierLocalDetector,
} from "./local-detector.ts";
import type { LocalTrafficDetector } from "./local-detector.ts";

// pkg/proxy/util/localdetector_test.go: TestNoOpLocalDetector, TestDetectLocalByCIDR,
// TestDetectLocalByBridgeInterface, TestDetectLocalByInterfaceNamePrefix.
describe("local traffic detectors", () => {
  it("TestNoOpLocalDetector", () => {
    expect(noOpLocalDetector.isImplemented).toBe(false);
    expect([noOpLocalDetector.ifLocal, noOpLocalDetector.ifNotLocal]).toEqual(["", ""]);
  });

  it.each([
    ["10.0.0.0/14", "-s 10.0.0.0/14", "! -s 10.0.0.0/14", "ip saddr 10.0.0.0/14", "ip saddr != 10.0.0.0/14"],
    [
      "2002:0:0:1234::/64",
      "-s 2002:0:0:1234::/64",
      "! -s 2002:0:0:1234::/64",
      "ip6 saddr 2002:0:0:1234::/64",
      "ip6 saddr != 2002:0:0:1234::/64",
    ],
  ])("TestDetectLocalByCIDR %s", (cidr, local, notLocal, localNFT, notLocalNFT) => {
    const d = detectLocalByCIDR(cidr);
    expect(d).toEqual({ isImplemented: true, ifLocal: local, ifNotLocal: notLocal, ifLocalNFT: localNFT, ifNotLocalNFT: notLocalNFT });
  });

  it("TestDetectLocalByBridgeInterface", () => {
    expect(detectLocalByBridgeInterface("eth0")).toEqual({
      isImplemented: true,
      ifLocal: "-i eth0",
      ifNotLocal: "! -i eth0",
      ifLocalNFT: "iifname eth0",
      ifNotLocalNFT: "iifname != eth0",
    });
  });

  it("TestDetectLocalByInterfaceNamePrefix", () => {
    expect(detectLocalByInterfaceNamePrefix("eth")).toEqual({
      isImplemented: true,
      ifLocal: "-i eth+",
      ifNotLocal: "! -i eth+",
      ifLocalNFT: "iifname eth*",
      ifNotLocalNFT: "iifname != eth*",
    });
  });

  it("an explicit detector wins over clusterCIDR; neither is the no-op detector", () => {
    const bridge = detectLocalByBridgeInterface("cbr0");
    expect(proxierLocalDetector({ clusterCIDR: "10.0.0.0/8", localDetector: bridge })).toBe(bridge);
    expect(proxierLocalDetector({ clusterCIDR: "" })).toBe(noOpLocalDetector);
    expect(proxierLocalDetector({ clusterCIDR: "10.0.0.0/8" }).ifLocal).toBe("-s 10.0.0.0/8");
  });
});

/** An ETP Local NodePort Service (both detector rules are written for it). */
function etpLocal(family: IPFamily) {
  const v6 = family === "IPv6";
  const ip = v6 ? "fd00:172:30::41" : "172.30.0.41";
  const svc = makeTestService("ns1", "svc1", (s) => {
    s.spec.type = "NodePort";
    s.spec.clusterIP = ip;
    s.spec.clusterIPs = [ip];
    s.spec.ipFamilies = [family];
    s.spec.externalTrafficPolicy = "Local";
    s.spec.ports = [{ name: "p80", port: 80, protocol: "TCP", nodePort: 3001 }];
  });
  const slice = makeTestEndpointSlice("ns1", "svc1", 1, (e) => {
    e.addressType = family;
    e.endpoints = [{ addresses: [v6 ? "fd00:10:180::1" : "10.180.0.1"], nodeName: testNodeName }];
    e.ports = [tcpPort("p80", 80)];
  });
  return { svc, slice };
}

const modes: readonly [string, LocalTrafficDetector, string, string][] = [
  ["ClusterCIDR", detectLocalByCIDR("10.0.0.0/8"), "-s 10.0.0.0/8", "ip saddr 10.0.0.0/8"],
  ["BridgeInterface", detectLocalByBridgeInterface("cbr0"), "-i cbr0", "iifname cbr0"],
  ["InterfaceNamePrefix", detectLocalByInterfaceNamePrefix("veth"), "-i veth+", "iifname veth*"],
];

describe("the proxiers write the detector's matches (pkg/proxy/{iptables,nftables}/proxier.go)", () => {
  it.each(modes)("%s: iptables masquerades non-local ClusterIP traffic and short-circuits local pods", (_m, d, local) => {
    const p = new IptablesProxier({ ipFamily: "IPv4", nodeName: testNodeName, localDetector: d });
    const { svc, slice } = etpLocal("IPv4");
    populate(p, [svc], [slice]);
    const text = p.syncProxyRules()?.data ?? "";
    expect(text).toContain(`--dport 80 ! ${local} -j KUBE-MARK-MASQ\n`);
    expect(text).toMatch(new RegExp(`"pod traffic for ns1/svc1:p80 external destinations" ${local.replace("+", "\\+")} -j KUBE-SVC-`));
  });

  it.each(modes)("%s: nftables writes the same decisions", (_m, d, _l, localNFT) => {
    const p = new NftablesProxier({ ipFamily: "IPv4", nodeName: testNodeName, localDetector: d });
    const { svc, slice } = etpLocal("IPv4");
    populate(p, [svc], [slice]);
    const text = p.syncProxyRules()?.data ?? "";
    const notLocal = localNFT.replace(/^(ip saddr|iifname) /, "$1 != ");
    expect(text).toContain(`ip daddr 172.30.0.41 ${notLocal} jump mark-for-masquerade\n`);
    expect(text).toContain(`${localNFT} goto service-`);
  });

  it("no detector: neither rule; masqueradeAll: every ClusterIP packet is marked", () => {
    for (const masqueradeAll of [false, true]) {
      const ipt = new IptablesProxier({ ipFamily: "IPv4", nodeName: testNodeName, masqueradeAll });
      const nft = new NftablesProxier({ ipFamily: "IPv4", nodeName: testNodeName, masqueradeAll });
      const { svc, slice } = etpLocal("IPv4");
      populate(ipt, [svc], [slice]);
      populate(nft, [svc], [slice]);
      const i = ipt.syncProxyRules()?.data ?? "";
      const n = nft.syncProxyRules()?.data ?? "";
      expect(i.includes("pod traffic for")).toBe(false);
      expect(n.includes("short-circuit pod traffic")).toBe(false);
      expect(i.includes("--dport 80 -j KUBE-MARK-MASQ\n")).toBe(masqueradeAll);
      expect(n.includes("ip daddr 172.30.0.41 jump mark-for-masquerade\n")).toBe(masqueradeAll);
    }
  });
});
