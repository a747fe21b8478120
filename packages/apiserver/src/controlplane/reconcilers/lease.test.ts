/**
 * upstream pkg/controlplane/reconcilers/lease_test.go (TestLeaseEndpointReconciler,
 * TestLeaseRemoveEndpoints, TestApiserverShutdown) over the real registry (Endpoints and
 * EndpointSlice REST storage on a memory store), recording creates and updates as upstream's fake
 * clientset does.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { EndpointPort } from "@servicenet/api";
import { FakeClock } from "@servicenet/component-base/clock";
import { GenericStore } from "../../registry/generic/store.ts";
import { endpointsStrategy } from "../../registry/core/endpoints/strategy.ts";
import { endpointSliceStrategy } from "../../registry/discovery/endpointslice/strategy.ts";
import { createStore, type KubeObject, type Store } from "../../storage/index.ts";
import { EndpointsAdapter, registryClient, type ObjectClient } from "./endpoints-adapter.ts";
import { LeaseEndpointReconciler, labelSkipMirror } from "./lease.ts";
import { StorageLeases } from "./leases.ts";

type Action = { verb: "create" | "update"; obj: KubeObject };

function makeEndpoints(name: string, ips: string[] | null, ports: EndpointPort[] | null): KubeObject {
  const e: KubeObject = {
    apiVersion: "v1",
    kind: "Endpoints",
    metadata: { namespace: "default", name, labels: { [labelSkipMirror]: "true" } },
  };
  if ((ips ?? []).length > 0 || (ports ?? []).length > 0)
    e["subsets"] = [{ addresses: (ips ?? []).map((ip) => ({ ip })), ports: ports ?? [] }];
  return e;
}

function makeEndpointSlice(name: string, ips: string[] | null, ports: EndpointPort[] | null): KubeObject {
  return {
    apiVersion: "discovery.k8s.io/v1",
    kind: "EndpointSlice",
    metadata: { namespace: "default", name, labels: { "kubernetes.io/service-name": name } },
    addressType: "IPv4",
    endpoints: (ips ?? []).map((ip) => ({ addresses: [ip], conditions: { ready: true } })),
    ports: (ports ?? []).map((p) => ({ name: p.name, protocol: p.protocol, port: p.port })),
  };
}

const makeEndpointsArray = (name: string, ips: string[] | null, ports: EndpointPort[] | null): KubeObject[] => [
  makeEndpoints(name, ips, ports),
  makeEndpointSlice(name, ips, ports),
];

/** What upstream's Semantic.DeepEqual compares of the objects these tests build (empty = absent). */
function project(o: KubeObject): unknown {
  const clean = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.length === 0 ? undefined : v.map(clean);
    if (v !== null && typeof v === "object") {
      const out = Object.fromEntries(
        Object.entries(v)
          .map(([k, x]) => [k, clean(x)] as const)
          .filter(([, x]) => x !== undefined),
      );
      return Object.keys(out).length === 0 ? undefined : out;
    }
    return v;
  };
  const { name, namespace, labels } = o.metadata as { name: string; namespace: string; labels?: unknown };
  const body = Object.fromEntries(Object.entries(o).filter(([k]) => !["metadata", "apiVersion", "kind"].includes(k)));
  return clean({ kind: o.kind, metadata: { name, namespace, labels }, ...body });
}

function recording(client: ObjectClient, log: Action[]): ObjectClient {
  return {
    ...client,
    create: (ns, obj) => (log.push({ verb: "create", obj: structuredClone(obj) }), client.create(ns, obj)),
    update: (ns, obj) => (log.push({ verb: "update", obj: structuredClone(obj) }), client.update(ns, obj)),
  };
}

