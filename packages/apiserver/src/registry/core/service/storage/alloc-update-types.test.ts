/**
 * Type transitions (upstream TestFeatureType / updateClusterIPs cases A and B,
 * txnUpdateNodePorts), PreferDualStack stickiness and TestUpdatePatchAllocatedValues.
 */
import { parseIPSloppy } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import { Range } from "../ipallocator/bitmap.ts";
import { Allocators } from "./alloc.ts";
import {
  allocatorState,
  beginUpdate,
  createStored,
  makeService,
  makeTestAllocators,
  setExternalTrafficPolicy,
  setIPFamilies,
  setIPFamilyPolicy,
  setNodePorts,
  setPorts,
  setSelector,
  setTypeExternalName,
  setTypeLoadBalancer,
  setTypeNodePort,
  type Tweak,
} from "./testing.ts";

const ip = (s: string) => parseIPSloppy(s)!;
const putObject = (...tweaks: Tweak[]) => makeService("foo", setSelector({ k2: "v2" }), ...tweaks);

describe("type transitions", () => {
  it("ClusterIP -> ExternalName releases every old IP, on commit only (case B)", async () => {
    const t = makeTestAllocators("v6v4");
    const empty = allocatorState(t);
    const stored = await createStored(t, setIPFamilyPolicy("RequireDualStack"));
    const full = allocatorState(t);
    const after = putObject(setTypeExternalName);
    const txn = await beginUpdate(t, stored, after);
    expect(after.spec.ipFamilyPolicy).toBeUndefined();
    expect(after.spec.ipFamilies).toBeUndefined();
    expect(allocatorState(t)).toBe(full);
    await txn.commit();
    expect(allocatorState(t)).toBe(empty);
  });

  it("a reverted or dry-run move to ExternalName keeps the IPs", async () => {
    const t = makeTestAllocators("v4v6");
    const stored = await createStored(t, setIPFamilyPolicy("PreferDualStack"));
    const full = allocatorState(t);
    await (await beginUpdate(t, stored, putObject(setTypeExternalName))).revert();
    expect(allocatorState(t)).toBe(full);
    await (await beginUpdate(t, stored, putObject(setTypeExternalName), true)).commit();
    expect(allocatorState(t)).toBe(full);
  });

  it("ExternalName -> ClusterIP allocates fresh IPs with the usual defaults (case A)", async () => {
    const t = makeTestAllocators("v6v4");
    const stored = await createStored(t, setTypeExternalName);
    const after = putObject();
    const txn = await beginUpdate(t, stored, after);
    expect(after.spec.ipFamilyPolicy).toBe("SingleStack");
    expect(after.spec.ipFamilies).toEqual(["IPv6"]);
    expect(t.ranges.get("IPv6")!.has(ip(after.spec.clusterIPs![0]!))).toBe(true);
    await txn.revert();
    expect(t.ranges.get("IPv6")!.used()).toBe(0);
  });

  it("ExternalName -> NodePort allocates IPs and node ports; revert releases both", async () => {
    const t = makeTestAllocators("v4");
    const stored = await createStored(t, setTypeExternalName);
    const empty = allocatorState(t);
    const after = putObject(setTypeNodePort);
    const txn = await beginUpdate(t, stored, after);
    expect(after.spec.ports![0]!.nodePort).toBeGreaterThan(0);
    expect(after.spec.clusterIPs!.length).toBe(1);
    await txn.revert();
    expect(allocatorState(t)).toBe(empty);
  });

  it("ClusterIP -> NodePort keeps the IPs and allocates node ports", async () => {
    const t = makeTestAllocators("v4v6");
    const stored = await createStored(t, setIPFamilyPolicy("RequireDualStack"));
    const after = putObject(setTypeNodePort);
    await (await beginUpdate(t, stored, after)).commit();
    expect(after.spec.clusterIPs).toEqual(stored.spec.clusterIPs);
    expect(t.ports.has(after.spec.ports![0]!.nodePort!)).toBe(true);
  });

  it("NodePort -> ClusterIP releases the node ports on commit", async () => {
    const t = makeTestAllocators("v4");
    const stored = await createStored(t, setTypeNodePort);
    const port = stored.spec.ports![0]!.nodePort!;
    const txn = await beginUpdate(t, stored, putObject());
    expect(t.ports.has(port)).toBe(true);
    await txn.commit();
    expect(t.ports.has(port)).toBe(false);
  });

  it("changing a nodePort allocates the new one and releases the old on commit", async () => {
    const t = makeTestAllocators("v4");
    const stored = await createStored(t, setTypeNodePort, setNodePorts(30500));
    const after = putObject(setTypeNodePort, setNodePorts(30501));
    const txn = await beginUpdate(t, stored, after);
    expect(t.ports.has(30500) && t.ports.has(30501)).toBe(true);
    await txn.commit();
    expect(t.ports.has(30500)).toBe(false);
    expect(t.ports.has(30501)).toBe(true);
  });

  it("a nodePort taken by another service is a 422 and the update allocates nothing", async () => {
    const t = makeTestAllocators("v4");
    await t.ports.allocate(30600); // held by another service
    const stored = await createStored(t, setTypeNodePort, setPorts({ name: "a", port: 80 }, { name: "b", port: 81 }));
    const before = allocatorState(t);
    const after = makeService("foo", setTypeNodePort, setPorts({ name: "a", port: 80 }, { name: "b", port: 81, nodePort: 30600 }));
    await expect(beginUpdate(t, stored, after)).rejects.toThrow(
      "spec.ports[1].nodePort: Invalid value: 30600: provided port is already allocated",
    );
    expect(allocatorState(t)).toBe(before);
  });

  it("LoadBalancer externalTrafficPolicy Cluster -> Local allocates a HCNP; Local -> Cluster releases it on commit", async () => {
    const t = makeTestAllocators("v4");
    const stored = await createStored(t, setTypeLoadBalancer, setExternalTrafficPolicy("Cluster"));
    const local = putObject(setTypeLoadBalancer, setExternalTrafficPolicy("Local"));
    await (await beginUpdate(t, stored, local)).commit();
    const hcnp = local.spec.healthCheckNodePort!;
    expect(t.ports.has(hcnp)).toBe(true);

    const back = putObject(setTypeLoadBalancer, setExternalTrafficPolicy("Cluster"));
    const txn = await beginUpdate(t, local, back);
    expect(t.ports.has(hcnp)).toBe(true);
    await txn.commit();
    expect(t.ports.has(hcnp)).toBe(false);
  });
});

