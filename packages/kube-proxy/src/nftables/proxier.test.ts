import { readFileSync } from "node:fs";
import type { IPFamily } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import { populate } from "../proxy/populate.ts";
import { newFakeNftablesProxier, syncAndCommit as sync } from "../testing/fake-proxier.ts";
import { makeTestEndpointSlice, makeTestService, tcpPort } from "../testing/fixtures.ts";
import { overallServices, overallSlices } from "../testing/upstream-services.ts";
import { fakeInterfaceAddrs, testPrimaryNodePortAddresses } from "../testing/packet-flows.ts";
import type { NftablesProxier, NftablesProxierOptions } from "./proxier.ts";

const fixture = (name: string) => readFileSync(new URL(`./testdata/${name}`, import.meta.url), "utf8");

/** The statements of a transaction that describe table contents (what knftables' Fake dumps). */
const contents = (text: string) =>
  text
    .split("\n")
    .filter((l) => l !== "" && !l.startsWith("#") && !l.startsWith("flush "))
    .sort();

/** Upstream's NewFakeProxier: NodePorts on the node's primary addresses (nodePortAddresses "primary"). */
function newProxier(extra: Partial<NftablesProxierOptions> = {}): NftablesProxier {
  return newFakeNftablesProxier({ nodePortAddresses: testPrimaryNodePortAddresses, interfaceAddrs: fakeInterfaceAddrs, ...extra });
}

function kpWeb(family: IPFamily) {
  const v6 = family === "IPv6";
  const svc = makeTestService("default", "kp-web", (s) => {
    s.spec.clusterIP = v6 ? "fd00:10:96::10" : "10.96.0.10";
    s.spec.clusterIPs = [s.spec.clusterIP];
    s.spec.ipFamilies = [family];
    s.spec.ports = [{ name: "http", port: 80, protocol: "TCP", targetPort: 8080 }];
  });
  const slice = makeTestEndpointSlice("default", "kp-web", 1, (e) => {
    e.addressType = family;
    e.endpoints = (v6 ? ["fd00:10:244::5", "fd00:10:244::6"] : ["10.244.0.5", "10.244.0.6"]).map((ip) => ({ addresses: [ip] }));
    e.ports = [tcpPort("http", 8080)];
  });
  return { svc, slice };
}

describe("nftables golden output", () => {
  it("upstream TestOverallNFTablesRules: the full transaction holds exactly the expected table contents", () => {
    const p = newProxier();
    populate(p, overallServices(true), overallSlices());
    expect(contents(sync(p).data)).toEqual(contents(fixture("upstream-overall.nft")));
  });

  it("the per-service part for default/kp-web appears verbatim, in order (pkg/proxy/nftables/proxier.go syncProxyRules)", () => {
    const p = newProxier({ clusterCIDR: "10.244.0.0/16", nodeIPs: ["10.244.0.1"], serviceCIDRs: ["10.96.0.0/16"] });
    const { svc, slice } = kpWeb("IPv4");
    populate(p, [svc], [slice]);
    const data = sync(p).data;
    expect(data).toContain(fixture("ref-nft4-service.nft"));
    expect(data.startsWith('add table ip kube-proxy { comment "rules for kube-proxy" ; }\nflush table ip kube-proxy\n')).toBe(true);
  });

  it("IPv6: same service chain name, '.' for ':' in endpoint chains, bracketed dnat", () => {
    const p = newProxier({
      ipFamily: "IPv6",
      clusterCIDR: "fd00:10:244::/56",
      nodeIPs: ["fd00:10:244::1"],
      serviceCIDRs: ["fd00:10:96::/112"],
    });
    const { svc, slice } = kpWeb("IPv6");
    populate(p, [svc], [slice]);
    const data = sync(p).data;
    expect(data).toContain("add chain ip6 kube-proxy service-5LTONX6P-default/kp-web/tcp/http\n");
    expect(data).toContain(
      "add rule ip6 kube-proxy endpoint-FGEVSRXK-default/kp-web/tcp/http__fd00.10.244..5/8080 meta l4proto tcp dnat to [fd00:10:244::5]:8080\n",
    );
    expect(data).toContain("add chain ip6 kube-proxy endpoint-HUUIXR7Y-default/kp-web/tcp/http__fd00.10.244..6/8080\n");
    expect(data).toContain(
      "add element ip6 kube-proxy service-ips { fd00:10:96::10 . tcp . 80 : goto service-5LTONX6P-default/kp-web/tcp/http }\n",
    );
    expect(data).toContain('add set ip6 kube-proxy cluster-ips { type ipv6_addr ; comment "Active ClusterIPs" ; }');
  });
});