async function setup(store: Store, initialState: KubeObject[] = [], endpointKeys: string[] = [], clock?: FakeClock) {
  const endpoints = new GenericStore(store, {
    group: "",
    resource: "endpoints",
    storagePath: `${randomUUID()}/endpoints`,
    strategy: endpointsStrategy,
  });
  const slices = new GenericStore(store, {
    group: "discovery.k8s.io",
    resource: "endpointslices",
    storagePath: `${randomUUID()}/endpointslices`,
    strategy: endpointSliceStrategy,
  });
  for (const o of initialState) await (o.kind === "Endpoints" ? endpoints : slices).create("default", structuredClone(o));
  // As upstream's newFakeLeases: a random base key per case, and a lease that outlives the test.
  const leases = new StorageLeases(store, { baseKey: `/${randomUUID()}/masterleases/`, leaseTimeMs: 60_000, ...(clock ? { clock } : {}) });
  for (const ip of endpointKeys) await leases.updateLease(ip);
  const actions: Action[] = [];
  const adapter = new EndpointsAdapter(recording(registryClient(endpoints), actions), recording(registryClient(slices), actions));
  return { leases, actions, reconciler: new LeaseEndpointReconciler(adapter, leases), endpoints, slices };
}

function verifyCreatesAndUpdates(actions: Action[], expectCreate: KubeObject[] = [], expectUpdate: KubeObject[] = []): void {
  expect(actions.filter((a) => a.verb === "create").map((a) => project(a.obj))).toEqual(expectCreate.map(project));
  expect(actions.filter((a) => a.verb === "update").map((a) => project(a.obj))).toEqual(expectUpdate.map(project));
}

const foo8080: EndpointPort[] = [{ name: "foo", port: 8080, protocol: "TCP" }];

interface ReconcileCase {
  testName: string;
  serviceName: string;
  ip: string;
  endpointPorts: EndpointPort[];
  endpointKeys?: string[];
  initialState?: KubeObject[];
  expectUpdate?: KubeObject[];
  expectCreate?: KubeObject[];
  expectLeases: string[];
}

