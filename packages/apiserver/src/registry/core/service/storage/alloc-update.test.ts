/**
 * Update-path allocation, after upstream TestUpdateIPsFromSingleStack,
 * TestUpdateIPsFromDualStack, TestUpdatePatchAllocatedValues and the
 * type-transition cases of TestFeatureType (storage_test.go). Each update runs
 * BeginUpdate's order: defaultOnReadService(old), patchAllocatedValues,
 * normalizeClusterIPs, allocateUpdate.
 */
import { parseIPSloppy, StatusError } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import {
  allocatorState,
  beginUpdate,
  createStored,
  makeService,
  makeTestAllocators,
  setClusterIPs,
  setHeadless,
  setIPFamilies,
  setIPFamilyPolicy,
  setSelector,
  type ClusterMode,
  type Tweak,
} from "./testing.ts";

const ip = (s: string) => parseIPSloppy(s)!;

/** Upstream's update objects change the selector too (k2: v2). */
const putObject = (...tweaks: Tweak[]) => makeService("foo", setSelector({ k2: "v2" }), ...tweaks);

interface Row {
  name: string;
  mode?: ClusterMode;
  tweaks: Tweak[];
  want: { error: string } | { policy: string; families: string[] };
}

describe("TestUpdateIPsFromSingleStack (before: SingleStack IPv4 ClusterIP)", () => {
  const rows: Row[] = [
    { name: "policy:unset families:unset", tweaks: [], want: { policy: "SingleStack", families: ["IPv4"] } },
    { name: "policy:unset families:v4", tweaks: [setIPFamilies("IPv4")], want: { policy: "SingleStack", families: ["IPv4"] } },
    {
      name: "policy:unset families:v4v6",
      tweaks: [setIPFamilies("IPv4", "IPv6")],
      want: { error: "when multiple IP families are specified" },
    },
    {
      name: "policy:SingleStack families:v4v6",
      tweaks: [setIPFamilyPolicy("SingleStack"), setIPFamilies("IPv4", "IPv6")],
      want: { error: "when multiple IP families are specified" },
    },
    {
      name: "policy:PreferDualStack families:unset",
      tweaks: [setIPFamilyPolicy("PreferDualStack")],
      want: { policy: "PreferDualStack", families: ["IPv4", "IPv6"] },
    },
    {
      name: "policy:PreferDualStack families:v4",
      tweaks: [setIPFamilyPolicy("PreferDualStack"), setIPFamilies("IPv4")],
      want: { policy: "PreferDualStack", families: ["IPv4", "IPv6"] },
    },
    {
      name: "policy:PreferDualStack families:v4v6",
      tweaks: [setIPFamilyPolicy("PreferDualStack"), setIPFamilies("IPv4", "IPv6")],
      want: { policy: "PreferDualStack", families: ["IPv4", "IPv6"] },
    },
    {
      name: "policy:PreferDualStack families:v6v4 (primary family may not change)",
      tweaks: [setIPFamilyPolicy("PreferDualStack"), setIPFamilies("IPv6", "IPv4")],
      want: { error: "expected an IPv6 value as indicated" },
    },
    {
      name: "policy:RequireDualStack families:unset",
      tweaks: [setIPFamilyPolicy("RequireDualStack")],
      want: { policy: "RequireDualStack", families: ["IPv4", "IPv6"] },
    },
    {
      name: "policy:RequireDualStack families:v4v6",
      tweaks: [setIPFamilyPolicy("RequireDualStack"), setIPFamilies("IPv4", "IPv6")],
      want: { policy: "RequireDualStack", families: ["IPv4", "IPv6"] },
    },
    {
      name: "single-stack cluster policy:RequireDualStack",
      mode: "v4",
      tweaks: [setIPFamilyPolicy("RequireDualStack")],
      want: { error: "this cluster is not configured for dual-stack services" },
    },
    {
      name: "single-stack cluster policy:PreferDualStack",
      mode: "v4",
      tweaks: [setIPFamilyPolicy("PreferDualStack")],
      want: { policy: "PreferDualStack", families: ["IPv4"] },
    },
  ];

  it.each(rows)("$name", async ({ mode, tweaks, want }) => {
    const t = makeTestAllocators(mode ?? "v4v6");
    const stored = await createStored(t);
    const before = allocatorState(t);
    const after = putObject(...tweaks);
    const p = beginUpdate(t, stored, after);
    if ("error" in want) {
      await expect(p).rejects.toThrow(want.error);
      expect(allocatorState(t)).toBe(before);
      return;
    }
    const txn = await p;
    expect(after.spec.ipFamilyPolicy).toBe(want.policy);
    expect(after.spec.ipFamilies).toEqual(want.families);
    expect(after.spec.clusterIPs!.length).toBe(want.families.length);
    expect(after.spec.clusterIPs![0]).toBe(stored.spec.clusterIPs![0]);
    if (want.families.length === 2) {
      const secondary = after.spec.clusterIPs![1]!;
      expect(t.ranges.get("IPv6")!.has(ip(secondary))).toBe(true);
      await txn.revert(); // the write failed: the new secondary goes back
      expect(allocatorState(t)).toBe(before);
    } else {
      await txn.commit();
      expect(allocatorState(t)).toBe(before);
    }
  });

  it("upgrade with a named secondary IP allocates exactly it; commit keeps it", async () => {
    const t = makeTestAllocators("v4v6");
    const stored = await createStored(t);
    const after = putObject(setIPFamilyPolicy("RequireDualStack"), setClusterIPs(stored.spec.clusterIP!, "2000::1"));
    await (await beginUpdate(t, stored, after)).commit();
    expect(after.spec.clusterIPs).toEqual([stored.spec.clusterIP, "2000::1"]);
    expect(t.ranges.get("IPv6")!.has(ip("2000::1"))).toBe(true);
  });

  it("single-dual_ip_in_use: a secondary already taken fails and nothing leaks", async () => {
    const t = makeTestAllocators("v4v6");
    const stored = await createStored(t);
    await t.ranges.get("IPv6")!.allocate(ip("2000::1"));
    const before = allocatorState(t);
    const after = putObject(setIPFamilyPolicy("PreferDualStack"), setClusterIPs(stored.spec.clusterIP!, "2000::1"));
    await expect(beginUpdate(t, stored, after)).rejects.toThrow("failed to allocate IP 2000::1: provided IP is already allocated");
    expect(allocatorState(t)).toBe(before);
  });

  it("two IPs of one family in an upgrade fail validation", async () => {
    const t = makeTestAllocators("v4v6");
    const stored = await createStored(t);
    const after = putObject(setIPFamilyPolicy("RequireDualStack"), setClusterIPs(stored.spec.clusterIP!, "10.0.0.201"));
    await expect(beginUpdate(t, stored, after)).rejects.toThrow("may specify no more than one IP for each IP family");
  });

  it("dry-run upgrade shows the secondary but allocates nothing", async () => {
    const t = makeTestAllocators("v4v6");
    const stored = await createStored(t);
    const before = allocatorState(t);
    const after = putObject(setIPFamilyPolicy("RequireDualStack"));
    const txn = await beginUpdate(t, stored, after, true);
    expect(after.spec.clusterIPs!.length).toBe(2);
    await txn.commit();
    expect(allocatorState(t)).toBe(before);
  });

  it("a headless service may become dual-stack without any allocation", async () => {
    const t = makeTestAllocators("v4v6");
    const stored = await createStored(t, setHeadless);
    const before = allocatorState(t);
    const after = putObject(setIPFamilyPolicy("RequireDualStack"));
    await (await beginUpdate(t, stored, after)).commit();
    expect(after.spec.clusterIPs).toEqual(["None"]);
    expect(after.spec.ipFamilies).toEqual(["IPv4", "IPv6"]);
    expect(allocatorState(t)).toBe(before);
  });
});

