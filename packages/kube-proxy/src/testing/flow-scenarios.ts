/**
 * The packetFlowTest scenarios the iptables and nftables proxier tests share
 * (pkg/proxy/iptables/proxier_test.go and pkg/proxy/nftables/proxier_test.go TestNoEndpointsReject,
 * TestClusterIPGeneral, TestLoadBalancer): the Services, their EndpointSlices and the flows.
 */
import type { EndpointSlice, Service } from "@servicenet/api";
import { makeTestEndpointSlice, makeTestService, tcpPort } from "./fixtures.ts";
import { testExternalClient, testExternalClientBlocked, testNodeIP, type PacketFlowTest } from "./packet-flows.ts";
import { testNodeName } from "./upstream-services.ts";

/** One scenario: what the proxier is given, and the flows to trace through its rules. */
export interface FlowScenario {
  services: Service[];
  slices: EndpointSlice[];
  flows: PacketFlowTest[];
}

/** TestNoEndpointsReject: every address of a Service without endpoints rejects. */
export function noEndpointsReject(): FlowScenario {
  const [svcIP, svcPort, svcNodePort, svcExternalIPs, svcLBIP] = ["172.30.0.41", 80, 3001, "192.168.99.11", "1.2.3.4"] as const;
  const svc = makeTestService("ns1", "svc1", (s) => {
    s.spec.type = "LoadBalancer";
    s.spec.clusterIP = svcIP;
    s.spec.externalIPs = [svcExternalIPs];
    s.spec.ports = [{ name: "p80", port: svcPort, protocol: "TCP", nodePort: svcNodePort }];
    s.status = { loadBalancer: { ingress: [{ ip: svcLBIP }] } };
  });
  const flows: PacketFlowTest[] = [
    { name: "pod to cluster IP with no endpoints", sourceIP: "10.0.0.2", destIP: svcIP, destPort: svcPort, output: "REJECT" },
    {
      name: "external to external IP with no endpoints",
      sourceIP: testExternalClient,
      destIP: svcExternalIPs,
      destPort: svcPort,
      output: "REJECT",
    },
    { name: "pod to NodePort with no endpoints", sourceIP: "10.0.0.2", destIP: testNodeIP, destPort: svcNodePort, output: "REJECT" },
    {
      name: "external to NodePort with no endpoints",
      sourceIP: testExternalClient,
      destIP: testNodeIP,
      destPort: svcNodePort,
      output: "REJECT",
    },
    { name: "pod to LoadBalancer IP with no endpoints", sourceIP: "10.0.0.2", destIP: svcLBIP, destPort: svcPort, output: "REJECT" },
    {
      name: "external to LoadBalancer IP with no endpoints",
      sourceIP: testExternalClient,
      destIP: svcLBIP,
      destPort: svcPort,
      output: "REJECT",
    },
  ];
  return { services: [svc], slices: [], flows };
}

/**
 * TestClusterIPGeneral: the rows both proxiers share; each backend adds what an unserved port
 * or protocol of a cluster IP gets (iptables: nothing; nftables: REJECT, and DROP for an
 * unallocated cluster IP).
 */
export function clusterIPGeneral(unserved: "" | "REJECT"): FlowScenario {
  const svc1 = makeTestService("ns1", "svc1", (s) => {
    s.spec.clusterIP = "172.30.0.41";
    s.spec.ports = [{ name: "http", port: 80, protocol: "TCP" }];
  });
  const svc2 = makeTestService("ns2", "svc2", (s) => {
    s.spec.clusterIP = "172.30.0.42";
    s.spec.ports = [
      { name: "http", port: 80, protocol: "TCP" },
      { name: "https", port: 443, protocol: "TCP", targetPort: 8443 },
      { name: "dns-udp", port: 53, protocol: "UDP" },
      { name: "dns-tcp", port: 53, protocol: "TCP", targetPort: 5353 },
      { name: "dns-sctp", port: 53, protocol: "SCTP" },
    ];
  });
  const slice1 = makeTestEndpointSlice("ns1", "svc1", 1, (e) => {
    e.endpoints = [{ addresses: ["10.180.0.1"], nodeName: testNodeName }];
    e.ports = [tcpPort("http", 80)];
  });
  const slice2 = makeTestEndpointSlice("ns2", "svc2", 1, (e) => {
    e.endpoints = [
      { addresses: ["10.180.0.1"], nodeName: testNodeName },
      { addresses: ["10.180.2.1"], nodeName: "node2" },
    ];
    e.ports = [
      tcpPort("http", 80),
      tcpPort("https", 8443),
      { name: "dns-udp", port: 53, protocol: "UDP" },
      tcpPort("dns-tcp", 5353),
      { name: "dns-sctp", port: 53, protocol: "SCTP" },
    ];
  });
  const flows: PacketFlowTest[] = [
    { name: "simple clusterIP", sourceIP: "10.180.0.2", destIP: "172.30.0.41", destPort: 80, output: "10.180.0.1:80" },
    { name: "hairpin to cluster IP", sourceIP: "10.180.0.1", destIP: "172.30.0.41", destPort: 80, output: "10.180.0.1:80", masq: true },
    {
      name: "clusterIP with multiple endpoints",
      sourceIP: "10.180.0.2",
      destIP: "172.30.0.42",
      destPort: 80,
      output: "10.180.0.1:80, 10.180.2.1:80",
    },
    {
      name: "clusterIP with TargetPort",
      sourceIP: "10.180.0.2",
      destIP: "172.30.0.42",
      destPort: 443,
      output: "10.180.0.1:8443, 10.180.2.1:8443",
    },
    {
      name: "clusterIP with TCP, UDP, and SCTP on same port (TCP)",
      sourceIP: "10.180.0.2",
      protocol: "tcp",
      destIP: "172.30.0.42",
      destPort: 53,
      output: "10.180.0.1:5353, 10.180.2.1:5353",
    },
    {
      name: "clusterIP with TCP, UDP, and SCTP on same port (UDP)",
      sourceIP: "10.180.0.2",
      protocol: "udp",
      destIP: "172.30.0.42",
      destPort: 53,
      output: "10.180.0.1:53, 10.180.2.1:53",
    },
    {
      name: "clusterIP with TCP, UDP, and SCTP on same port (SCTP)",
      sourceIP: "10.180.0.2",
      protocol: "sctp",
      destIP: "172.30.0.42",
      destPort: 53,
      output: "10.180.0.1:53, 10.180.2.1:53",
    },
    {
      name: "TCP-only port does not match UDP traffic",
      sourceIP: "10.180.0.2",
      protocol: "udp",
      destIP: "172.30.0.42",
      destPort: 80,
      output: unserved,
    },
    { name: "svc1 does not accept svc2's ports", sourceIP: "10.180.0.2", destIP: "172.30.0.41", destPort: 443, output: unserved },
  ];
  return { services: [svc1, svc2], slices: [slice1, slice2], flows };
}