const reconcileTests: ReconcileCase[] = [
  {
    testName: "no existing endpoints",
    serviceName: "foo",
    ip: "1.2.3.4",
    endpointPorts: foo8080,
    expectCreate: makeEndpointsArray("foo", ["1.2.3.4"], foo8080),
    expectLeases: ["1.2.3.4"],
  },
  {
    testName: "existing endpoints satisfy",
    serviceName: "foo",
    ip: "1.2.3.4",
    endpointPorts: foo8080,
    initialState: makeEndpointsArray("foo", ["1.2.3.4"], foo8080),
    expectLeases: ["1.2.3.4"],
  },
  {
    testName: "existing endpoints satisfy, no endpointslice",
    serviceName: "foo",
    ip: "1.2.3.4",
    endpointPorts: foo8080,
    initialState: [makeEndpoints("foo", ["1.2.3.4"], foo8080)],
    expectCreate: [makeEndpointSlice("foo", ["1.2.3.4"], foo8080)],
    expectLeases: ["1.2.3.4"],
  },
  {
    testName: "existing endpointslice satisfies, no endpoints",
    serviceName: "foo",
    ip: "1.2.3.4",
    endpointPorts: foo8080,
    initialState: [makeEndpointSlice("foo", ["1.2.3.4"], foo8080)],
    expectCreate: [makeEndpoints("foo", ["1.2.3.4"], foo8080)],
    expectLeases: ["1.2.3.4"],
  },
  {
    testName: "existing endpoints satisfy, endpointslice is wrong",
    serviceName: "foo",
    ip: "1.2.3.4",
    endpointPorts: foo8080,
    initialState: [makeEndpoints("foo", ["1.2.3.4"], foo8080), makeEndpointSlice("foo", ["4.3.2.1"], foo8080)],
    expectUpdate: [makeEndpointSlice("foo", ["1.2.3.4"], foo8080)],
    expectLeases: ["1.2.3.4"],
  },
  {
    testName: "existing endpointslice satisfies, endpoints is wrong",
    serviceName: "foo",
    ip: "1.2.3.4",
    endpointPorts: foo8080,
    initialState: [makeEndpoints("foo", ["4.3.2.1"], foo8080), makeEndpointSlice("foo", ["1.2.3.4"], foo8080)],
    expectUpdate: [makeEndpoints("foo", ["1.2.3.4"], foo8080)],
    expectLeases: ["1.2.3.4"],
  },
  {
    testName: "existing endpoints satisfy + refresh existing key",
    serviceName: "foo",
    ip: "1.2.3.4",
    endpointPorts: foo8080,
    endpointKeys: ["1.2.3.4"],
    initialState: makeEndpointsArray("foo", ["1.2.3.4"], foo8080),
    expectLeases: ["1.2.3.4"],
  },
  {
    testName: "existing endpoints satisfy but too many",
    serviceName: "foo",
    ip: "1.2.3.4",
    endpointPorts: foo8080,
    initialState: makeEndpointsArray("foo", ["1.2.3.4", "4.3.2.1"], foo8080),
    expectUpdate: makeEndpointsArray("foo", ["1.2.3.4"], foo8080),
    expectLeases: ["1.2.3.4"],
  },
  {
    testName: "existing endpoints satisfy but too many + extra masters",
    serviceName: "foo",
    ip: "1.2.3.4",
    endpointPorts: foo8080,
    endpointKeys: ["1.2.3.4", "4.3.2.2", "4.3.2.3", "4.3.2.4"],
    initialState: makeEndpointsArray("foo", ["1.2.3.4", "4.3.2.1", "4.3.2.2", "4.3.2.3", "4.3.2.4"], foo8080),
    expectUpdate: makeEndpointsArray("foo", ["1.2.3.4", "4.3.2.2", "4.3.2.3", "4.3.2.4"], foo8080),
    expectLeases: ["1.2.3.4", "4.3.2.2", "4.3.2.3", "4.3.2.4"],
  },
  {
    testName: "existing endpoints satisfy but too many + extra masters + delete first",
    serviceName: "foo",
    ip: "4.3.2.4",
    endpointPorts: foo8080,
    endpointKeys: ["4.3.2.1", "4.3.2.2", "4.3.2.3", "4.3.2.4"],
    initialState: makeEndpointsArray("foo", ["1.2.3.4", "4.3.2.1", "4.3.2.2", "4.3.2.3", "4.3.2.4"], foo8080),
    expectUpdate: makeEndpointsArray("foo", ["4.3.2.1", "4.3.2.2", "4.3.2.3", "4.3.2.4"], foo8080),
    expectLeases: ["4.3.2.1", "4.3.2.2", "4.3.2.3", "4.3.2.4"],
  },
  {
    testName: "existing endpoints current IP missing",
    serviceName: "foo",
    ip: "4.3.2.2",
    endpointPorts: foo8080,
    endpointKeys: ["4.3.2.1"],
    initialState: makeEndpointsArray("foo", ["4.3.2.1"], foo8080),
    expectUpdate: makeEndpointsArray("foo", ["4.3.2.1", "4.3.2.2"], foo8080),
    expectLeases: ["4.3.2.1", "4.3.2.2"],
  },
  {
    testName: "existing endpoints wrong name",
    serviceName: "foo",
    ip: "1.2.3.4",
    endpointPorts: foo8080,
    initialState: makeEndpointsArray("bar", ["1.2.3.4"], foo8080),
    expectCreate: makeEndpointsArray("foo", ["1.2.3.4"], foo8080),
    expectLeases: ["1.2.3.4"],
  },
  {
    testName: "existing endpoints wrong IP",
    serviceName: "foo",
    ip: "1.2.3.4",
    endpointPorts: foo8080,
    initialState: makeEndpointsArray("foo", ["4.3.2.1"], foo8080),
    expectUpdate: makeEndpointsArray("foo", ["1.2.3.4"], foo8080),
    expectLeases: ["1.2.3.4"],
  },
  {
    testName: "existing endpoints wrong port",
    serviceName: "foo",
    ip: "1.2.3.4",
    endpointPorts: foo8080,
    initialState: makeEndpointsArray("foo", ["1.2.3.4"], [{ name: "foo", port: 9090, protocol: "TCP" }]),
    expectUpdate: makeEndpointsArray("foo", ["1.2.3.4"], foo8080),
    expectLeases: ["1.2.3.4"],
  },
  {
    testName: "existing endpoints wrong protocol",
    serviceName: "foo",
    ip: "1.2.3.4",
    endpointPorts: foo8080,
    initialState: makeEndpointsArray("foo", ["1.2.3.4"], [{ name: "foo", port: 8080, protocol: "UDP" }]),
    expectUpdate: makeEndpointsArray("foo", ["1.2.3.4"], foo8080),
    expectLeases: ["1.2.3.4"],
  },
  {
    testName: "existing endpoints wrong port name",
    serviceName: "foo",
    ip: "1.2.3.4",
    endpointPorts: [{ name: "baz", port: 8080, protocol: "TCP" }],
    initialState: makeEndpointsArray("foo", ["1.2.3.4"], foo8080),
    expectUpdate: makeEndpointsArray("foo", ["1.2.3.4"], [{ name: "baz", port: 8080, protocol: "TCP" }]),
    expectLeases: ["1.2.3.4"],
  },
  {
    testName: "existing endpoints without skip mirror label",
    serviceName: "foo",
    ip: "1.2.3.4",
    endpointPorts: foo8080,
    initialState: [
      // Not makeEndpointsArray: no skip-mirror label here.
      {
        apiVersion: "v1",
        kind: "Endpoints",
        metadata: { namespace: "default", name: "foo" },
        subsets: [{ addresses: [{ ip: "1.2.3.4" }], ports: foo8080 }],
      },
      makeEndpointSlice("foo", ["1.2.3.4"], foo8080),
    ],
    // The EndpointSlice is not updated: it was already correct.
    expectUpdate: [makeEndpoints("foo", ["1.2.3.4"], foo8080)],
    expectLeases: ["1.2.3.4"],
  },
  {
    testName: "existing endpoints extra service ports satisfy",
    serviceName: "foo",
    ip: "1.2.3.4",
    endpointPorts: [
      { name: "foo", port: 8080, protocol: "TCP" },
      { name: "bar", port: 1000, protocol: "TCP" },
      { name: "baz", port: 1010, protocol: "TCP" },
    ],
    initialState: makeEndpointsArray(
      "foo",
      ["1.2.3.4"],
      [
        { name: "foo", port: 8080, protocol: "TCP" },
        { name: "bar", port: 1000, protocol: "TCP" },
        { name: "baz", port: 1010, protocol: "TCP" },
      ],
    ),
    expectLeases: ["1.2.3.4"],
  },
  {
    testName: "existing endpoints extra service ports missing port",
    serviceName: "foo",
    ip: "1.2.3.4",
    endpointPorts: [
      { name: "foo", port: 8080, protocol: "TCP" },
      { name: "bar", port: 1000, protocol: "TCP" },
    ],
    initialState: makeEndpointsArray("foo", ["1.2.3.4"], foo8080),
    expectUpdate: makeEndpointsArray(
      "foo",
      ["1.2.3.4"],
      [
        { name: "foo", port: 8080, protocol: "TCP" },
        { name: "bar", port: 1000, protocol: "TCP" },
      ],
    ),
    expectLeases: ["1.2.3.4"],
  },
];