describe("TestUpdateIPsFromDualStack (before: RequireDualStack IPv4,IPv6)", () => {
  const rows: Row[] = [
    { name: "policy:unset families:unset", tweaks: [], want: { policy: "RequireDualStack", families: ["IPv4", "IPv6"] } },
    {
      name: "policy:PreferDualStack families:unset",
      tweaks: [setIPFamilyPolicy("PreferDualStack")],
      want: { policy: "PreferDualStack", families: ["IPv4", "IPv6"] },
    },
    {
      name: "policy:SingleStack families:unset (downgrade)",
      tweaks: [setIPFamilyPolicy("SingleStack")],
      want: { policy: "SingleStack", families: ["IPv4"] },
    },
    {
      name: "policy:SingleStack families:v4v6 unchanged (downgrade)",
      tweaks: [setIPFamilyPolicy("SingleStack"), setIPFamilies("IPv4", "IPv6")],
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
      name: "policy:unset families:v4 (inherited RequireDualStack)",
      tweaks: [setIPFamilies("IPv4")],
      want: { error: "must be 'SingleStack' to release the secondary IP family" },
    },
    {
      name: "policy:PreferDualStack families:v4",
      tweaks: [setIPFamilyPolicy("PreferDualStack"), setIPFamilies("IPv4")],
      want: { error: "must be 'SingleStack' to release the secondary IP family" },
    },
  ];

  it.each(rows)("$name", async ({ tweaks, want }) => {
    const t = makeTestAllocators("v4v6");
    const stored = await createStored(t, setIPFamilyPolicy("RequireDualStack"));
    const before = allocatorState(t);
    const after = putObject(...tweaks);
    const p = beginUpdate(t, stored, after);
    if ("error" in want) {
      await expect(p).rejects.toThrow(want.error);
      expect(allocatorState(t)).toBe(before);
      return;
    }
    const txn = await p;
    expect(after.spec.ipFamilyPolicy).toBe(want.policy);
    expect(after.spec.ipFamilies).toEqual(want.families);
    expect(after.spec.clusterIPs).toEqual(stored.spec.clusterIPs!.slice(0, want.families.length));
    // A downgrade releases the old secondary only once the update is stored.
    expect(allocatorState(t)).toBe(before);
    await txn.commit();
    const secondary = ip(stored.spec.clusterIPs![1]!);
    expect(t.ranges.get("IPv6")!.has(secondary)).toBe(want.families.length === 2);
  });

  it("a reverted downgrade keeps the secondary", async () => {
    const t = makeTestAllocators("v4v6");
    const stored = await createStored(t, setIPFamilyPolicy("RequireDualStack"));
    const before = allocatorState(t);
    await (await beginUpdate(t, stored, putObject(setIPFamilyPolicy("SingleStack")))).revert();
    expect(allocatorState(t)).toBe(before);
  });

  it("dual-single_wrong_policy: shortened clusterIPs without SingleStack", async () => {
    const t = makeTestAllocators("v4v6");
    const stored = await createStored(t, setIPFamilyPolicy("RequireDualStack"));
    const after = putObject(setIPFamilyPolicy("PreferDualStack"), setClusterIPs(stored.spec.clusterIP!));
    const err = await beginUpdate(t, stored, after).catch((e: unknown) => e);
    expect((err as StatusError).code).toBe(422);
    expect((err as Error).message).toContain(
      "spec.ipFamilyPolicy: Invalid value: \"PreferDualStack\": must be 'SingleStack' to release the secondary cluster IP",
    );
  });

  it("a dual-stack service on a cluster that lost its secondary family releases nothing there", async () => {
    const t = makeTestAllocators("v4v6");
    const stored = await createStored(t, setIPFamilyPolicy("PreferDualStack"));
    const v4only = makeTestAllocators("v4");
    await v4only.ranges.get("IPv4")!.allocate(ip(stored.spec.clusterIPs![0]!));
    await (await beginUpdate(v4only, stored, putObject(setIPFamilyPolicy("SingleStack")))).commit();
    expect(v4only.ranges.get("IPv4")!.used()).toBe(1);
  });
});
