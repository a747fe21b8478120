import { ipAllocatorControllerName, labelIPAddressFamily, labelIPAddressManagedBy } from "@servicenet/api";
import { afterEach, describe, expect, it } from "vitest";
import type { KubeObject } from "../../../../../storage/index.ts";
import {
  newFakeRepair,
  newIPAddress,
  newService,
  newServiceCIDR,
  seconds,
  serviceCIDRv4,
  serviceCIDRv6,
  testTimeNow,
  type FakeRepair,
} from "./repairip-testing.ts";

interface Case {
  name: string;
  svcs?: KubeObject[];
  ipAddresses?: KubeObject[];
  cidrs: KubeObject[];
  testTime?: number;
  expectedIPs?: string[];
  actions?: string[][];
  events?: string[];
}

const kubernetes = newServiceCIDR("kubernetes", serviceCIDRv4, serviceCIDRv6);
const t = testTimeNow;
const create = ["create", "ipaddresses"];
const del = ["delete", "ipaddresses"];

const cases: Case[] = [
  {
    name: "no changes needed single stack",
    svcs: [newService("test-svc", ["10.0.1.1"], t + seconds(1))],
    ipAddresses: [newIPAddress("10.0.1.1", "test-svc")],
    cidrs: [kubernetes],
    expectedIPs: ["10.0.1.1"],
  },
  {
    name: "no changes needed dual stack",
    svcs: [newService("test-svc", ["10.0.1.1", "2001:db8::10"], t + seconds(1))],
    ipAddresses: [newIPAddress("10.0.1.1", "test-svc"), newIPAddress("2001:db8::10", "test-svc")],
    cidrs: [kubernetes],
    expectedIPs: ["10.0.1.1", "2001:db8::10"],
  },
  {
    name: "no changes needed dual stack multiple cidrs",
    svcs: [newService("test-svc", ["192.168.0.1", "2001:db8:a:b::10"], t + seconds(1))],
    ipAddresses: [newIPAddress("192.168.0.1", "test-svc"), newIPAddress("2001:db8:a:b::10", "test-svc")],
    cidrs: [kubernetes, newServiceCIDR("custom", "192.168.0.0/24", "2001:db8:a:b::/64")],
    expectedIPs: ["192.168.0.1", "2001:db8:a:b::10"],
  },
  // these two cases simulate migrating from bitmaps to IPAddress objects
  {
    name: "create IPAddress single stack",
    svcs: [newService("test-svc", ["10.0.1.1"], t + seconds(1))],
    cidrs: [kubernetes],
    expectedIPs: ["10.0.1.1"],
    actions: [create],
    events: ["Warning ClusterIPNotAllocated Cluster IP [IPv4]: 10.0.1.1 is not allocated; repairing"],
  },
  {
    name: "create IPAddresses dual stack",
    svcs: [newService("test-svc", ["10.0.1.1", "2001:db8::10"], t + seconds(1))],
    cidrs: [kubernetes],
    expectedIPs: ["10.0.1.1", "2001:db8::10"],
    actions: [create, create],
    events: [
      "Warning ClusterIPNotAllocated Cluster IP [IPv4]: 10.0.1.1 is not allocated; repairing",
      "Warning ClusterIPNotAllocated Cluster IP [IPv6]: 2001:db8::10 is not allocated; repairing",
    ],
  },
  {
    name: "create IPAddress single stack from secondary",
    svcs: [newService("test-svc", ["192.168.1.1"], t + seconds(1))],
    cidrs: [kubernetes, newServiceCIDR("custom", "192.168.1.0/24")],
    expectedIPs: ["192.168.1.1"],
    actions: [create],
    events: ["Warning ClusterIPNotAllocated Cluster IP [IPv4]: 192.168.1.1 is not allocated; repairing"],
  },
  {
    name: "reconcile IPAddress single stack wrong reference",
    svcs: [newService("test-svc", ["10.0.1.1"], t + seconds(1))],
    ipAddresses: [newIPAddress("10.0.1.1", "test-svc2")],
    cidrs: [kubernetes],
    expectedIPs: ["10.0.1.1"],
    actions: [del, create],
    events: ["Warning ClusterIPNotAllocated the ClusterIP [IPv4]: 10.0.1.1 for Service bar/test-svc has a wrong reference; repairing"],
  },
  {
    name: "reconcile IPAddresses dual stack",
    svcs: [newService("test-svc", ["10.0.1.1", "2001:db8::10"], t - seconds(1))],
    ipAddresses: [newIPAddress("10.0.1.1", "test-svc2"), newIPAddress("2001:db8::10", "test-svc2")],
    cidrs: [kubernetes],
    expectedIPs: ["10.0.1.1", "2001:db8::10"],
    actions: [del, create, del, create],
    events: [
      "Warning ClusterIPNotAllocated the ClusterIP [IPv4]: 10.0.1.1 for Service bar/test-svc has a wrong reference; repairing",
      "Warning ClusterIPNotAllocated the ClusterIP [IPv6]: 2001:db8::10 for Service bar/test-svc has a wrong reference; repairing",
    ],
  },
  {
    name: "one IP out of range",
    svcs: [newService("test-svc", ["192.168.1.1", "2001:db8::10"], t + seconds(1))],
    ipAddresses: [newIPAddress("192.168.1.1", "test-svc"), newIPAddress("2001:db8::10", "test-svc")],
    cidrs: [kubernetes],
    expectedIPs: ["2001:db8::10"],
    events: [
      "Warning ClusterIPOutOfRange Cluster IP [IPv4]: 192.168.1.1 is not within any configured Service CIDR; please recreate service",
    ],
  },
  {
    name: "one IP orphan within grace period",
    ipAddresses: [newIPAddress("10.0.1.1", "test-svc")],
    cidrs: [kubernetes],
    expectedIPs: ["10.0.1.1"],
  },
  {
    name: "one IP orphan after grace period",
    ipAddresses: [newIPAddress("10.0.1.1", "test-svc")],
    cidrs: [kubernetes],
    testTime: t + seconds(70),
    actions: [del],
    events: ["Warning IPAddressNotAllocated IPAddress: 10.0.1.1 for Service bar/test-svc appears to have leaked: cleaning up"],
  },
  {
    name: "one IP out of range matching the network address",
    svcs: [newService("test-svc", ["10.0.0.0"], t + seconds(1))],
    ipAddresses: [newIPAddress("10.0.0.0", "test-svc")],
    cidrs: [kubernetes],
    expectedIPs: ["10.0.0.0"],
    events: ["Warning ClusterIPOutOfRange Cluster IP [IPv4]: 10.0.0.0 is not within any configured Service CIDR; please recreate service"],
  },
  {
    name: "one IP out of range matching the broadcast address",
    svcs: [newService("test-svc", ["10.0.255.255"], t + seconds(1))],
    ipAddresses: [newIPAddress("10.0.255.255", "test-svc")],
    cidrs: [kubernetes],
    expectedIPs: ["10.0.255.255"],
    events: [
      "Warning ClusterIPOutOfRange Cluster IP [IPv4]: 10.0.255.255 is not within any configured Service CIDR; please recreate service",
    ],
  },
  {
    name: "one IPv6 out of range matching the subnet address",
    svcs: [newService("test-svc", ["2001:db8::"], t + seconds(1))],
    ipAddresses: [newIPAddress("2001:db8::", "test-svc")],
    cidrs: [kubernetes],
    expectedIPs: ["2001:db8::"],
    events: [
      "Warning ClusterIPOutOfRange Cluster IP [IPv6]: 2001:db8:: is not within any configured Service CIDR; please recreate service",
    ],
  },
  {
    name: "one IPv6 matching the broadcast address",
    svcs: [newService("test-svc", ["2001:db8::ffff:ffff:ffff:ffff"], t + seconds(1))],
    ipAddresses: [newIPAddress("2001:db8::ffff:ffff:ffff:ffff", "test-svc")],
    cidrs: [kubernetes],
    expectedIPs: ["2001:db8::ffff:ffff:ffff:ffff"],
  },
  {
    name: "one IP orphan matching the broadcast address within grace period",
    ipAddresses: [newIPAddress("10.0.255.255", "test-svc")],
    cidrs: [kubernetes],
    expectedIPs: ["10.0.255.255"],
  },
  {
    name: "one IP orphan matching the broadcast address after grace period",
    ipAddresses: [newIPAddress("10.0.255.255", "test-svc")],
    cidrs: [kubernetes],
    testTime: t + seconds(90),
    actions: [del],
    events: ["Warning IPAddressNotAllocated IPAddress: 10.0.255.255 for Service bar/test-svc appears to have leaked: cleaning up"],
  },
  {
    name: "Two IPAddresses referencing the same service",
    svcs: [newService("test-svc", ["10.0.1.1"], t + seconds(1))],
    ipAddresses: [newIPAddress("10.0.1.1", "test-svc"), newIPAddress("10.0.1.2", "test-svc")],
    cidrs: [kubernetes],
    expectedIPs: ["10.0.1.1"],
    actions: [del],
    events: ["Warning IPAddressWrongReference IPAddress: 10.0.1.2 for Service bar/test-svc has a wrong reference; cleaning up"],
  },
  {
    name: "Two IPAddresses referencing the same service when service create is called again and ip address is in grace period",
    svcs: [newService("test-svc", ["10.0.1.1"], t + seconds(1))],
    ipAddresses: [newIPAddress("10.0.1.1", "test-svc"), newIPAddress("10.0.1.2", "test-svc", t + seconds(2))],
    cidrs: [kubernetes],
    testTime: t + seconds(3),
    expectedIPs: ["10.0.1.1", "10.0.1.2"],
  },
  {
    name: "Two IPAddresses referencing the same service when service create is called again and ip address is not in grace period",
    svcs: [newService("test-svc", ["10.0.1.1"], t + seconds(1))],
    ipAddresses: [newIPAddress("10.0.1.1", "test-svc"), newIPAddress("10.0.1.2", "test-svc", t + seconds(2))],
    cidrs: [kubernetes],
    testTime: t + seconds(10),
    actions: [del],
    events: ["Warning IPAddressWrongReference IPAddress: 10.0.1.2 for Service bar/test-svc has a wrong reference; cleaning up"],
  },
  {
    name: "an IPAddress allocated in the Service's creation second (create then upgrade) waits for the Service update",
    svcs: [newService("test-svc", ["10.0.1.1"], t + seconds(1))],
    ipAddresses: [newIPAddress("10.0.1.1", "test-svc"), newIPAddress("10.0.1.2", "test-svc", t + seconds(1))],
    cidrs: [kubernetes],
    testTime: t + seconds(2),
    expectedIPs: ["10.0.1.1", "10.0.1.2"],
  },
  {
    name: "Two Services with same ClusterIP",
    svcs: [newService("test-svc", ["10.0.1.1"], t + seconds(1)), newService("test-svc2", ["10.0.1.1"], t + seconds(1))],
    ipAddresses: [newIPAddress("10.0.1.1", "test-svc2")],
    cidrs: [kubernetes],
    expectedIPs: ["10.0.1.1"],
    events: ["Warning ClusterIPAlreadyAllocated Cluster IP [IPv4]:10.0.1.1 was assigned to multiple services; please recreate service"],
  },
  // Issue #17: a Service keeps the accepted spelling of its ClusterIP, its IPAddress is named
  // canonically; past every grace period the repair loop must leave both alone.
  {
    name: "non-canonical ClusterIPs match their canonical IPAddresses",
    svcs: [
      newService("test-svc", ["010.000.001.001", "2001:DB8:0::0010"], t - seconds(1)),
      newService("mapped", ["::ffff:10.0.1.2"], t - seconds(1)),
    ],
    ipAddresses: [newIPAddress("10.0.1.1", "test-svc"), newIPAddress("2001:db8::10", "test-svc"), newIPAddress("10.0.1.2", "mapped")],
    cidrs: [kubernetes],
    testTime: t + seconds(90),
    expectedIPs: ["10.0.1.1", "2001:db8::10", "10.0.1.2"],
  },
  {
    name: "a missing IPAddress of a non-canonical ClusterIP is created with the canonical name",
    svcs: [newService("test-svc", ["010.000.001.001"], t + seconds(1))],
    cidrs: [kubernetes],
    expectedIPs: ["10.0.1.1"],
    actions: [create],
    events: ["Warning ClusterIPNotAllocated Cluster IP [IPv4]: 10.0.1.1 is not allocated; repairing"],
  },
  {
    name: "Two Services with the same ClusterIP spelled differently",
    svcs: [newService("test-svc", ["10.0.1.1"], t + seconds(1)), newService("test-svc2", ["010.0.1.01"], t + seconds(1))],
    ipAddresses: [newIPAddress("10.0.1.1", "test-svc2")],
    cidrs: [kubernetes],
    expectedIPs: ["10.0.1.1"],
    events: ["Warning ClusterIPAlreadyAllocated Cluster IP [IPv4]:10.0.1.1 was assigned to multiple services; please recreate service"],
  },
];