describe("PreferDualStack stickiness", () => {
  it("a single-stack PreferDualStack service is not upgraded when the cluster becomes dual-stack", async () => {
    const single = makeTestAllocators("v4");
    const stored = await createStored(single, setIPFamilyPolicy("PreferDualStack"));
    expect(stored.spec.ipFamilies).toEqual(["IPv4"]);
    // The cluster gains IPv6: same IPv4 state, a new IPv6 range.
    const v4 = Range.fromSnapshot(single.ranges.get("IPv4")!.snapshot());
    const v6 = Range.fromCIDRString("2000::/108");
    const dual = new Allocators({
      serviceIPAllocatorsByFamily: new Map([
        ["IPv4", v4],
        ["IPv6", v6],
      ]),
      defaultServiceIPFamily: "IPv4",
      serviceNodePorts: single.ports,
    });
    const t = {
      alloc: dual,
      ranges: new Map([
        ["IPv4", v4],
        ["IPv6", v6],
      ] as const),
      ports: single.ports,
    };
    const resubmit = structuredClone(stored);
    await (await beginUpdate(t, stored, resubmit)).commit();
    expect(resubmit.spec.ipFamilies).toEqual(["IPv4"]);
    expect(resubmit.spec.clusterIPs).toEqual(stored.spec.clusterIPs);
    expect(v6.used()).toBe(0);

    // Asking for it explicitly (RequireDualStack) upgrades.
    const upgrade = structuredClone(stored);
    upgrade.spec.ipFamilyPolicy = "RequireDualStack";
    await (await beginUpdate(t, stored, upgrade)).commit();
    expect(upgrade.spec.ipFamilies).toEqual(["IPv4", "IPv6"]);
    expect(v6.used()).toBe(1);
  });
});

describe("TestUpdatePatchAllocatedValues", () => {
  it("resubmitting without clusterIP(s), nodePorts and HCNP keeps the allocated values", async () => {
    const t = makeTestAllocators("v4v6");
    const stored = await createStored(
      t,
      setTypeLoadBalancer,
      setExternalTrafficPolicy("Local"),
      setIPFamilyPolicy("PreferDualStack"),
      setPorts({ name: "http", port: 80 }, { name: "https", port: 443 }),
    );
    const before = allocatorState(t);
    const after = makeService(
      "foo",
      setTypeLoadBalancer,
      setExternalTrafficPolicy("Local"),
      setIPFamilyPolicy("PreferDualStack"),
      setPorts({ name: "https", port: 443 }, { name: "http", port: 80 }),
    );
    await (await beginUpdate(t, stored, after)).commit();
    expect(after.spec.clusterIP).toBe(stored.spec.clusterIP);
    expect(after.spec.clusterIPs).toEqual(stored.spec.clusterIPs);
    expect(after.spec.ipFamilies).toEqual(["IPv4", "IPv6"]);
    expect(after.spec.ports!.map((p) => p.nodePort)).toEqual([stored.spec.ports![1]!.nodePort, stored.spec.ports![0]!.nodePort]);
    expect(after.spec.healthCheckNodePort).toBe(stored.spec.healthCheckNodePort);
    expect(allocatorState(t)).toBe(before);
  });

  it("families are not patched: an omitted list is re-inferred from the patched IPs", async () => {
    const t = makeTestAllocators("v6v4");
    const stored = await createStored(t, setIPFamilyPolicy("RequireDualStack"), setIPFamilies("IPv4", "IPv6"));
    const after = putObject();
    await (await beginUpdate(t, stored, after)).commit();
    expect(after.spec.ipFamilies).toEqual(["IPv4", "IPv6"]);
    expect(after.spec.ipFamilyPolicy).toBe("RequireDualStack");
  });
});