const nonReconcileTests: ReconcileCase[] = [
  {
    testName: "existing endpoints extra service ports missing port no update",
    serviceName: "foo",
    ip: "1.2.3.4",
    endpointPorts: [
      { name: "foo", port: 8080, protocol: "TCP" },
      { name: "bar", port: 1000, protocol: "TCP" },
    ],
    initialState: makeEndpointsArray("foo", ["1.2.3.4"], foo8080),
    expectLeases: ["1.2.3.4"],
  },
  {
    testName: "existing endpoints extra service ports, wrong ports, wrong IP",
    serviceName: "foo",
    ip: "1.2.3.4",
    endpointPorts: [
      { name: "foo", port: 8080, protocol: "TCP" },
      { name: "bar", port: 1000, protocol: "TCP" },
    ],
    initialState: makeEndpointsArray("foo", ["4.3.2.1"], foo8080),
    expectUpdate: makeEndpointsArray("foo", ["1.2.3.4"], foo8080),
    expectLeases: ["1.2.3.4"],
  },
  {
    testName: "no existing endpoints",
    serviceName: "foo",
    ip: "1.2.3.4",
    endpointPorts: foo8080,
    expectCreate: makeEndpointsArray("foo", ["1.2.3.4"], foo8080),
    expectLeases: ["1.2.3.4"],
  },
];

