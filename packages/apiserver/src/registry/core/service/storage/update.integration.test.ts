/**
 * Update-path outcomes through the HTTP API: upstream TestUpdateIPsFromSingleStack,
 * TestUpdateIPsFromDualStack and TestUpdatePatchAllocatedValues (a few rows each) as POST then PUT
 * against a started dual-stack (v4v6) apiserver. The allocators behind the ServiceREST are only
 * read, to check that upgrades hold and downgrades release the secondary IP.
 */
import { formatIP } from "@servicenet/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../../server/testing.ts";
import type { ServiceREST } from "./rest.ts";
import {
  makeService,
  setExternalTrafficPolicy,
  setIPFamilies,
  setIPFamilyPolicy,
  setPorts,
  setSelector,
  setTypeLoadBalancer,
  setTypeNodePort,
  type TestService,
  type Tweak,
} from "./testing.ts";

let s: TestServer;
let n = 0;
const path = "/api/v1/namespaces/default/services";
type Spec = TestService["spec"] & { healthCheckNodePort?: number };

beforeAll(async () => {
  s = await startTestServer({ tls: false, serviceClusterIPRange: "10.0.0.0/16,2000::/108" });
});
afterAll(async () => s.close());

async function send(method: string, url: string, svc: TestService): Promise<{ status: number; spec: Spec; message: string }> {
  const res = await s.request(url, {
    method,
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ apiVersion: "v1", kind: "Service", ...svc }),
  });
  const obj = res.json() as { spec: Spec; message: string };
  return { status: res.status, spec: obj.spec, message: obj.message };
}

/** Creates a fresh Service (unique name) and returns its name and stored spec. */
async function created(...tweaks: Tweak[]): Promise<{ name: string; spec: Spec }> {
  const name = `u${n++}`;
  const r = await send("POST", path, makeService(name, ...tweaks));
  expect(r.status, r.message).toBe(201);
  return { name, spec: r.spec };
}

/** Upstream's update objects change the selector too (k2: v2); PUT carries no clusterIPs. */
const put = (name: string, ...tweaks: Tweak[]) => send("PUT", `${path}/${name}`, makeService(name, setSelector({ k2: "v2" }), ...tweaks));

function allocatedIPs(): Set<string> {
  const rest = s.api.server.registry.stores.get("services/specs") as ServiceREST;
  const out = new Set<string>();
  for (const r of rest.allocators.serviceIPAllocatorsByFamily.values()) r.forEach((ip) => out.add(formatIP(ip)));
  return out;
}

interface Row {
  name: string;
  tweaks: Tweak[];
  want: { error: string } | { policy: string; families: string[] };
}

async function checkRow(before: Tweak[], { tweaks, want }: Row): Promise<void> {
  const { name, spec: old } = await created(...before);
  const ipsBefore = allocatedIPs();
  const r = await put(name, ...tweaks);
  if ("error" in want) {
    expect(r.status).toBe(422);
    expect(r.message).toContain(want.error);
    expect(allocatedIPs()).toEqual(ipsBefore);
    return;
  }
  expect(r.status, r.message).toBe(200);
  expect(r.spec.ipFamilyPolicy).toBe(want.policy);
  expect(r.spec.ipFamilies).toEqual(want.families);
  expect(r.spec.clusterIPs!.length).toBe(want.families.length);
  expect(r.spec.clusterIPs![0]).toBe(old.clusterIPs![0]);
  // Every IP the Service holds now is allocated; one it gave up (downgrade) is free again.
  const now = allocatedIPs();
  for (const ip of r.spec.clusterIPs!) expect(now.has(ip)).toBe(true);
  for (const ip of old.clusterIPs!.slice(want.families.length)) expect(now.has(ip)).toBe(false);
}

