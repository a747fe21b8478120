/**
 * Upstream TestFeatureType through the HTTP API: POST a Service of one type, PUT it as another
 * (without clusterIPs or nodePorts, as a client that only changes `type` would), and check what
 * the response holds and what the allocators behind the server's ServiceREST still hold.
 */
import { formatIP } from "@servicenet/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../../server/testing.ts";
import type { ServiceREST } from "./rest.ts";
import {
  makeService,
  setIPFamilyPolicy,
  setTypeClusterIP,
  setTypeExternalName,
  setTypeLoadBalancer,
  setTypeNodePort,
  type TestService,
  type Tweak,
} from "./testing.ts";

let s: TestServer;
let n = 0;
const path = "/api/v1/namespaces/default/services";

beforeAll(async () => {
  s = await startTestServer({ tls: false, serviceClusterIPRange: "10.0.0.0/16,2000::/108" });
});
afterAll(async () => s.close());

async function send(
  method: string,
  url: string,
  svc: TestService,
): Promise<{ status: number; spec: TestService["spec"]; message: string }> {
  const res = await s.request(url, {
    method,
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ apiVersion: "v1", kind: "Service", ...svc }),
  });
  const obj = res.json() as { spec: TestService["spec"]; message: string };
  return { status: res.status, spec: obj.spec, message: obj.message };
}

function held(): { ips: Set<string>; ports: Set<number> } {
  const rest = s.api.server.registry.stores.get("services/specs") as ServiceREST;
  const ips = new Set<string>();
  for (const r of rest.allocators.serviceIPAllocatorsByFamily.values()) r.forEach((ip) => ips.add(formatIP(ip)));
  const ports = new Set<number>();
  rest.allocators.serviceNodePorts.forEach((p) => ports.add(p));
  return { ips, ports };
}

const types: Record<string, Tweak> = {
  ClusterIP: setTypeClusterIP,
  NodePort: setTypeNodePort,
  LoadBalancer: setTypeLoadBalancer,
  LoadBalancerNoNodePorts: (svc) => {
    setTypeLoadBalancer(svc);
    svc.spec.allocateLoadBalancerNodePorts = false;
  },
  ExternalName: setTypeExternalName,
};
type Kind = keyof typeof types;
const wantsIPs = (k: Kind): boolean => k !== "ExternalName";
const wantsPorts = (k: Kind): boolean => k === "NodePort" || k === "LoadBalancer";

const transitions: Array<[Kind, Kind]> = [
  ["ClusterIP", "NodePort"],
  ["ClusterIP", "LoadBalancer"],
  ["ClusterIP", "LoadBalancerNoNodePorts"],
  ["ClusterIP", "ExternalName"],
  ["NodePort", "ClusterIP"],
  ["NodePort", "LoadBalancer"],
  ["NodePort", "ExternalName"],
  ["LoadBalancer", "NodePort"],
  ["LoadBalancer", "ClusterIP"],
  ["LoadBalancer", "ExternalName"],
  ["ExternalName", "ClusterIP"],
  ["ExternalName", "NodePort"],
  ["ExternalName", "LoadBalancer"],
];

describe("TestFeatureType over HTTP (dual-stack cluster, PreferDualStack services)", () => {
  it.each(transitions)("%s -> %s", async (from, to) => {
    const name = `t${n++}`;
    const dual = setIPFamilyPolicy("PreferDualStack");
    const c = await send("POST", path, makeService(name, types[from]!, ...(wantsIPs(from) ? [dual] : [])));
    expect(c.status, c.message).toBe(201);
    const oldIPs = c.spec.clusterIPs ?? [];
    const oldPort = c.spec.ports![0]!.nodePort;
    expect(oldIPs.length).toBe(wantsIPs(from) ? 2 : 0);
    expect(oldPort !== undefined).toBe(wantsPorts(from));

    const u = await send("PUT", `${path}/${name}`, makeService(name, types[to]!, ...(wantsIPs(to) ? [dual] : [])));
    expect(u.status, u.message).toBe(200);
    const { ips, ports } = held();
    const newIPs = u.spec.clusterIPs ?? [];
    const newPort = u.spec.ports![0]!.nodePort;
    // IPs: kept across IP-holding types, released on ExternalName, fresh when leaving it.
    expect(newIPs.length).toBe(wantsIPs(to) ? 2 : 0);
    if (wantsIPs(from) && wantsIPs(to)) expect(newIPs).toEqual(oldIPs);
    for (const ip of newIPs) expect(ips.has(ip)).toBe(true);
    if (!wantsIPs(to)) for (const ip of oldIPs) expect(ips.has(ip)).toBe(false);
    // NodePorts: kept between NodePort and LoadBalancer, released otherwise, allocated on the way in.
    expect(newPort !== undefined).toBe(wantsPorts(to));
    if (wantsPorts(from) && wantsPorts(to)) expect(newPort).toBe(oldPort);
    if (newPort !== undefined) expect(ports.has(newPort)).toBe(true);
    if (oldPort !== undefined && !wantsPorts(to)) expect(ports.has(oldPort)).toBe(false);

    expect((await s.request(`${path}/${name}`, { method: "DELETE" })).status).toBe(200);
    const after = held();
    for (const ip of newIPs) expect(after.ips.has(ip)).toBe(false);
    if (newPort !== undefined) expect(after.ports.has(newPort)).toBe(false);
  });
});
