/** Create-path allocation: upstream TestCreateInvalidClusterIPInputs, headless, dry-run, ExternalName, NodePorts, rollback. */
import { parseIPSloppy, StatusError, validateServiceCreate } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import { normalizeClusterIPs } from "./normalize.ts";
import {
  allocatorState,
  makeService,
  makeTestAllocators,
  setClusterIP,
  setClusterIPs,
  setExternalTrafficPolicy,
  setIPFamilies,
  setIPFamilyPolicy,
  setNodePorts,
  setTypeExternalName,
  setTypeLoadBalancer,
  setTypeNodePort,
  type ClusterMode,
  type TestService,
  type Tweak,
} from "./testing.ts";

const ip = (s: string) => parseIPSloppy(s)!;

async function create(mode: ClusterMode, ...tweaks: Tweak[]) {
  const t = makeTestAllocators(mode);
  const svc = makeService("foo", ...tweaks);
  normalizeClusterIPs(svc, null);
  return { t, svc, result: t.alloc.allocateCreate(svc, false) };
}

describe("TestCreateInvalidClusterIPInputs (storage_test.go, its error substrings)", () => {
  it.each<{ name: string; mode: ClusterMode; tweaks: Tweak[]; substrings: string[] }>([
    { name: "bad policy", mode: "v4v6", tweaks: [setIPFamilyPolicy("bogus")], substrings: ["Unsupported value"] },
    { name: "bad family", mode: "v4v6", tweaks: [setIPFamilies("IPv5")], substrings: ["Unsupported value"] },
    {
      name: "RequireDualStack on single-stack",
      mode: "v4",
      tweaks: [setIPFamilyPolicy("RequireDualStack")],
      substrings: ["cluster is not configured for dual-stack"],
    },
    { name: "family not configured", mode: "v4", tweaks: [setIPFamilies("IPv6")], substrings: ["not configured on this cluster"] },
    {
      name: "IP family not configured",
      mode: "v6",
      tweaks: [setClusterIPs("10.0.0.1")],
      substrings: ["IPv4 is not configured on this cluster"],
    },
    {
      name: "SingleStack with two families",
      mode: "v4v6",
      tweaks: [setIPFamilyPolicy("SingleStack"), setIPFamilies("IPv4", "IPv6")],
      substrings: ["when multiple IP families are specified"],
    },
    {
      name: "SingleStack with two IPs",
      mode: "v4v6",
      tweaks: [setIPFamilyPolicy("SingleStack"), setClusterIPs("10.0.0.1", "2000::1")],
      substrings: ["when multiple cluster IPs are specified"],
    },
    {
      name: "duplicate family",
      mode: "v4v6",
      tweaks: [setIPFamilyPolicy("PreferDualStack"), setIPFamilies("IPv4", "IPv4")],
      substrings: ["Duplicate value"],
    },
    {
      name: "invalid secondary IP",
      mode: "v4v6",
      tweaks: [setIPFamilyPolicy("RequireDualStack"), setClusterIPs("10.0.0.1", "not-an-ip")],
      substrings: ["must be a valid IP"],
    },
    {
      name: "IP does not match family",
      mode: "v4v6",
      tweaks: [setIPFamilyPolicy("RequireDualStack"), setIPFamilies("IPv4", "IPv6"), setClusterIPs("2000::1", "10.0.0.1")],
      substrings: ["expected an IPv4 value as indicated"],
    },
    {
      name: "two IPs of one family",
      mode: "v4v6",
      tweaks: [setIPFamilyPolicy("RequireDualStack"), setClusterIPs("10.0.0.1", "10.0.0.2")],
      substrings: ["no more than one IP for each IP family"],
    },
    {
      name: "three IPs",
      mode: "v4v6",
      tweaks: [setIPFamilyPolicy("RequireDualStack"), setClusterIPs("10.0.0.1", "2000::1", "10.0.0.2")],
      substrings: ["only hold up to 2 values"],
    },
    {
      name: "empty string IP",
      mode: "v4",
      tweaks: [
        (s: TestService) => {
          s.spec.clusterIPs = [""];
        },
      ],
      substrings: ["must be empty when", "must be a valid IP"],
    },
    {
      name: "out of range",
      mode: "v4",
      tweaks: [setClusterIPs("10.1.0.1")],
      substrings: [
        "failed to allocate IP 10.1.0.1: the provided IP (10.1.0.1) is not in the valid range. The range of valid IPs is 10.0.0.0/16",
      ],
    },
    {
      name: "network address",
      mode: "v4",
      tweaks: [setClusterIPs("10.0.0.0")],
      substrings: ["failed to allocate IP 10.0.0.0", "not in the valid range"],
    },
    {
      name: "out of the IPv6 bitmap window",
      mode: "v6",
      tweaks: [setClusterIPs("2000::1:0")],
      substrings: ["failed to allocate IP 2000::1:0", "not in the valid range"],
    },
  ])("$name", async ({ mode, tweaks, substrings }) => {
    const { t, result } = await create(mode, ...tweaks);
    const before = allocatorState(makeTestAllocators(mode));
    const err = await result.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StatusError);
    expect((err as StatusError).code).toBe(422);
    expect((err as StatusError).message).toMatch(/^Service "foo" is invalid: /);
    for (const s of substrings) expect((err as StatusError).message).toContain(s);
    expect(allocatorState(t)).toBe(before);
  });

  it("renders the kubectl message for RequireDualStack on a single-stack cluster", async () => {
    const { result } = await create("v4", setIPFamilyPolicy("RequireDualStack"));
    await expect(result).rejects.toThrow(
      'Service "foo" is invalid: spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services',
    );
  });

  it("an IP already in use is rejected with upstream's text and the other family is not leaked", async () => {
    const t = makeTestAllocators("v4v6");
    await t.ranges.get("IPv6")!.allocate(ip("2000::5"));
    const before = allocatorState(t);
    const svc = makeService("foo", setIPFamilyPolicy("RequireDualStack"), setClusterIPs("10.0.0.5", "2000::5"));
    await expect(t.alloc.allocateCreate(svc, false)).rejects.toThrow(
      'spec.clusterIPs: Invalid value: []string{"10.0.0.5", "2000::5"}: failed to allocate IP 2000::5: provided IP is already allocated',
    );
    expect(allocatorState(t)).toBe(before);
  });
});