describe("TestUpdateIPsFromSingleStack over HTTP (before: SingleStack IPv4)", () => {
  it.each<Row>([
    { name: "policy:unset families:unset", tweaks: [], want: { policy: "SingleStack", families: ["IPv4"] } },
    {
      name: "policy:unset families:v4v6",
      tweaks: [setIPFamilies("IPv4", "IPv6")],
      want: { error: "when multiple IP families are specified" },
    },
    {
      name: "policy:PreferDualStack families:unset",
      tweaks: [setIPFamilyPolicy("PreferDualStack")],
      want: { policy: "PreferDualStack", families: ["IPv4", "IPv6"] },
    },
    {
      name: "policy:PreferDualStack families:v6v4 (primary may not change)",
      tweaks: [setIPFamilyPolicy("PreferDualStack"), setIPFamilies("IPv6", "IPv4")],
      want: { error: "expected an IPv6 value as indicated" },
    },
    {
      name: "policy:RequireDualStack families:v4v6",
      tweaks: [setIPFamilyPolicy("RequireDualStack"), setIPFamilies("IPv4", "IPv6")],
      want: { policy: "RequireDualStack", families: ["IPv4", "IPv6"] },
    },
  ])("$name", (row) => checkRow([setIPFamilyPolicy("SingleStack")], row));
});

describe("TestUpdateIPsFromDualStack over HTTP (before: RequireDualStack IPv4,IPv6)", () => {
  it.each<Row>([
    { name: "policy:unset families:unset", tweaks: [], want: { policy: "RequireDualStack", families: ["IPv4", "IPv6"] } },
    {
      name: "policy:PreferDualStack families:unset",
      tweaks: [setIPFamilyPolicy("PreferDualStack")],
      want: { policy: "PreferDualStack", families: ["IPv4", "IPv6"] },
    },
    {
      name: "policy:SingleStack families:unset (downgrade releases the secondary)",
      tweaks: [setIPFamilyPolicy("SingleStack")],
      want: { policy: "SingleStack", families: ["IPv4"] },
    },
    {
      name: "policy:SingleStack families:v4 (downgrade)",
      tweaks: [setIPFamilyPolicy("SingleStack"), setIPFamilies("IPv4")],
      want: { policy: "SingleStack", families: ["IPv4"] },
    },
    {
      name: "policy:SingleStack families:v6",
      tweaks: [setIPFamilyPolicy("SingleStack"), setIPFamilies("IPv6")],
      want: { error: "expected an IPv6 value as indicated" },
    },
    {
      name: "policy:PreferDualStack families:v4",
      tweaks: [setIPFamilyPolicy("PreferDualStack"), setIPFamilies("IPv4")],
      want: { error: "must be 'SingleStack' to release the secondary IP family" },
    },
  ])("$name", (row) => checkRow([setIPFamilyPolicy("RequireDualStack")], row));
});

describe("TestUpdatePatchAllocatedValues over HTTP", () => {
  it("PUT without clusterIP(s), nodePorts and healthCheckNodePort keeps the allocated values", async () => {
    const ports = [
      { name: "http", port: 80 },
      { name: "https", port: 443 },
    ];
    const { name, spec: old } = await created(
      setTypeLoadBalancer,
      setExternalTrafficPolicy("Local"),
      setIPFamilyPolicy("PreferDualStack"),
      setPorts(...ports),
    );
    expect(old.healthCheckNodePort).toBeGreaterThan(0);
    // Reordered ports: values follow the port (by name), not the position.
    const r = await put(
      name,
      setTypeLoadBalancer,
      setExternalTrafficPolicy("Local"),
      setIPFamilyPolicy("PreferDualStack"),
      setPorts(ports[1]!, ports[0]!),
    );
    expect(r.status, r.message).toBe(200);
    expect(r.spec.clusterIP).toBe(old.clusterIP);
    expect(r.spec.clusterIPs).toEqual(old.clusterIPs);
    expect(r.spec.healthCheckNodePort).toBe(old.healthCheckNodePort);
    const byName = (spec: Spec) => Object.fromEntries(spec.ports!.map((p) => [p.name, p.nodePort]));
    expect(byName(r.spec)).toEqual(byName(old));
  });

  it("a NodePort PUT without nodePort keeps it; GET shows the same", async () => {
    const { name, spec: old } = await created(setTypeNodePort);
    const r = await put(name, setTypeNodePort);
    expect(r.status).toBe(200);
    expect(r.spec.ports![0]!.nodePort).toBe(old.ports![0]!.nodePort);
    const got = (await s.request(`${path}/${name}`)).json() as { spec: Spec };
    expect(got.spec.clusterIPs).toEqual(old.clusterIPs);
    expect(got.spec.ports![0]!.nodePort).toBe(old.ports![0]!.nodePort);
  });
});