describe("TestRepairServiceIP", () => {
  let f: FakeRepair | undefined;
  afterEach(async () => {
    await f?.close();
    f = undefined;
  });

  it.each(cases)("$name", async (tc) => {
    f = await newFakeRepair({ svcs: tc.svcs, ipAddresses: tc.ipAddresses, cidrs: tc.cidrs, testTime: tc.testTime ?? testTimeNow });
    await f.repair.runOnce();
    for (const ip of tc.expectedIPs ?? []) expect(await f.raw.get(ip), ip).not.toBeNull();
    expect(f.actions).toEqual(tc.actions ?? []);
    expect(f.recorder.events).toEqual(tc.events ?? []);
  });

  it("recreates an IPAddress whose labels were changed by hand", async () => {
    const bad = newIPAddress("10.0.1.1", "test-svc");
    bad.metadata["labels"] = { [labelIPAddressFamily]: "IPv6", [labelIPAddressManagedBy]: ipAllocatorControllerName };
    f = await newFakeRepair({ svcs: [newService("test-svc", ["10.0.1.1"])], ipAddresses: [bad], cidrs: [kubernetes] });
    await f.repair.runOnce();
    expect(f.actions).toEqual([del, create]);
    expect(f.recorder.events).toEqual([]);
    expect((await f.raw.get("10.0.1.1"))?.metadata["labels"]).toEqual({
      [labelIPAddressFamily]: "IPv4",
      [labelIPAddressManagedBy]: ipAllocatorControllerName,
    });
  });

  it("reports an unparseable ClusterIP and counts the metrics by type", async () => {
    f = await newFakeRepair({
      svcs: [newService("bad", ["not-an-ip"]), newService("out", ["192.168.9.9"]), newService("missing", ["10.0.7.7"])],
      cidrs: [kubernetes],
    });
    await f.repair.runOnce();
    expect(f.recorder.events).toContain("Warning ClusterIPNotValid Cluster IP not-an-ip is not a valid IP; please recreate Service");
    expect(f.metrics.ipErrors.get({ type: "invalid" })).toBe(1);
    expect(f.metrics.ipErrors.get({ type: "outOfRange" })).toBe(1);
    expect(f.metrics.ipErrors.get({ type: "repair" })).toBe(1);
  });

  it("does not recreate the IPAddress of a Service its cache still holds but storage no longer has (deleted elsewhere)", async () => {
    const gone = newService("gone", ["10.0.1.9"]);
    f = await newFakeRepair({ svcs: [gone], cidrs: [kubernetes], options: { getService: async () => null } });
    await f.repair.runOnce();
    expect(f.actions).toEqual([]);
    expect(f.recorder.events).toEqual([]);
  });

  it("recreates it when storage confirms the Service", async () => {
    f = await newFakeRepair({ svcs: [newService("here", ["10.0.1.9"])], cidrs: [kubernetes] });
    const stored = f.store;
    const withStore = await newFakeRepair({
      svcs: [newService("here", ["10.0.1.9"])],
      cidrs: [kubernetes],
      options: { getService: (ns, name) => stored.get(`/registry/services/specs/${ns}/${name}`, { ignoreNotFound: true }) },
    });
    await withStore.repair.runOnce();
    expect(withStore.actions).toEqual([create]);
    await withStore.close();
  });

  it("skips headless Services", async () => {
    const headless = newService("headless", ["None"]);
    f = await newFakeRepair({ svcs: [headless], cidrs: [kubernetes] });
    await f.repair.runOnce();
    expect(f.actions).toEqual([]);
    expect(f.recorder.events).toEqual([]);
  });
});
