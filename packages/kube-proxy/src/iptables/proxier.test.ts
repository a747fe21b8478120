import { readFileSync } from "node:fs";
import type { EndpointSlice, IPFamily, Service } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import { populate } from "../proxy/populate.ts";
import { newFakeIptablesProxier as newProxier, syncAndCommit as sync } from "../testing/fake-proxier.ts";
import { makeTestEndpointSlice, makeTestService, tcpPort } from "../testing/fixtures.ts";
import { declaredChains, parseRestore } from "../testing/restore-text.ts";
import { overallServices, overallSlices } from "../testing/upstream-services.ts";

const fixture = (name: string) => readFileSync(new URL(`./testdata/${name}`, import.meta.url), "utf8");

/** A demo Service default/kp-web with one endpoint, one family. */
function kpWeb(family: IPFamily, nodePort = 0): { svc: Service; slice: EndpointSlice } {
  const v6 = family === "IPv6";
  const svc = makeTestService("default", "kp-web", (s) => {
    s.spec.type = nodePort ? "NodePort" : "ClusterIP";
    s.spec.clusterIP = v6 ? "fd00:10:96::10" : "10.96.0.10";
    s.spec.clusterIPs = [s.spec.clusterIP];
    s.spec.ipFamilies = [family];
    s.spec.ports = [{ name: "http", port: 80, protocol: "TCP", targetPort: 8080, ...(nodePort ? { nodePort } : {}) }];
  });
  const slice = makeTestEndpointSlice("default", "kp-web", 1, (e) => {
    e.addressType = family;
    e.endpoints = (v6 ? ["fd00:10:244::5", "fd00:10:244::6"] : ["10.244.0.5", "10.244.0.6"]).map((ip) => ({ addresses: [ip] }));
    e.ports = [tcpPort("http", 8080)];
  });
  return { svc, slice };
}

describe("iptables golden output", () => {
  it.each([
    ["IPv4", "10.244.0.0/16", "ref-ipt4-clusterip.rules"],
    ["IPv6", "fd00:10:244::/56", "ref-ipt6-clusterip.rules"],
  ] as const)("%s ClusterIP service matches the testdata iptables-restore text byte for byte", (family, cidr, file) => {
    const p = newProxier(family, { clusterCIDR: cidr });
    const { svc, slice } = kpWeb(family);
    populate(p, [svc], [slice]);
    expect(sync(p).data).toBe(fixture(file));
  });

  it("IPv4 NodePort variant adds upstream's KUBE-EXT chain and rules in write order", () => {
    const p = newProxier("IPv4", { clusterCIDR: "10.244.0.0/16" });
    const { svc, slice } = kpWeb("IPv4", 30080);
    populate(p, [svc], [slice]);
    const [nodePortRule, extMasq, extJump] = fixture("ref-nodeport-extra.rules").trimEnd().split("\n");
    const lines = fixture("ref-ipt4-clusterip.rules").split("\n");
    const svcChain = lines.findIndex((l) => l.startsWith(":KUBE-SVC-"));
    lines.splice(svcChain, 0, ":KUBE-EXT-5PNJSAMYWXRDMV6C - [0:0]");
    const capture = lines.findIndex((l) => l.startsWith('-A KUBE-SERVICES -m comment --comment "default/kp-web:http cluster IP"'));
    lines.splice(capture + 1, 0, nodePortRule ?? "");
    const masq = lines.findIndex((l) => l.includes("! -s 10.244.0.0/16 -j KUBE-MARK-MASQ"));
    lines.splice(masq + 1, 0, extMasq ?? "", extJump ?? "");
    expect(sync(p).data).toBe(lines.join("\n"));
  });

  it("upstream TestOverallIPTablesRulesWithMultipleServices matches (sorted per chain)", () => {
    const p = newProxier("IPv4", { randomFully: false });
    populate(p, overallServices(false), overallSlices());
    const r = sync(p);
    expect(parseRestore(r.data)).toEqual(parseRestore(fixture("upstream-overall.rules")));
    // The nat rule count metric counts what was written.
    expect(r.natRulesTotal).toBe(
      r.data
        .split("*nat")[1]
        ?.split("\n")
        .filter((l) => l.startsWith("-A")).length,
    );
  });

  it("contains every line of upstream proxier_test.go TestOverallIPTablesRules for ns4/svc4", () => {
    const p = newProxier("IPv4");
    populate(p, overallServices(false), overallSlices());
    const lines = new Set(sync(p).data.split("\n"));
    for (const l of fixture("ref-ns4-svc4-excerpt.rules").trimEnd().split("\n")) expect(lines).toContain(l);
  });
});

