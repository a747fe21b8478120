import { describe, expect, it } from "vitest";
import { NftablesProxier } from "../../nftables/proxier.ts";
import { populate } from "../../proxy/populate.ts";
import { makeTestEndpointSlice, makeTestService, tcpPort } from "../../testing/fixtures.ts";
import { flowOutput } from "../types.ts";
import { traceNftables } from "./evaluate.ts";
import { parseNftRule } from "./rule.ts";
import { NftablesRuleset, parseElement } from "./ruleset.ts";

const node = { localIPs: ["192.168.0.2"] };
const pkt = { source: "10.0.0.2", destination: "172.30.0.41", protocol: "tcp", port: 80, origin: "prerouting" } as const;

function service() {
  return makeTestService("ns1", "svc1", (s) => {
    s.spec.clusterIP = "172.30.0.41";
    s.spec.ports = [{ name: "p80", port: 80, protocol: "TCP" }];
  });
}

function slice(ips: string[]) {
  return makeTestEndpointSlice("ns1", "svc1", 1, (e) => {
    e.endpoints = ips.map((ip) => ({ addresses: [ip] }));
    e.ports = [tcpPort("p80", 80)];
  });
}

describe("NftablesRuleset", () => {
  it("follows every numgen value with probability 1/N", () => {
    const p = new NftablesProxier({ ipFamily: "IPv4", nodeName: "n", clusterCIDR: "10.0.0.0/8", serviceCIDRs: ["172.30.0.0/16"] });
    populate(p, [service()], [slice(["10.180.0.1", "10.180.0.2", "10.180.0.3"])]);
    const rs = new NftablesRuleset().apply(p.syncProxyRules()?.data ?? "");
    const r = traceNftables(rs, pkt, node);
    expect(r.outcomes.map((o) => o.dnat)).toEqual(["10.180.0.1:80", "10.180.0.2:80", "10.180.0.3:80"]);
    for (const o of r.outcomes) expect(o.probability).toBeCloseTo(1 / 3, 12);
  });

  it("applies the proxier's partial transactions on top of its full one (scale to zero: the ClusterIP rejects)", () => {
    const p = new NftablesProxier({ ipFamily: "IPv4", nodeName: "n", clusterCIDR: "10.0.0.0/8", serviceCIDRs: ["172.30.0.0/16"] });
    const first = slice(["10.180.0.1"]);
    populate(p, [service()], [first]);
    const full = p.syncProxyRules();
    if (full === null) throw new Error("not initialized");
    p.commit(full);
    const rs = new NftablesRuleset().apply(full.data);
    expect(flowOutput(traceNftables(rs, pkt, node).outcomes)).toBe("10.180.0.1:80");
    p.onEndpointSliceDelete(first);
    const partial = p.syncProxyRules();
    expect(partial?.full).toBe(false);
    rs.apply(partial?.data ?? "");
    const r = traceNftables(rs, pkt, node);
    expect(flowOutput(r.outcomes)).toBe("REJECT");
    expect(r.outcomes[0]?.reason).toBe("no-endpoint-services: ns1/svc1:p80");
  });

  it("parses map elements with comments and verdicts", () => {
    expect(parseElement('172.30.0.46 . tcp . 80 comment "ns6/svc6:p80" : goto reject-chain')).toEqual({
      key: ["172.30.0.46", "tcp", "80"],
      comment: "ns6/svc6:p80",
      value: "goto reject-chain",
    });
    expect(parseElement("192.168.0.2")).toEqual({ key: ["192.168.0.2"] });
  });

  it("parses the rule shapes kube-proxy writes and refuses others", () => {
    expect(parseNftRule("ip daddr . meta l4proto . th dport vmap @service-ips").ops).toEqual([
      { op: "vmap", sels: ["daddr", "l4proto", "dport"], map: "service-ips" },
    ]);
    expect(parseNftRule('ip saddr != { 203.0.113.0/25, 1.2.3.4 } drop comment "x"')).toEqual({
      raw: 'ip saddr != { 203.0.113.0/25, 1.2.3.4 } drop comment "x"',
      comment: "x",
      ops: [
        { op: "cmp", sel: "saddr", negated: true, values: ["203.0.113.0/25", "1.2.3.4"] },
        { op: "verdict", verdict: "drop" },
      ],
    });
    expect(() => parseNftRule("iifname eth0 accept")).toThrow('unsupported nftables expression at "iifname eth0 accept"');
    expect(() => new NftablesRuleset().apply("add chain ip kube-proxy x")).toThrow("no table ip kube-proxy");
  });
});
