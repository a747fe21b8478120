/** NodePorts, healthCheckNodePort, rollback and concurrency of the create path; delete. */
import { parseIPSloppy } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import {
  allocatorState,
  makeService,
  makeTestAllocators,
  setClusterIPs,
  setExternalTrafficPolicy,
  setHeadless,
  setIPFamilyPolicy,
  setPorts,
  setTypeExternalName,
  setTypeLoadBalancer,
  setTypeNodePort,
  type TestService,
} from "./testing.ts";

const ip = (s: string) => parseIPSloppy(s)!;

describe("NodePort allocation on create (upstream TestCreateInitNodePorts)", () => {
  it.each([
    { name: "one port", ports: [{ name: "p", port: 80 }], distinct: 1 },
    {
      name: "two ports",
      ports: [
        { name: "p", port: 80 },
        { name: "q", port: 81 },
      ],
      distinct: 2,
    },
    {
      name: "same port, two protocols share a nodePort",
      ports: [
        { name: "p", port: 53, protocol: "TCP" },
        { name: "q", port: 53, protocol: "UDP" },
      ],
      distinct: 1,
    },
    { name: "requested nodePort is honoured", ports: [{ name: "p", port: 80, nodePort: 30080 }], distinct: 1, want: [30080] },
    {
      name: "requested on the second entry of a shared port",
      ports: [
        { name: "p", port: 53 },
        { name: "q", port: 53, protocol: "UDP", nodePort: 30053 },
      ],
      distinct: 1,
      want: [30053, 30053],
    },
  ])("$name", async ({ ports, distinct, want }) => {
    const t = makeTestAllocators("v4");
    const svc = makeService("foo", setTypeNodePort, setPorts(...ports));
    await (await t.alloc.allocateCreate(svc, false)).commit();
    const got = svc.spec.ports!.map((p) => p.nodePort!);
    expect(new Set(got).size).toBe(distinct);
    if (want) expect(got).toEqual(want);
    for (const p of got) expect(t.ports.has(p)).toBe(true);
    expect(t.ports.used()).toBe(distinct);
  });

  it("a LoadBalancer with allocateLoadBalancerNodePorts=false gets none, but requested ones are kept", async () => {
    const t = makeTestAllocators("v4");
    const svc = makeService("foo", setTypeLoadBalancer, setPorts({ name: "a", port: 80 }, { name: "b", port: 81, nodePort: 30081 }));
    svc.spec.allocateLoadBalancerNodePorts = false;
    await (await t.alloc.allocateCreate(svc, false)).commit();
    expect(svc.spec.ports!.map((p) => p.nodePort ?? 0)).toEqual([0, 30081]);
  });

  it("an already allocated nodePort is a 422 on spec.ports[i].nodePort and releases the ClusterIPs", async () => {
    const t = makeTestAllocators("v4v6");
    await t.ports.allocate(30100);
    const before = allocatorState(t);
    const svc = makeService(
      "foo",
      setTypeNodePort,
      setIPFamilyPolicy("RequireDualStack"),
      setPorts({ name: "a", port: 80 }, { name: "b", port: 81, nodePort: 30100 }),
    );
    await expect(t.alloc.allocateCreate(svc, false)).rejects.toThrow(
      'Service "foo" is invalid: spec.ports[1].nodePort: Invalid value: 30100: provided port is already allocated',
    );
    expect(allocatorState(t)).toBe(before);
  });

  it("an out-of-range nodePort names the valid range", async () => {
    const t = makeTestAllocators("v4");
    const svc = makeService("foo", setTypeNodePort, setPorts({ name: "a", port: 80, nodePort: 80 }));
    await expect(t.alloc.allocateCreate(svc, false)).rejects.toThrow(
      "provided port is not in the valid range. The range of valid ports is 30000-32767",
    );
  });

  it("healthCheckNodePort for an externalTrafficPolicy=Local LoadBalancer: allocated, distinct, requested one honoured", async () => {
    const t = makeTestAllocators("v4");
    const a = makeService("a", setTypeLoadBalancer, setExternalTrafficPolicy("Local"));
    await (await t.alloc.allocateCreate(a, false)).commit();
    expect(a.spec.healthCheckNodePort).toBeGreaterThan(0);
    expect(a.spec.healthCheckNodePort).not.toBe(a.spec.ports![0]!.nodePort);
    expect(t.ports.has(a.spec.healthCheckNodePort!)).toBe(true);

    const b = makeService("b", setTypeLoadBalancer, setExternalTrafficPolicy("Local"));
    b.spec.healthCheckNodePort = 31999;
    await (await t.alloc.allocateCreate(b, false)).commit();
    expect(b.spec.healthCheckNodePort).toBe(31999);

    const c = makeService("c", setTypeLoadBalancer, setExternalTrafficPolicy("Local"));
    c.spec.healthCheckNodePort = 31999;
    const before = allocatorState(t);
    await expect(t.alloc.allocateCreate(c, false)).rejects.toThrow(
      "Internal error occurred: failed to allocate requested HealthCheck NodePort 31999: provided port is already allocated",
    );
    expect(allocatorState(t)).toBe(before);

    const d = makeService("d", setTypeLoadBalancer, setExternalTrafficPolicy("Cluster"));
    await (await t.alloc.allocateCreate(d, false)).commit();
    expect(d.spec.healthCheckNodePort).toBeUndefined();
  });
});