describe("iptables per-family behaviour", () => {
  const dualStack = makeTestService("ns1", "dual", (s) => {
    s.spec.clusterIP = "10.96.0.20";
    s.spec.clusterIPs = ["10.96.0.20", "fd00:10:96::20"];
    s.spec.ipFamilies = ["IPv4", "IPv6"];
    s.spec.externalIPs = ["192.168.99.1", "2001:db8::99"];
    s.spec.ports = [{ name: "p80", port: 80, protocol: "TCP" }];
  });
  const slice = (family: IPFamily, ip: string) =>
    makeTestEndpointSlice("ns1", "dual", family === "IPv4" ? 4 : 6, (e) => {
      e.addressType = family;
      e.endpoints = [{ addresses: [ip] }];
      e.ports = [tcpPort("p80", 80)];
    });
  const slices = [slice("IPv4", "10.180.0.9"), slice("IPv6", "fd00:10::9")];

  it("a dual-stack Service gets the same KUBE-SVC name in both families, different KUBE-SEP names", () => {
    const v4 = newProxier("IPv4");
    const v6 = newProxier("IPv6");
    populate(v4, [dualStack], slices);
    populate(v6, [dualStack], slices);
    const c4 = declaredChains(sync(v4).data, "nat");
    const c6 = declaredChains(sync(v6).data, "nat");
    const svc4 = c4.filter((c) => c.startsWith("KUBE-SVC-"));
    expect(svc4).toHaveLength(1);
    expect(c6.filter((c) => c.startsWith("KUBE-SVC-"))).toEqual(svc4);
    const sep4 = c4.filter((c) => c.startsWith("KUBE-SEP-"));
    const sep6 = c6.filter((c) => c.startsWith("KUBE-SEP-"));
    expect(sep4).toHaveLength(1);
    expect(sep6).toHaveLength(1);
    expect(sep4).not.toEqual(sep6);
  });

  it.each([
    ["IPv4", "-d 10.96.0.20", "-d 192.168.99.1", ["fd00:10:96::20", "2001:db8::99", "fd00:10::9"]],
    ["IPv6", "-d fd00:10:96::20", "-d 2001:db8::99", ["10.96.0.20", "192.168.99.1", "10.180.0.9"]],
  ] as const)("the %s proxier writes only its family's ClusterIP, externalIPs and endpoints", (family, cip, eip, foreign) => {
    const p = newProxier(family);
    populate(p, [dualStack], slices);
    const data = sync(p).data;
    expect(data).toContain(cip);
    expect(data).toContain(eip);
    for (const ip of foreign) expect(data).not.toContain(ip);
  });

  it.each([
    ["headless", (s: Service) => (s.spec.clusterIP = "None")],
    ["ExternalName", (s: Service) => (s.spec.type = "ExternalName")],
    ["other family only", (s: Service) => ((s.spec.clusterIPs = ["fd00:10:96::20"]), (s.spec.ipFamilies = ["IPv6"]))],
    ["legacy single IP of the other family", (s: Service) => ((s.spec.clusterIP = "fd00:10:96::20"), delete s.spec.ipFamilies)],
  ])("skips a %s Service", (_name, mutate) => {
    const svc = structuredClone(dualStack);
    mutate(svc);
    const p = newProxier("IPv4");
    populate(p, [svc], slices);
    expect(declaredChains(sync(p).data, "nat").some((c) => c.startsWith("KUBE-SVC-"))).toBe(false);
  });
});
