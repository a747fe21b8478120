/**
 * Create-path outcomes through the HTTP API (upstream TestCreateInvalidClusterIPInputs,
 * TestCreateSkipsAllocationsForHeadless, TestCreateDryRun): POST to a started apiserver per
 * cluster mode and per allocator mode (bitmap, dual-write, IPAddress); the allocators and the
 * stored IPAddress objects are only read, to prove that failures and dry runs leave nothing
 * allocated.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { featureGatesForMode, type AllocatorMode } from "../../../../features/kube-features.ts";
import { resourcePrefix } from "../../../../storage/index.ts";
import { startTestServer, type TestServer } from "../../../../server/testing.ts";
import type { ServiceREST } from "./rest.ts";
import {
  clusterModes,
  makeService,
  setClusterIP,
  setClusterIPs,
  setExternalTrafficPolicy,
  setIPFamilies,
  setIPFamilyPolicy,
  setNodePorts,
  setTypeLoadBalancer,
  setTypeNodePort,
  type ClusterMode,
  type TestService,
  type Tweak,
} from "./testing.ts";

const modes = Object.keys(clusterModes) as ClusterMode[];
const allocatorModes: AllocatorMode[] = ["bitmap", "dual-write", "ipaddress"];
const rangeFlag = (mode: ClusterMode): string => clusterModes[mode].map((f) => (f === "IPv4" ? "10.0.0.0/16" : "2000::/108")).join(",");
const path = "/api/v1/namespaces/default/services";

describe.each(allocatorModes)("allocator mode %s", (allocatorMode) => {
  const servers = new Map<ClusterMode, TestServer>();
  const legacy = allocatorMode === "bitmap";

  beforeAll(async () => {
    for (const m of modes)
      servers.set(
        m,
        await startTestServer({ tls: false, serviceClusterIPRange: rangeFlag(m), featureGates: featureGatesForMode(allocatorMode) }),
      );
  });
  afterAll(async () => {
    for (const s of servers.values()) await s.close();
  });

  interface Reply {
    status: number;
    obj: { message?: string; reason?: string; spec?: TestService["spec"] };
  }

  async function post(mode: ClusterMode, svc: TestService, query = ""): Promise<Reply> {
    const res = await servers.get(mode)!.request(`${path}${query}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ apiVersion: "v1", kind: "Service", ...svc }),
    });
    return { status: res.status, obj: res.json() as Reply["obj"] };
  }

  /** Every allocated IP (bitmap bits, stored IPAddress objects) and port, as one comparable string. */
  async function allocated(mode: ClusterMode): Promise<string> {
    const api = servers.get(mode)!.api;
    const rest = api.server.registry.stores.get("services/specs") as ServiceREST;
    const out: string[] = [];
    for (const b of api.serviceAllocators.bitmaps.values()) b.forEach((ip) => out.push(`bit ${ip.value}`));
    for (const o of (await api.store.list(resourcePrefix("ipaddresses"))).items) out.push(`ipaddress ${o.metadata.name}`);
    rest.allocators.serviceNodePorts.forEach((p) => out.push(String(p)));
    return out.sort().join(",");
  }

  describe("TestCreateInvalidClusterIPInputs over HTTP", () => {
    it.each<{ name: string; mode: ClusterMode; tweaks: Tweak[]; substrings: string[] }>([
      { name: "bad policy", mode: "v4v6", tweaks: [setIPFamilyPolicy("bogus")], substrings: ["Unsupported value"] },
      {
        name: "RequireDualStack on single-stack",
        mode: "v4",
        tweaks: [setIPFamilyPolicy("RequireDualStack")],
        substrings: ["this cluster is not configured for dual-stack services"],
      },
      { name: "family not configured", mode: "v4", tweaks: [setIPFamilies("IPv6")], substrings: ["not configured on this cluster"] },
      {
        name: "IP family not configured",
        mode: "v6",
        tweaks: [setClusterIPs("10.0.0.10")],
        substrings: ["IPv4 is not configured on this cluster"],
      },
      {
        name: "SingleStack with two families",
        mode: "v4v6",
        tweaks: [setIPFamilyPolicy("SingleStack"), setIPFamilies("IPv4", "IPv6")],
        substrings: ["when multiple IP families are specified"],
      },
      {
        name: "duplicate family",
        mode: "v6v4",
        tweaks: [setIPFamilyPolicy("PreferDualStack"), setIPFamilies("IPv6", "IPv6")],
        substrings: ["Duplicate value"],
      },
      {
        name: "invalid secondary IP",
        mode: "v4v6",
        tweaks: [setIPFamilyPolicy("RequireDualStack"), setClusterIPs("10.0.0.10", "not-an-ip")],
        substrings: ["must be a valid IP"],
      },
      {
        name: "IP does not match family",
        mode: "v4v6",
        tweaks: [setIPFamilyPolicy("RequireDualStack"), setIPFamilies("IPv4", "IPv6"), setClusterIPs("2000::10", "10.0.0.10")],
        substrings: ["expected an IPv4 value as indicated"],
      },
      {
        name: "two IPs of one family",
        mode: "v4v6",
        tweaks: [setIPFamilyPolicy("RequireDualStack"), setClusterIPs("10.0.0.10", "10.0.0.11")],
        substrings: ["no more than one IP for each IP family"],
      },
      {
        name: "out of range",
        mode: "v4",
        tweaks: [setClusterIPs("10.1.0.1")],
        // The MetaAllocator finds no ServiceCIDR holding the IP (upstream ErrMismatchedNetwork).
        substrings: [
          legacy
            ? "failed to allocate IP 10.1.0.1: the provided IP (10.1.0.1) is not in the valid range. The range of valid IPs is 10.0.0.0/16"
            : "failed to allocate IP 10.1.0.1: the provided network does not match the current range",
        ],
      },
      // The kubernetes Service holds 2000::1 here; 10.0.0.10 is taken first and must be given back.
      {
        name: "already allocated, first family not leaked",
        mode: "v6v4",
        tweaks: [setIPFamilyPolicy("RequireDualStack"), setClusterIPs("10.0.0.10", "2000::1")],
        substrings: ["failed to allocate IP 2000::1: provided IP is already allocated"],
      },
      ...(legacy
        ? [
            {
              name: "out of the IPv6 bitmap window",
              mode: "v6" as ClusterMode,
              tweaks: [setClusterIPs("2000::1:0")],
              substrings: ["failed to allocate IP 2000::1:0", "not in the valid range"],
            },
          ]
        : []),
    ])("$mode $name: 422 with upstream's text, nothing allocated", async ({ mode, tweaks, substrings }) => {
      const before = await allocated(mode);
      const { status, obj } = await post(mode, makeService("foo", ...tweaks));
      expect(status).toBe(422);
      expect(obj.reason).toBe("Invalid");
      expect(obj.message).toMatch(/^Service "foo" is invalid: /);
      for (const s of substrings) expect(obj.message).toContain(s);
      expect(await allocated(mode)).toBe(before);
    });
  });

  describe("TestCreateSkipsAllocationsForHeadless over HTTP", () => {
    it.each(modes)("%s: headless keeps None and allocates nothing", async (mode) => {
      const before = await allocated(mode);
      const { status, obj } = await post(mode, makeService("headless", setClusterIP("None")));
      expect(status).toBe(201);
      expect(obj.spec!.clusterIPs).toEqual(["None"]);
      expect(obj.spec!.ipFamilies).toEqual([clusterModes[mode][0]]);
      expect(await allocated(mode)).toBe(before);
    });

    it.each([
      ["NodePort", setTypeNodePort],
      ["LoadBalancer", setTypeLoadBalancer],
    ] as const)("headless %s is rejected and its NodePort goes back", async (kind, typ) => {
      const before = await allocated("v4");
      const { status, obj } = await post("v4", makeService("hl-np", typ, setClusterIP("None")));
      expect(status).toBe(422);
      expect(obj.message).toContain(`may not be set to 'None' for ${kind} services`);
      expect(await allocated("v4")).toBe(before);
    });
  });

  describe("TestCreateDryRun over HTTP", () => {
    let dryRuns = 0;
    it.each<{ name: string; mode: ClusterMode; tweaks: Tweak[] }>([
      { name: "v4 unset", mode: "v4", tweaks: [] },
      { name: "v4 set", mode: "v4", tweaks: [setClusterIPs("10.0.0.20")] },
      { name: "v6 set", mode: "v6", tweaks: [setClusterIPs("2000::20")] },
      { name: "v4v6 unset", mode: "v4v6", tweaks: [setIPFamilyPolicy("PreferDualStack")] },
      { name: "v6v4 set", mode: "v6v4", tweaks: [setIPFamilyPolicy("RequireDualStack"), setClusterIPs("2000::20", "10.0.0.20")] },
      { name: "NodePort set", mode: "v4v6", tweaks: [setTypeNodePort, setNodePorts(30093)] },
      {
        name: "LoadBalancer with nodePort and HCNP",
        mode: "v4",
        tweaks: [setTypeLoadBalancer, setNodePorts(30094), setExternalTrafficPolicy("Local")],
      },
    ])("$name: populated response, nothing stored or allocated, the same request then succeeds", async ({ mode, tweaks }) => {
      const before = await allocated(mode);
      const name = `dry${dryRuns++}`;
      const dry = await post(mode, makeService(name, ...tweaks), "?dryRun=All");
      expect(dry.status).toBe(201);
      const spec = dry.obj.spec!;
      expect(spec.clusterIPs!.length).toBe(spec.ipFamilies!.length);
      if (spec.type !== "ClusterIP") for (const p of spec.ports!) expect(p.nodePort).toBeGreaterThan(0);
      if (spec.externalTrafficPolicy === "Local") expect((spec as { healthCheckNodePort?: number }).healthCheckNodePort).toBeGreaterThan(0);
      expect(await allocated(mode)).toBe(before);
      expect((await servers.get(mode)!.request(`${path}/${name}`)).status).toBe(404);
      const real = await post(mode, makeService(name, ...tweaks));
      expect(real.status).toBe(201);
      expect(real.obj.spec!.ipFamilies).toEqual(spec.ipFamilies);
      const asked = makeService(name, ...tweaks).spec;
      if (asked.clusterIPs) expect(real.obj.spec!.clusterIPs).toEqual(asked.clusterIPs);
      if (asked.ports?.[0]?.nodePort) expect(real.obj.spec!.ports![0]!.nodePort).toBe(asked.ports[0].nodePort);
      expect(await allocated(mode)).not.toBe(before);
    });
  });

  describe.skipIf(legacy)("IPAddress allocation beyond the bitmap", () => {
    it("a static IP of the /108 outside the bitmap's /112 window is allocated as an IPAddress only", async () => {
      const { status, obj } = await post("v6", makeService("wide", setClusterIPs("2000::1:0")));
      expect(status).toBe(201);
      expect(obj.spec!.clusterIPs).toEqual(["2000::1:0"]);
      expect(await allocated("v6")).toContain("ipaddress 2000::1:0");
    });
  });
});
