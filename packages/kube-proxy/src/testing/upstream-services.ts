/**
 * The Services and EndpointSlices of upstream's TestOverallIPTablesRules /
 * TestOverallNFTablesRules (ns1/svc1 ... ns6/svc6), rebuilt with our builders.
 */
import type { EndpointSlice, Service } from "@servicenet/api";
import { makeTestEndpointSlice, makeTestService, tcpPort } from "./fixtures.ts";

export const testNodeName = "test-node";

/** `sessionAffinity`: the nftables test gives svc5 ClientIP affinity, the iptables one does not. */
export function overallServices(svc5Affinity: boolean): Service[] {
  return [
    makeTestService("ns1", "svc1", (s) => {
      s.spec.clusterIP = "172.30.0.41";
      s.spec.ports = [{ name: "p80", port: 80, protocol: "TCP" }];
    }),
    makeTestService("ns2", "svc2", (s) => {
      s.spec.type = "LoadBalancer";
      s.spec.externalTrafficPolicy = "Local";
      s.spec.clusterIP = "172.30.0.42";
      s.spec.ports = [{ name: "p80", port: 80, protocol: "TCP", nodePort: 3001 }];
      s.status = { loadBalancer: { ingress: [{ ip: "1.2.3.4" }] } };
      s.spec.externalIPs = ["192.168.99.22"];
      s.spec.healthCheckNodePort = 30000;
    }),
    makeTestService("ns3", "svc3", (s) => {
      s.spec.type = "NodePort";
      s.spec.clusterIP = "172.30.0.43";
      s.spec.ports = [{ name: "p80", port: 80, protocol: "TCP", nodePort: 3003 }];
    }),
    makeTestService("ns4", "svc4", (s) => {
      s.spec.type = "NodePort";
      s.spec.clusterIP = "172.30.0.44";
      s.spec.externalIPs = ["192.168.99.33"];
      s.spec.ports = [{ name: "p80", port: 80, protocol: "TCP", targetPort: 80 }];
    }),
    makeTestService("ns5", "svc5", (s) => {
      s.spec.type = "LoadBalancer";
      s.spec.externalTrafficPolicy = "Cluster";
      s.spec.clusterIP = "172.30.0.45";
      s.spec.ports = [{ name: "p80", port: 80, protocol: "TCP", nodePort: 3002 }];
      s.status = { loadBalancer: { ingress: [{ ip: "5.6.7.8" }] } };
      s.spec.healthCheckNodePort = 30000;
      // Extra whitespace: upstream tolerates it for backward compatibility.
      s.spec.loadBalancerSourceRanges = [" 203.0.113.0/25"];
      if (svc5Affinity) {
        s.spec.sessionAffinity = "ClientIP";
        s.spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: 10800 } };
      }
    }),
    makeTestService("ns6", "svc6", (s) => {
      s.spec.type = "ClusterIP";
      s.spec.clusterIP = "172.30.0.46";
      s.spec.ports = [{ name: "p80", port: 80, protocol: "TCP", targetPort: 80 }];
    }),
  ];
}

export function overallSlices(): EndpointSlice[] {
  const one = (ns: string, name: string, ips: { ip: string; node?: string }[]) =>
    makeTestEndpointSlice(ns, name, 1, (e) => {
      e.endpoints = ips.map(({ ip, node }) => (node === undefined ? { addresses: [ip] } : { addresses: [ip], nodeName: node }));
      e.ports = [tcpPort("p80", 80)];
    });
  return [
    one("ns1", "svc1", [{ ip: "10.180.0.1" }]),
    // Not local (no nodeName): svc2's Local policy finds no endpoint.
    one("ns2", "svc2", [{ ip: "10.180.0.2" }]),
    one("ns3", "svc3", [{ ip: "10.180.0.3" }]),
    one("ns4", "svc4", [{ ip: "10.180.0.4" }, { ip: "10.180.0.5", node: testNodeName }]),
    one("ns5", "svc5", [{ ip: "10.180.0.3" }]),
  ];
}