/** TestLoadBalancer: two ingress IPs behind loadBalancerSourceRanges. */
export function loadBalancer(): FlowScenario {
  const [svcIP, svcPort, svcNodePort, lb1, lb2, epIP] = ["172.30.0.41", 80, 3001, "1.2.3.4", "5.6.7.8", "10.180.0.1"] as const;
  const svc = makeTestService("ns1", "svc1", (s) => {
    s.spec.type = "LoadBalancer";
    s.spec.clusterIP = svcIP;
    s.spec.ports = [{ name: "p80", port: svcPort, protocol: "TCP", nodePort: svcNodePort }];
    s.status = { loadBalancer: { ingress: [{ ip: lb1 }, { ip: lb2 }] } };
    s.spec.loadBalancerSourceRanges = ["192.168.0.0/24", " 203.0.113.0/25"];
  });
  const slice = makeTestEndpointSlice("ns1", "svc1", 1, (e) => {
    e.endpoints = [{ addresses: [epIP] }];
    e.ports = [tcpPort("p80", svcPort)];
  });
  const ep = `${epIP}:${svcPort}`;
  const flows: PacketFlowTest[] = [
    { name: "pod to cluster IP", sourceIP: "10.0.0.2", destIP: svcIP, destPort: svcPort, output: ep },
    { name: "external to nodePort", sourceIP: testExternalClient, destIP: testNodeIP, destPort: svcNodePort, output: ep, masq: true },
    {
      name: "nodePort bypasses LoadBalancerSourceRanges",
      sourceIP: testExternalClientBlocked,
      destIP: testNodeIP,
      destPort: svcNodePort,
      output: ep,
      masq: true,
    },
    { name: "accepted external to LB1", sourceIP: testExternalClient, destIP: lb1, destPort: svcPort, output: ep, masq: true },
    { name: "accepted external to LB2", sourceIP: testExternalClient, destIP: lb2, destPort: svcPort, output: ep, masq: true },
    { name: "blocked external to LB1", sourceIP: testExternalClientBlocked, destIP: lb1, destPort: svcPort, output: "DROP" },
    { name: "blocked external to LB2", sourceIP: testExternalClientBlocked, destIP: lb2, destPort: svcPort, output: "DROP" },
    { name: "pod to LB1 (blocked by LoadBalancerSourceRanges)", sourceIP: "10.0.0.2", destIP: lb1, destPort: svcPort, output: "DROP" },
    { name: "pod to LB2 (blocked by LoadBalancerSourceRanges)", sourceIP: "10.0.0.2", destIP: lb2, destPort: svcPort, output: "DROP" },
    {
      name: "node to LB1 (allowed by LoadBalancerSourceRanges)",
      sourceIP: testNodeIP,
      destIP: lb1,
      destPort: svcPort,
      output: ep,
      masq: true,
    },
    {
      name: "node to LB2 (allowed by LoadBalancerSourceRanges)",
      sourceIP: testNodeIP,
      destIP: lb2,
      destPort: svcPort,
      output: ep,
      masq: true,
    },
    {
      name: "same node to LB1, SNATted to LB1 (implicitly allowed)",
      sourceIP: lb1,
      destIP: lb1,
      destPort: svcPort,
      output: ep,
      masq: true,
    },
    {
      name: "same node to LB2, SNATted to LB2 (implicitly allowed)",
      sourceIP: lb2,
      destIP: lb2,
      destPort: svcPort,
      output: ep,
      masq: true,
    },
  ];
  return { services: [svc], slices: [slice], flows };
}