describe("rollback", () => {
  it("a failed storage write (revert) leaves every allocator as it was", async () => {
    const t = makeTestAllocators("v6v4");
    await (await t.alloc.allocateCreate(makeService("keep", setTypeNodePort), false)).commit();
    const before = allocatorState(t);
    const svc = makeService(
      "foo",
      setTypeLoadBalancer,
      setExternalTrafficPolicy("Local"),
      setIPFamilyPolicy("RequireDualStack"),
      setPorts({ name: "a", port: 80 }, { name: "b", port: 443 }),
    );
    const txn = await t.alloc.allocateCreate(svc, false);
    expect(allocatorState(t)).not.toBe(before);
    expect(t.ports.used()).toBe(1 + 3);
    await txn.revert();
    expect(allocatorState(t)).toBe(before);
  });

  it("a full range returns upstream's InternalError and allocates nothing", async () => {
    const t = makeTestAllocators("v4");
    const v4 = t.ranges.get("IPv4")!;
    while (v4.free() > 0) await v4.allocateNext();
    const before = allocatorState(t);
    const err = await t.alloc.allocateCreate(makeService("foo", setTypeNodePort), false).catch((e: unknown) => e);
    expect((err as Error).message).toBe("Internal error occurred: failed to allocate a serviceIP: range is full");
    expect((err as { code: number }).code).toBe(500);
    expect(allocatorState(t)).toBe(before);
  });

  it("a full secondary range releases the primary IP already taken (upstream would leak it until repair)", async () => {
    const t = makeTestAllocators("v4v6");
    const v6 = t.ranges.get("IPv6")!;
    while (v6.free() > 0) await v6.allocateNext();
    const before = allocatorState(t);
    await expect(t.alloc.allocateCreate(makeService("foo", setIPFamilyPolicy("RequireDualStack")), false)).rejects.toThrow("range is full");
    expect(allocatorState(t)).toBe(before);
  });

  it("a full NodePort range fails after the IPs and releases them", async () => {
    const t = makeTestAllocators("v4");
    while (t.ports.free() > 0) await t.ports.allocateNext();
    const before = allocatorState(t);
    await expect(t.alloc.allocateCreate(makeService("foo", setTypeNodePort), false)).rejects.toThrow(
      "Internal error occurred: failed to allocate a nodePort: range is full",
    );
    expect(allocatorState(t)).toBe(before);
  });
});

describe("concurrency", () => {
  it("64 parallel dual-stack creates never get one IP or nodePort twice", async () => {
    const t = makeTestAllocators("v4v6", 99);
    const svcs = Array.from({ length: 64 }, (_, i) => makeService(`s${i}`, setTypeNodePort, setIPFamilyPolicy("RequireDualStack")));
    const txns = await Promise.all(svcs.map((s) => t.alloc.allocateCreate(s, false)));
    await Promise.all(txns.map((x) => x.commit()));
    const v4 = svcs.map((s) => s.spec.clusterIPs![0]!);
    const v6 = svcs.map((s) => s.spec.clusterIPs![1]!);
    const np = svcs.map((s) => s.spec.ports![0]!.nodePort!);
    expect(new Set(v4).size).toBe(64);
    expect(new Set(v6).size).toBe(64);
    expect(new Set(np).size).toBe(64);
    expect(t.ranges.get("IPv4")!.used()).toBe(64);
    expect(t.ranges.get("IPv6")!.used()).toBe(64);
  });

  it("64 parallel creates asking for the same IP: exactly one wins", async () => {
    const t = makeTestAllocators("v4");
    const results = await Promise.allSettled(
      Array.from({ length: 64 }, (_, i) => t.alloc.allocateCreate(makeService(`s${i}`, setClusterIPs("10.0.0.10")), false)),
    );
    expect(results.filter((r) => r.status === "fulfilled").length).toBe(1);
    expect(t.ranges.get("IPv4")!.used()).toBe(1);
  });
});

describe("releaseAllocatedResources (delete)", () => {
  it.each<[string, (s: TestService) => void]>([
    ["ClusterIP", () => {}],
    ["NodePort", setTypeNodePort],
    [
      "LoadBalancer etp Local",
      (s) => {
        setTypeLoadBalancer(s);
        setExternalTrafficPolicy("Local")(s);
      },
    ],
    ["headless", setHeadless],
    ["ExternalName", setTypeExternalName],
  ])("%s: everything allocated is released", async (_name, tweak) => {
    const t = makeTestAllocators("v4v6");
    const empty = allocatorState(t);
    const svc = makeService("foo", tweak, setIPFamilyPolicy("PreferDualStack"));
    if (svc.spec.type === "ExternalName") delete svc.spec.ipFamilyPolicy;
    await (await t.alloc.allocateCreate(svc, false)).commit();
    await t.alloc.releaseAllocatedResources(svc);
    expect(allocatorState(t)).toBe(empty);
  });

  it("an IP of a family no longer configured is skipped, the rest released", async () => {
    const t = makeTestAllocators("v4");
    await t.ranges.get("IPv4")!.allocate(ip("10.0.0.7"));
    const svc = makeService("foo", setClusterIPs("10.0.0.7", "2000::7"));
    await t.alloc.releaseAllocatedResources(svc);
    expect(t.ranges.get("IPv4")!.used()).toBe(0);
  });
});