describe("TestLeaseEndpointReconciler", () => {
  for (const [reconcilePorts, tests] of [
    [true, reconcileTests],
    [false, nonReconcileTests],
  ] as const) {
    describe(`reconcilePorts=${reconcilePorts}`, () => {
      for (const test of tests) {
        it(test.testName, async () => {
          const store = await createStore({ backend: "memory" });
          const { leases, actions, reconciler } = await setup(store, test.initialState, test.endpointKeys);
          await reconciler.reconcileEndpoints(test.serviceName, test.ip, test.endpointPorts, reconcilePorts);
          verifyCreatesAndUpdates(actions, test.expectCreate, test.expectUpdate);
          expect((await leases.listLeases()).sort()).toEqual([...test.expectLeases].sort());
          await store.close();
        });
      }
    });
  }
});

describe("TestLeaseRemoveEndpoints", () => {
  const keys4 = ["1.2.3.4", "4.3.2.2", "4.3.2.3", "4.3.2.4"];
  const stopTests: Array<Omit<ReconcileCase, "expectCreate"> & { apiServerStartup?: boolean }> = [
    {
      testName: "successful remove previous endpoints before apiserver starts",
      serviceName: "foo",
      ip: "1.2.3.4",
      endpointPorts: foo8080,
      endpointKeys: keys4,
      initialState: makeEndpointsArray("foo", keys4, foo8080),
      expectUpdate: makeEndpointsArray("foo", ["4.3.2.2", "4.3.2.3", "4.3.2.4"], foo8080),
      expectLeases: ["4.3.2.2", "4.3.2.3", "4.3.2.4"],
      apiServerStartup: true,
    },
    {
      testName: "successful stop reconciling",
      serviceName: "foo",
      ip: "1.2.3.4",
      endpointPorts: foo8080,
      endpointKeys: keys4,
      initialState: makeEndpointsArray("foo", keys4, foo8080),
      expectUpdate: makeEndpointsArray("foo", ["4.3.2.2", "4.3.2.3", "4.3.2.4"], foo8080),
      expectLeases: ["4.3.2.2", "4.3.2.3", "4.3.2.4"],
    },
    {
      testName: "stop reconciling with ip not in endpoint ip list",
      serviceName: "foo",
      ip: "5.6.7.8",
      endpointPorts: foo8080,
      endpointKeys: keys4,
      initialState: makeEndpointsArray("foo", keys4, foo8080),
      expectLeases: keys4,
    },
    {
      testName: "endpoint with no subset",
      serviceName: "foo",
      ip: "1.2.3.4",
      endpointPorts: foo8080,
      endpointKeys: keys4,
      initialState: makeEndpointsArray("foo", null, null),
      expectUpdate: makeEndpointsArray("foo", ["4.3.2.2", "4.3.2.3", "4.3.2.4"], foo8080),
      expectLeases: ["4.3.2.2", "4.3.2.3", "4.3.2.4"],
    },
    {
      testName: "the last API server was shut down cleanly",
      serviceName: "foo",
      ip: "1.2.3.4",
      endpointPorts: foo8080,
      endpointKeys: ["1.2.3.4"],
      initialState: makeEndpointsArray("foo", ["1.2.3.4"], foo8080),
      expectUpdate: makeEndpointsArray("foo", [], []),
      expectLeases: [],
    },
  ];
  for (const test of stopTests) {
    it(test.testName, async () => {
      const store = await createStore({ backend: "memory" });
      const { leases, actions, reconciler } = await setup(store, test.initialState, test.endpointKeys);
      if (!test.apiServerStartup) reconciler.stopReconciling();
      const result = reconciler.removeEndpoints(test.serviceName, test.ip, test.endpointPorts);
      // An IP without a lease: a storage NotFound, and nothing is reconciled.
      if (!(test.endpointKeys ?? []).includes(test.ip)) await expect(result).rejects.toMatchObject({ reason: "NotFound" });
      else await result;
      verifyCreatesAndUpdates(actions, [], test.expectUpdate);
      expect((await leases.listLeases()).sort()).toEqual([...test.expectLeases].sort());
      await store.close();
    });
  }
});

