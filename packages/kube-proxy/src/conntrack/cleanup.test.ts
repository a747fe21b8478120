/**
 * pkg/proxy/conntrack/cleanup_test.go: TestCleanStaleEntries (the IP:port version: an endpoint
 * that changed port is stale too) and TestServiceWithoutEndpoints, on the maps a real proxier
 * builds from the same Service and EndpointSlice.
 */
import type { EndpointSlice, Service } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import { IptablesProxier } from "../iptables/proxier.ts";
import { populate } from "../proxy/populate.ts";
import { makeTestEndpointSlice, makeTestService } from "../testing/fixtures.ts";
import { cleanStaleEntries } from "./cleanup.ts";
import { FakeConntrack, type ConntrackFlow } from "./conntrack.ts";

const clusterIP = "172.30.1.1";
const externalIP = "192.168.99.100";
const loadBalancerIP = "1.2.3.4";
const serving = "10.240.0.4";
const nonServing = "10.240.1.5";
const deleted = "10.240.2.6";
const oldEndpointPort = 8080;
const endpointPort = 9090;
const servicePort = 8000;
const nodePort = 32000;
const nonServicePort = 3000;

function service(protocols: string[]): Service {
  return makeTestService("test", "cleanup-test", (s) => {
    s.spec.clusterIP = clusterIP;
    s.spec.clusterIPs = [clusterIP];
    s.spec.externalIPs = [externalIP];
    s.spec.type = "LoadBalancer";
    s.spec.ports = protocols.map((p) => ({
      name: `test-${p.toLowerCase()}`,
      port: servicePort,
      protocol: p,
      ...(p === "TCP" ? {} : { nodePort }),
    }));
    s.status = { loadBalancer: { ingress: [{ ip: loadBalancerIP }] } };
  });
}

function slice(protocols: string[], endpoints: { ip: string; serving: boolean }[]): EndpointSlice {
  return makeTestEndpointSlice("test", "cleanup-test", 0, (e) => {
    e.endpoints = endpoints.map((x) => ({ addresses: [x.ip], conditions: { ready: x.serving, serving: x.serving } }));
    e.ports = protocols.map((p) => ({ name: `test-${p.toLowerCase()}`, port: endpointPort, protocol: p }));
  });
}

/** The proxier's maps after one sync of `svc` and `eps`. */
function maps(svc: Service, eps: EndpointSlice) {
  const p = new IptablesProxier({ ipFamily: "IPv4", nodeName: "test-worker" });
  populate(p, [svc], [eps]);
  const r = p.syncProxyRules();
  if (r !== null) p.commit(r);
  return { svcPortMap: p.svcPortMap, endpointsMap: p.endpointsMap };
}

const flow = (protocol: string, origDst: string, origPortDst: number, replySrc: string, replyPortSrc: number): ConntrackFlow => ({
  protocol,
  origDst,
  origPortDst,
  replySrc,
  replyPortSrc,
});

describe("CleanStaleEntries", () => {
  it("TestCleanStaleEntries: UDP flows to a frontend not replied by a serving endpoint's ip:port go, the rest stay", async () => {
    const protocols = ["TCP", "UDP", "SCTP"];
    const { svcPortMap, endpointsMap } = maps(
      service(protocols),
      slice(protocols, [
        { ip: serving, serving: true },
        { ip: nonServing, serving: false },
      ]),
    );
    const before: ConntrackFlow[] = [];
    const after: ConntrackFlow[] = [];
    // The endpoint changed port, kept its IP: stale.
    for (const dst of [clusterIP, loadBalancerIP, externalIP]) before.push(flow("udp", dst, servicePort, serving, oldEndpointPort));
    for (const dnat of [serving, nonServing, deleted]) {
      for (const proto of ["tcp", "udp", "sctp"]) {
        for (const dst of [clusterIP, loadBalancerIP, externalIP]) {
          for (const port of [servicePort, nonServicePort]) {
            const f = flow(proto, dst, port, dnat, endpointPort);
            before.push(f);
            if (!(proto === "udp" && port === servicePort && dnat !== serving)) after.push(f);
          }
        }
        // `*:NodePort`: conntrack matches any original destination.
        const f = flow(proto, "", nodePort, dnat, endpointPort);
        before.push(f);
        if (!(proto === "udp" && dnat !== serving)) after.push(f);
      }
    }
    // Not DNATed (no DROP/REJECT rule for a Service without endpoints): reply source is the Service IP.
    for (const ip of [clusterIP, loadBalancerIP, externalIP]) {
      for (const port of [servicePort, nonServicePort]) {
        const f = flow("udp", ip, port, ip, 0);
        before.push(f);
        if (port !== servicePort) after.push(f);
      }
    }
    const ct = new FakeConntrack(before);
    const r = await cleanStaleEntries(ct, "IPv4", svcPortMap, endpointsMap);
    expect(r.deleted).toBe(before.length - after.length);
    const key = (f: ConntrackFlow) => JSON.stringify(f);
    expect(ct.entries.map(key).sort()).toEqual(after.map(key).sort());
  });

  it("TestServiceWithoutEndpoints: a UDP Service with no serving endpoint keeps its flows", async () => {
    const { svcPortMap, endpointsMap } = maps(service(["UDP"]), slice(["UDP"], [{ ip: nonServing, serving: false }]));
    const entries = [
      flow("udp", clusterIP, servicePort, deleted, endpointPort),
      flow("udp", externalIP, servicePort, nonServing, endpointPort),
    ];
    const ct = new FakeConntrack([...entries]);
    const r = await cleanStaleEntries(ct, "IPv4", svcPortMap, endpointsMap);
    expect(r.deleted).toBe(0);
    expect(ct.entries).toEqual(entries);
    expect(r.frontends.size).toBe(0);
  });
});