describe("nftables incremental transactions", () => {
  const svc1Chain = "service-ULMVA6XW-ns1/svc1/tcp/p80";
  const oldEp = "endpoint-5OJB2KTY-ns1/svc1/tcp/p80__10.180.0.1/80";
  const newSlice = makeTestEndpointSlice("ns1", "svc1", 1, (e) => {
    e.endpoints = [{ addresses: ["10.180.0.7"] }];
    e.ports = [tcpPort("p80", 80)];
  });

  it("an endpoint change rewrites only that Service's chains; the stale chain is flushed, then deleted later", () => {
    let now = 10_000;
    const p = newProxier({ clock: () => now });
    populate(p, overallServices(true), overallSlices());
    sync(p);
    p.onEndpointSliceUpdate(overallSlices()[0]!, newSlice);
    const r = sync(p);
    expect(r.full).toBe(false);
    const lines = r.data.trimEnd().split("\n");
    expect(lines).not.toContain("flush table ip kube-proxy");
    expect(lines).toContain(`add chain ip kube-proxy ${svc1Chain}`);
    expect(lines).toContain(`flush chain ip kube-proxy ${svc1Chain}`);
    expect(lines).toContain(`flush chain ip kube-proxy ${oldEp}`);
    expect(lines.filter((l) => l.includes("ns4/svc4"))).toEqual([]);
    // The service-ips element still points at the same chain: no element changes at all.
    expect(lines.filter((l) => l.includes(" element "))).toEqual([]);
    expect(r.chainsWritten).toBe(2);
    now += 1500;
    const later = sync(p);
    expect(later.data.trimEnd().split("\n")).toEqual([
      'add table ip kube-proxy { comment "rules for kube-proxy" ; }',
      `delete chain ip kube-proxy ${oldEp}`,
    ]);
  });

  it("scaling to zero moves the ClusterIP from service-ips to no-endpoint-services (reject)", () => {
    const p = newProxier();
    populate(p, overallServices(true), overallSlices());
    sync(p);
    p.onEndpointSliceDelete(overallSlices()[0]!);
    const lines = sync(p).data.trimEnd().split("\n");
    expect(lines).toContain("delete element ip kube-proxy service-ips { 172.30.0.41 . tcp . 80 }");
    expect(lines).toContain(
      'add element ip kube-proxy no-endpoint-services { 172.30.0.41 . tcp . 80 comment "ns1/svc1:p80" : goto reject-chain }',
    );
    expect(lines).toContain(`flush chain ip kube-proxy ${svc1Chain}`);
    expect(lines).not.toContain("delete element ip kube-proxy cluster-ips { 172.30.0.41 }");
  });

  it("deleting a Service deletes its elements; a failed apply (no commit) makes the next sync full", () => {
    const p = newProxier();
    const services = overallServices(true);
    populate(p, services, overallSlices());
    sync(p);
    p.onServiceDelete(services[2]!);
    const lines = sync(p).data.split("\n");
    expect(lines).toContain("delete element ip kube-proxy cluster-ips { 172.30.0.43 }");
    expect(lines).toContain("delete element ip kube-proxy service-nodeports { tcp . 3003 }");
    p.onServiceDelete(services[3]!);
    const failed = p.syncProxyRules();
    expect(failed?.full).toBe(false);
    p.markNeedFullSync();
    expect(sync(p).full).toBe(true);
  });

  it("a ServiceCIDR change forces a full sync that rewrites the drop rule", () => {
    const p = newProxier();
    populate(p, overallServices(true), overallSlices());
    sync(p);
    p.onServiceCIDRsChanged(["172.30.0.0/16", "172.31.0.0/16", "fd00::/108"]);
    const r = sync(p);
    expect(r.full).toBe(true);
    expect(r.data).toContain('ip daddr { 172.30.0.0/16, 172.31.0.0/16 } drop comment "Drop traffic to unallocated ClusterIPs"');
  });
});