describe("TestApiserverShutdown", () => {
  const cases = [
    { testName: "last apiserver shutdown after endpoint reconcile", keys: ["1.2.3.4"], after: [], shutDownBeforeReconcile: false },
    { testName: "last apiserver shutdown before endpoint reconcile", keys: ["1.2.3.4"], after: [], shutDownBeforeReconcile: true },
    {
      testName: "not the last apiserver which was shutdown before endpoint reconcile",
      keys: ["1.2.3.4", "4.3.2.1"],
      after: ["4.3.2.1"],
      shutDownBeforeReconcile: true,
    },
    {
      testName: "not the last apiserver which was shutdown after endpoint reconcile",
      keys: ["1.2.3.4", "4.3.2.1"],
      after: ["4.3.2.1"],
      shutDownBeforeReconcile: false,
    },
  ];
  for (const c of cases) {
    it(c.testName, async () => {
      const store = await createStore({ backend: "memory" });
      const { leases, actions, reconciler } = await setup(store, makeEndpointsArray("foo", c.keys, foo8080), c.keys);
      const ports = c.after.length > 0 ? foo8080 : [];
      if (c.shutDownBeforeReconcile) {
        reconciler.stopReconciling();
        await reconciler.removeEndpoints("foo", "1.2.3.4", foo8080);
        // A reconcile after the stop does nothing (and does not bring the lease back).
        await reconciler.reconcileEndpoints("foo", "1.2.3.4", foo8080, false);
      } else {
        await reconciler.reconcileEndpoints("foo", "1.2.3.4", foo8080, false);
        reconciler.stopReconciling();
        await reconciler.removeEndpoints("foo", "1.2.3.4", foo8080);
      }
      verifyCreatesAndUpdates(actions, [], makeEndpointsArray("foo", c.after, ports));
      expect((await leases.listLeases()).sort()).toEqual(c.after);
      await store.close();
    });
  }
});

describe("StorageLeases TTL emulation (etcd leases on memory and sqlite)", () => {
  for (const backend of ["memory", "sqlite"] as const) {
    it(`${backend}: an expired lease is absent, deleted on list, and a refresh keeps it alive`, async () => {
      const store = await createStore(backend === "memory" ? { backend } : { backend, path: ":memory:" });
      const clock = new FakeClock(Date.parse("2026-01-01T00:00:00Z"));
      const leases = new StorageLeases(store, { leaseTimeMs: 15_000, clock });
      await leases.updateLease("10.0.0.1");
      await leases.updateLease("10.0.0.2");
      clock.step(10_000);
      await leases.updateLease("10.0.0.1");
      clock.step(6_000);
      expect(await leases.listLeases()).toEqual(["10.0.0.1"]);
      // The expired key is gone from storage, not just filtered.
      expect((await store.list("/registry/masterleases/")).items.map((o) => o.metadata.name)).toEqual(["10.0.0.1"]);
      clock.step(10_000);
      await expect(leases.removeLease("10.0.0.1")).rejects.toMatchObject({ reason: "NotFound" });
      expect(await leases.listLeases()).toEqual([]);
      await store.close();
    });
  }
});

describe("the kubernetes EndpointSlice shape", () => {
  it("IPv6 addresses make an IPv6 slice; an IPv4 slice is replaced (addressType is immutable)", async () => {
    const store = await createStore({ backend: "memory" });
    const { actions, reconciler, slices } = await setup(store, makeEndpointsArray("kubernetes", ["10.0.0.9"], foo8080));
    await reconciler.reconcileEndpoints("kubernetes", "fd00::1", foo8080, true);
    const slice = await slices.get("default", "kubernetes");
    expect(slice["addressType"]).toBe("IPv6");
    expect(slice["endpoints"]).toEqual([{ addresses: ["fd00::1"], conditions: { ready: true } }]);
    expect(actions.map((a) => `${a.verb} ${a.obj.kind}`)).toEqual(["update Endpoints", "create EndpointSlice"]);
    await store.close();
  });
});
