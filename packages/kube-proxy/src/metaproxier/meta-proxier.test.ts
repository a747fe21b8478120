import type { EndpointSlice, Service } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import { makeTestEndpointSlice, makeTestService, tcpPort } from "../testing/fixtures.ts";
import { newDualStackIptablesProxier } from "./dual-stack.ts";

const opts = { nodeName: "n1", clusterCIDR: "" };

function slice(addressType: string, ip: string): EndpointSlice {
  return makeTestEndpointSlice("ns", "svc", addressType === "IPv6" ? 6 : 4, (e) => {
    e.addressType = addressType;
    e.endpoints = [{ addresses: [ip] }];
    e.ports = [tcpPort("p", 80)];
  });
}

const svc: Service = makeTestService("ns", "svc", (s) => {
  s.spec.clusterIP = "10.96.0.1";
  s.spec.clusterIPs = ["10.96.0.1", "fd00::1"];
  s.spec.ipFamilies = ["IPv4", "IPv6"];
  s.spec.ports = [{ name: "p", port: 80, protocol: "TCP" }];
});

describe("MetaProxier dispatch", () => {
  it("sends Services to both families and each keeps its own ClusterIP", () => {
    const d = newDualStackIptablesProxier({ ipv4: opts, ipv6: opts });
    d.meta.onServiceAdd(svc);
    d.meta.onServiceSynced();
    d.meta.onEndpointSlicesSynced();
    expect(d.ipv4.syncProxyRules()?.data).toContain("-d 10.96.0.1 ");
    expect(d.ipv6.syncProxyRules()?.data).toContain("-d fd00::1 ");
  });

  it.each([
    ["IPv4", "10.1.0.1", 1, 0],
    ["IPv6", "fd00:1::1", 0, 1],
    ["FQDN", "example.com", 0, 0],
  ] as const)("routes an %s slice only to the matching family", (type, ip, n4, n6) => {
    const errors: string[] = [];
    const d = newDualStackIptablesProxier({ ipv4: opts, ipv6: opts }, { logger: { info() {}, error: (m) => errors.push(m) } });
    d.meta.onEndpointSliceAdd(slice(type, ip));
    expect(d.ipv4.endpointsChanges.changesTotal).toBe(n4);
    expect(d.ipv6.endpointsChanges.changesTotal).toBe(n6);
    expect(errors).toEqual(type === "FQDN" ? ["EndpointSlice address type not supported"] : []);
  });

  it("a legacy Service without ipFamilies is proxied by the family of spec.clusterIP only", () => {
    const d = newDualStackIptablesProxier({ ipv4: opts, ipv6: opts });
    const legacy = makeTestService("ns", "old", (s) => {
      s.spec.clusterIP = "fd00::5";
      s.spec.ports = [{ name: "p", port: 80, protocol: "TCP" }];
    });
    d.meta.onServiceAdd(legacy);
    expect(d.ipv4.serviceChanges.pending).toBe(0);
    expect(d.ipv6.serviceChanges.pending).toBe(1);
  });

  it("the IPv6 proxier never gets localhost NodePorts (no KUBE-FIREWALL, ::1 excluded)", () => {
    const d = newDualStackIptablesProxier({ ipv4: opts, ipv6: { ...opts, localhostNodePorts: true } });
    d.meta.onServiceSynced();
    d.meta.onEndpointSlicesSynced();
    const v6 = d.ipv6.syncProxyRules()?.data ?? "";
    expect(v6).not.toContain("KUBE-FIREWALL");
    expect(v6).toContain("! -d ::1/128 -j KUBE-NODEPORTS");
    expect(d.ipv4.syncProxyRules()?.data).toContain(":KUBE-FIREWALL - [0:0]");
  });

  it("sync() asks IPv4 first, then IPv6", () => {
    const d = newDualStackIptablesProxier({ ipv4: opts, ipv6: opts });
    const order: string[] = [];
    d.ipv4.onSyncRequested = () => order.push("IPv4");
    d.ipv6.onSyncRequested = () => order.push("IPv6");
    d.meta.sync();
    expect(order).toEqual(["IPv4", "IPv6"]);
  });
});
