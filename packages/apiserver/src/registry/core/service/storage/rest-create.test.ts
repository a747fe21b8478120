import { StatusError, parseCIDR, parseIP, cidrContains } from "@servicenet/api";
import { createStore } from "../../../../storage/index.ts";
import { describe, expect, it } from "vitest";
import { body, faultyStore, newTestREST, specOf } from "./rest-testing.ts";
import {
  allocatorState,
  setClusterIPs,
  setIPFamilyPolicy,
  setTypeNodePort,
  setTypeLoadBalancer,
  setExternalTrafficPolicy,
  type ClusterMode,
} from "./testing.ts";

const cidrs = { IPv4: parseCIDR("10.0.0.0/16")!, IPv6: parseCIDR("2000::/108")! };

async function rejection(p: Promise<unknown>): Promise<StatusError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(StatusError);
  return err as StatusError;
}

describe("ServiceREST create", () => {
  it.each<[ClusterMode, string | undefined, string[]]>([
    ["v4", undefined, ["IPv4"]],
    ["v6", undefined, ["IPv6"]],
    ["v4v6", undefined, ["IPv4"]],
    ["v6v4", undefined, ["IPv6"]],
    ["v4v6", "PreferDualStack", ["IPv4", "IPv6"]],
    ["v6v4", "RequireDualStack", ["IPv6", "IPv4"]],
    ["v4", "PreferDualStack", ["IPv4"]],
  ])("mode %s policy %s gets ClusterIPs of %j, held by the allocators and stored", async (mode, policy, families) => {
    const { rest, t } = await newTestREST(mode);
    const out = await rest.create("default", body("foo", ...(policy ? [setIPFamilyPolicy(policy)] : [])));
    const spec = specOf(out);
    expect(spec.ipFamilies).toEqual(families);
    expect(spec.clusterIPs).toHaveLength(families.length);
    expect(spec.clusterIP).toBe(spec.clusterIPs?.[0]);
    spec.clusterIPs!.forEach((ip, i) => {
      const fam = families[i] as "IPv4" | "IPv6";
      expect(cidrContains(cidrs[fam], parseIP(ip)!)).toBe(true);
      expect(t.ranges.get(fam)!.has(parseIP(ip)!)).toBe(true);
    });
    const stored = await rest.get("default", "foo");
    expect(specOf(stored).clusterIPs).toEqual(spec.clusterIPs);
    expect(out.metadata.resourceVersion).toBe(stored.metadata.resourceVersion);
  });

  it("honours a requested IP and rejects it for a second Service with 422, leaking nothing", async () => {
    const { rest, t } = await newTestREST("v4v6");
    const out = await rest.create("default", body("a", setClusterIPs("10.0.0.5", "2000::5"), setIPFamilyPolicy("RequireDualStack")));
    expect(specOf(out).clusterIPs).toEqual(["10.0.0.5", "2000::5"]);
    const before = allocatorState(t);
    // The IPv6 address is free, so it is taken before IPv4 fails: it must be given back.
    const err = await rejection(
      rest.create("default", body("b", setClusterIPs("2000::9", "10.0.0.5"), setIPFamilyPolicy("RequireDualStack"))),
    );
    expect(err.code).toBe(422);
    expect(err.message).toContain("provided IP is already allocated");
    expect(allocatorState(t)).toBe(before);
    await expect(rest.get("default", "b")).rejects.toMatchObject({ reason: "NotFound" });
  });

  it("a full IPv6 range fails the create and gives back the IPv4 address already taken", async () => {
    const { rest, t } = await newTestREST("v4v6");
    const v6 = t.ranges.get("IPv6")!;
    while (v6.free() > 0) v6.allocateNextSync();
    const before = allocatorState(t);
    const err = await rejection(rest.create("default", body("foo", setIPFamilyPolicy("RequireDualStack"))));
    expect(err.message).toContain("range is full");
    expect(allocatorState(t)).toBe(before);
  });

  it("a full NodePort range fails the create and gives back the ClusterIP", async () => {
    const { rest, t } = await newTestREST("v4");
    while (t.ports.free() > 0) await t.ports.allocateNext();
    const before = allocatorState(t);
    await rejection(rest.create("default", body("foo", setTypeNodePort)));
    expect(allocatorState(t)).toBe(before);
  });

  it.each([
    ["ClusterIP dual", [setIPFamilyPolicy("RequireDualStack")]],
    ["NodePort", [setTypeNodePort]],
    ["LoadBalancer Local (HCNP)", [setTypeLoadBalancer, setExternalTrafficPolicy("Local")]],
  ])("a storage write failing after allocation (%s) leaves every allocator as it was", async (_n, tweaks) => {
    const fail = { create: false };
    const { rest, t } = await newTestREST("v4v6", faultyStore(await createStore({ backend: "memory" }), fail));
    await rest.create("default", body("other", setTypeNodePort));
    const before = allocatorState(t);
    fail.create = true;
    await expect(rest.create("default", body("foo", ...tweaks))).rejects.toThrow("injected storage failure");
    expect(allocatorState(t)).toBe(before);
    fail.create = false;
    await rest.create("default", body("foo", ...tweaks));
    expect(allocatorState(t)).not.toBe(before);
  });

  it("a validation failure after allocation reverts it", async () => {
    const { rest, t } = await newTestREST("v4v6");
    const before = allocatorState(t);
    const bad = body("foo", setTypeNodePort, setIPFamilyPolicy("RequireDualStack"));
    (bad["spec"] as Record<string, unknown>)["sessionAffinity"] = "Sometimes";
    const err = await rejection(rest.create("default", bad));
    expect(err.code).toBe(422);
    expect(err.message).toContain("spec.sessionAffinity");
    expect(allocatorState(t)).toBe(before);
  });

  it("AlreadyExists reverts the second allocation", async () => {
    const { rest, t } = await newTestREST("v4");
    await rest.create("default", body("foo", setTypeNodePort));
    const before = allocatorState(t);
    const err = await rejection(rest.create("default", body("foo", setTypeNodePort)));
    expect(err.reason).toBe("AlreadyExists");
    expect(allocatorState(t)).toBe(before);
  });

  it("dry-run shows the defaulted and allocated fields but allocates and writes nothing", async () => {
    const { rest, t } = await newTestREST("v6v4");
    const before = allocatorState(t);
    const out = await rest.create("default", body("foo", setTypeNodePort, setIPFamilyPolicy("PreferDualStack")), { dryRun: true });
    const spec = specOf(out);
    expect(spec.ipFamilies).toEqual(["IPv6", "IPv4"]);
    expect(spec.clusterIPs).toHaveLength(2);
    expect(spec.ports?.[0]?.nodePort).toBeGreaterThan(0);
    expect(allocatorState(t)).toBe(before);
    await expect(rest.get("default", "foo")).rejects.toMatchObject({ reason: "NotFound" });
  });

  it("64 parallel creates never allocate one IP or NodePort twice", async () => {
    const { rest, t } = await newTestREST("v4v6");
    const outs = await Promise.all(
      Array.from({ length: 64 }, (_, i) => rest.create("default", body(`s${i}`, setTypeNodePort, setIPFamilyPolicy("RequireDualStack")))),
    );
    const ips = outs.flatMap((o) => specOf(o).clusterIPs ?? []);
    const ports = outs.map((o) => specOf(o).ports?.[0]?.nodePort);
    expect(new Set(ips).size).toBe(128);
    expect(new Set(ports).size).toBe(64);
    expect(t.ranges.get("IPv4")!.used()).toBe(64);
    expect(t.ranges.get("IPv6")!.used()).toBe(64);
    expect(t.ports.used()).toBe(64);
    expect((await rest.list("default")).items).toHaveLength(64);
  });
});
