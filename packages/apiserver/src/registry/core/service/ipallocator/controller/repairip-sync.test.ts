import { ipAllocatorControllerName, labelIPAddressFamily, labelIPAddressManagedBy } from "@servicenet/api";
import { afterEach, describe, expect, it } from "vitest";
import type { KubeObject } from "../../../../../storage/index.ts";
import { newFakeRepair, newIPAddress, newService, seconds, testTimeNow, type FakeRepair } from "./repairip-testing.ts";

const del = ["delete", "ipaddresses"];
const ipAddress = (name: string, family: string, managedBy: string, ref: Record<string, string>): KubeObject => ({
  apiVersion: "networking.k8s.io/v1",
  kind: "IPAddress",
  metadata: {
    name,
    uid: `ip-${name}`,
    creationTimestamp: new Date(testTimeNow).toISOString().replace(/\.\d+Z$/, "Z"),
    labels: { [labelIPAddressFamily]: family, [labelIPAddressManagedBy]: managedBy },
  },
  spec: { parentRef: ref },
});
const svcRef = (name: string) => ({ group: "", resource: "services", name, namespace: "bar" });

describe("TestRepairIPAddress_syncIPAddress", () => {
  let f: FakeRepair | undefined;
  afterEach(async () => {
    await f?.close();
    f = undefined;
  });

  it.each([
    {
      name: "correct ipv4 address",
      ip: ipAddress("10.0.1.1", "IPv4", ipAllocatorControllerName, svcRef("foo")),
      testTime: testTimeNow,
      actions: [],
    },
    {
      name: "correct ipv6 address",
      ip: ipAddress("2001:db8::11", "IPv6", ipAllocatorControllerName, svcRef("foo")),
      testTime: testTimeNow,
      actions: [],
    },
    {
      name: "not managed by this controller",
      ip: ipAddress("2001:db8::11", "IPv6", "controller-foo", {
        group: "networking.gateway.k8s.io",
        resource: "gateway",
        name: "foo",
        namespace: "bar",
      }),
      testTime: testTimeNow,
      actions: [],
    },
    {
      name: "out of range",
      ip: ipAddress("fd00:db8::11", "IPv6", ipAllocatorControllerName, svcRef("foo")),
      testTime: testTimeNow,
      actions: [],
    },
    {
      name: "leaked ip",
      ip: ipAddress("10.0.1.1", "IPv6", ipAllocatorControllerName, svcRef("noexist")),
      testTime: testTimeNow + seconds(90),
      actions: [del],
    },
    // The Service spells the address differently from the IPAddress name.
    {
      name: "ipv4 leading zeros",
      ip: ipAddress("10.0.1.1", "IPv4", ipAllocatorControllerName, svcRef("foo")),
      clusterIP: "010.000.001.001",
      testTime: testTimeNow + seconds(90),
      actions: [],
    },
    {
      name: "ipv4-mapped ipv6",
      ip: ipAddress("10.0.1.1", "IPv4", ipAllocatorControllerName, svcRef("foo")),
      clusterIP: "::ffff:10.0.1.1",
      testTime: testTimeNow + seconds(90),
      actions: [],
    },
    {
      name: "ipv6 not RFC 5952",
      ip: ipAddress("2001:db8::11", "IPv6", ipAllocatorControllerName, svcRef("foo")),
      clusterIP: "2001:DB8:0:0::0011",
      testTime: testTimeNow + seconds(90),
      actions: [],
    },
    {
      name: "other address spelled oddly",
      ip: ipAddress("10.0.1.1", "IPv4", ipAllocatorControllerName, svcRef("foo")),
      clusterIP: "010.000.001.002",
      testTime: testTimeNow + seconds(90),
      actions: [del],
    },
  ])("$name", async (tc) => {
    f = await newFakeRepair({
      ipAddresses: [tc.ip],
      svcs: [newService("foo", [("clusterIP" in tc ? tc.clusterIP : undefined) ?? tc.ip.metadata.name!])],
      testTime: tc.testTime,
    });
    await f.repair.syncIPAddress(tc.ip.metadata.name!);
    expect(f.actions).toEqual(tc.actions);
  });

  it("deletes an allocator IPAddress whose reference is not a Service", async () => {
    const ip = ipAddress("10.0.1.1", "IPv4", ipAllocatorControllerName, {
      group: "gateway.networking.k8s.io",
      resource: "gateways",
      name: "gw",
      namespace: "bar",
    });
    f = await newFakeRepair({ ipAddresses: [ip] });
    await f.repair.syncIPAddress("10.0.1.1");
    expect(f.actions).toEqual([del]);
    expect(f.recorder.events).toEqual([
      "Warning IPAddressNotAllocated IPAddress 10.0.1.1 appears to have been modified, not referencing a Service &{gateway.networking.k8s.io gateways bar gw}: cleaning up",
    ]);
  });

  it("does not delete an IPAddress that was recreated since the cache saw it (uid differs)", async () => {
    f = await newFakeRepair({ ipAddresses: [newIPAddress("10.0.1.1", "gone")], testTime: testTimeNow + seconds(90) });
    f.informers[2]!.stop(); // freeze the IPAddress cache on the old object
    await f.raw.delete("10.0.1.1");
    await f.raw.create({ ...newIPAddress("10.0.1.1", "gone"), metadata: { ...newIPAddress("10.0.1.1", "gone").metadata, uid: undefined } });
    await f.repair.syncIPAddress("10.0.1.1");
    expect(f.actions).toEqual([]);
    expect(await f.raw.get("10.0.1.1")).not.toBeNull();
  });
});