describe("TestCreateSkipsAllocationsForHeadless", () => {
  it.each<ClusterMode>(["v4", "v6", "v4v6", "v6v4"])("%s: headless keeps None and allocates nothing", async (mode) => {
    const { t, svc, result } = await create(mode, setClusterIP("None"));
    await (await result).commit();
    expect(svc.spec.clusterIP).toBe("None");
    expect(svc.spec.clusterIPs).toEqual(["None"]);
    expect([...t.ranges.values()].every((r) => r.used() === 0)).toBe(true);
  });

  it.each([
    ["NodePort", setTypeNodePort],
    ["LoadBalancer", setTypeLoadBalancer],
  ] as const)("headless %s: validation (after allocation) rejects it and the revert leaves nothing behind", async (kind, typ) => {
    const { t, svc, result } = await create("v4", typ, setClusterIP("None"));
    const txn = await result;
    expect(svc.spec.ports![0]!.nodePort).toBeGreaterThan(0);
    const errs = validateServiceCreate(svc);
    expect(errs.map((e) => e.detail)).toContain(`may not be set to 'None' for ${kind} services`);
    await txn.revert();
    expect(allocatorState(t)).toBe(allocatorState(makeTestAllocators("v4")));
  });
});

describe("TestCreateDryRun", () => {
  it.each<{ name: string; mode: ClusterMode; tweaks: Tweak[] }>([
    { name: "v4 unset", mode: "v4", tweaks: [] },
    { name: "v4 set", mode: "v4", tweaks: [setClusterIPs("10.0.0.1")] },
    { name: "v6 unset", mode: "v6", tweaks: [] },
    { name: "v6 set", mode: "v6", tweaks: [setClusterIPs("2000::1")] },
    { name: "v4v6 unset", mode: "v4v6", tweaks: [setIPFamilyPolicy("PreferDualStack")] },
    { name: "v4v6 set", mode: "v4v6", tweaks: [setIPFamilyPolicy("PreferDualStack"), setClusterIPs("10.0.0.1", "2000::1")] },
    { name: "NodePort", mode: "v4", tweaks: [setTypeNodePort] },
    {
      name: "LoadBalancer with nodePort and HCNP",
      mode: "v4",
      tweaks: [setTypeLoadBalancer, setNodePorts(30093), setExternalTrafficPolicy("Local")],
    },
  ])("$name: the response is populated, the allocators untouched", async ({ mode, tweaks }) => {
    const t = makeTestAllocators(mode);
    const before = allocatorState(t);
    const svc = makeService("foo", ...tweaks);
    normalizeClusterIPs(svc, null);
    const txn = await t.alloc.allocateCreate(svc, true);
    expect(svc.spec.clusterIPs!.length).toBe(svc.spec.ipFamilies!.length);
    for (const x of svc.spec.clusterIPs!) expect(parseIPSloppy(x)).not.toBeNull();
    if (svc.spec.type !== "ClusterIP") for (const p of svc.spec.ports!) expect(p.nodePort).toBeGreaterThan(0);
    await txn.commit();
    await txn.revert();
    expect(allocatorState(t)).toBe(before);
  });
});

describe("TestCreateIgnoresIPsForExternalName", () => {
  it.each<ClusterMode>(["v4", "v6", "v4v6", "v6v4"])("%s: no policy, no families, nothing allocated", async (mode) => {
    const { t, svc, result } = await create(mode, setTypeExternalName);
    await (await result).commit();
    expect(svc.spec.ipFamilyPolicy).toBeUndefined();
    expect(svc.spec.ipFamilies).toBeUndefined();
    expect(svc.spec.clusterIPs).toBeUndefined();
    expect(allocatorState(t)).toBe(allocatorState(makeTestAllocators(mode)));
  });
});
