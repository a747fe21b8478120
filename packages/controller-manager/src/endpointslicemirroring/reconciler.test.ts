/**
 * upstream pkg/controller/endpointslicemirroring/reconciler_test.go TestReconcile: the Endpoints
 * "test-ep" in "test" reconciled against existing slices; the number of slices afterwards and of
 * client actions (creates + updates + deletes), and each slice's shape (expectMatchingAddresses,
 * labels, annotations, owner reference); and expectMetrics: the same cases synced by the controller
 * and read from the registry.
 */
import { describe, expect, it } from "vitest";
import type { EndpointAddress, EndpointPort, EndpointSlice, EndpointSubset, Endpoints } from "@servicenet/api";
import { mirroringController } from "../testing/mirroring.ts";
import { reconcile } from "./reconciler.ts";

const tcp = (name: string, port: number): EndpointPort => ({ name, port, protocol: "TCP" });
const udp = (name: string, port: number): EndpointPort => ({ name, port, protocol: "UDP" });
const addr = (ip: string, hostname: string, nodeName?: string): EndpointAddress => ({ ip, hostname, ...(nodeName ? { nodeName } : {}) });
const lastApplied = "kubectl.kubernetes.io/last-applied-configuration";

interface Case {
  testName: string;
  subsets: EndpointSubset[];
  epLabels?: Record<string, string>;
  epAnnotations?: Record<string, string>;
  uid?: string;
  endpointsDeletionPending?: boolean;
  maxEndpointsPerSubset?: number;
  existingEndpointSlices?: EndpointSlice[];
  expectedNumSlices: number;
  expectedClientActions: number;
  expectedSkipped?: number;
  expectedMetrics?: ExpectedMetrics;
}

/** upstream expectedMetrics (absent fields are 0). */
interface ExpectedMetrics {
  desiredSlices?: number;
  actualSlices?: number;
  desiredEndpoints?: number;
  addedPerSync?: number;
  updatedPerSync?: number;
  removedPerSync?: number;
  skippedPerSync?: number;
  numCreated?: number;
  numUpdated?: number;
  numDeleted?: number;
}

const oneCreated: ExpectedMetrics = { addedPerSync: 1, numCreated: 1, desiredEndpoints: 1, desiredSlices: 1, actualSlices: 1 };

function existing(
  name: string,
  ports: EndpointPort[],
  endpoints: EndpointSlice["endpoints"],
  meta: Partial<EndpointSlice["metadata"]> = {},
): EndpointSlice {
  return { metadata: { name, namespace: "test", ...meta }, addressType: "IPv4", ports: ports.map((p) => ({ ...p })), endpoints };
}

const twoSubsets = (a: EndpointAddress[], b: EndpointAddress[]): EndpointSubset[] => [
  { ports: [tcp("http", 80), udp("https", 443)], addresses: a },
  { ports: [tcp("http", 3000), udp("https", 3001)], addresses: b },
];
const five = twoSubsets(
  [addr("10.0.0.1", "pod-1", "node-1"), addr("10.0.0.2", "pod-2", "node-2")],
  [addr("10.0.1.1", "pod-11", "node-1"), addr("10.0.1.2", "pod-12", "node-2"), addr("10.0.1.3", "pod-13", "node-3")],
);
const oneSubset: EndpointSubset[] = [{ ports: [tcp("http", 80)], addresses: [addr("10.0.0.1", "pod-1")] }];
const oneReady = [{ addresses: ["10.0.0.1"], hostname: "pod-1", conditions: { ready: true } }];

const testCases: Case[] = [
  { testName: "Endpoints with no subsets", subsets: [], expectedNumSlices: 0, expectedClientActions: 0, expectedMetrics: {} },
  {
    testName: "Endpoints with no addresses",
    subsets: [{ ports: [tcp("http", 80)] }],
    expectedNumSlices: 0,
    expectedClientActions: 0,
    expectedMetrics: {},
  },
  {
    testName: "Endpoints with 1 subset, port, and address",
    expectedMetrics: { desiredSlices: 1, actualSlices: 1, desiredEndpoints: 1, addedPerSync: 1, numCreated: 1 },
    subsets: [{ ports: [tcp("http", 80)], addresses: [addr("10.0.0.1", "pod-1", "node-1")] }],
    expectedNumSlices: 1,
    expectedClientActions: 1,
  },
  {
    testName: "Endpoints with 2 subset, different port and address",
    expectedMetrics: { desiredSlices: 2, actualSlices: 2, desiredEndpoints: 2, addedPerSync: 2, numCreated: 2 },
    subsets: [
      { ports: [tcp("http", 80)], addresses: [addr("10.0.0.1", "pod-1", "node-1")] },
      { ports: [tcp("https", 443)], addresses: [addr("10.0.0.2", "pod-2", "node-1")] },
    ],
    expectedNumSlices: 2,
    expectedClientActions: 2,
  },
  {
    testName: "Endpoints with 2 subset, different port and same address",
    expectedMetrics: { desiredSlices: 1, actualSlices: 1, desiredEndpoints: 1, addedPerSync: 1, numCreated: 1 },
    subsets: [
      { ports: [tcp("http", 80)], addresses: [addr("10.0.0.1", "pod-1", "node-1")] },
      { ports: [tcp("https", 443)], addresses: [addr("10.0.0.1", "pod-1", "node-1")] },
    ],
    expectedNumSlices: 1,
    expectedClientActions: 1,
  },
  {
    testName: "Endpoints with 2 subset, different address and same port",
    expectedMetrics: { desiredSlices: 1, actualSlices: 1, desiredEndpoints: 2, addedPerSync: 2, numCreated: 1 },
    subsets: [
      { ports: [tcp("http", 80)], addresses: [addr("10.0.0.1", "pod-1", "node-1")] },
      { ports: [tcp("http", 80)], addresses: [addr("10.0.0.2", "pod-2", "node-1")] },
    ],
    expectedNumSlices: 1,
    expectedClientActions: 1,
  },
  {
    testName: "Endpoints with 1 subset, port, and address, pending deletion",
    subsets: [{ ports: [tcp("http", 80)], addresses: [addr("10.0.0.1", "pod-1", "node-1")] }],
    endpointsDeletionPending: true,
    expectedNumSlices: 0,
    expectedClientActions: 0,
  },
  {
    testName: "Endpoints with 1 subset, port, and address and existing slice with same fields",
    subsets: oneSubset,
    uid: "d8f2c1f6-5285-4b3c-b3c1-9b89f9e7ed7a",
    existingEndpointSlices: [
      existing("test-ep-1", [tcp("http", 80)], oneReady, {
        ownerReferences: [{ apiVersion: "v1", kind: "Endpoints", name: "test-ep", uid: "d8f2c1f6-5285-4b3c-b3c1-9b89f9e7ed7a" }],
      }),
    ],
    expectedNumSlices: 1,
    expectedClientActions: 0,
  },
  {
    testName: "Endpoints with 1 subset, port, and address and existing slice with same fields but different OwnerReferences",
    subsets: oneSubset,
    uid: "d8f2c1f6-5285-4b3c-b3c1-9b89f9e7ed7a",
    existingEndpointSlices: [
      existing("test-ep-1", [tcp("http", 80)], oneReady, {
        ownerReferences: [{ apiVersion: "v1", kind: "Endpoints", name: "test-ep", uid: "fb91e798-1875-4857-b5eb-e2c878157b4d" }],
      }),
    ],
    expectedNumSlices: 1,
    expectedClientActions: 1,
  },
  {
    testName: "Endpoints with 1 subset, port, and address and existing slice with an additional annotation",
    subsets: oneSubset,
    existingEndpointSlices: [existing("test-ep-1", [tcp("http", 80)], oneReady, { annotations: { foo: "bar" } })],
    expectedNumSlices: 1,
    expectedClientActions: 1,
  },
  {
    testName: "Endpoints with 1 subset, port, label and address and existing slice with same fields but the label",
    subsets: oneSubset,
    epLabels: { foo: "bar" },
    existingEndpointSlices: [existing("test-ep-1", [tcp("http", 80)], oneReady, { annotations: { foo: "bar" } })],
    expectedNumSlices: 1,
    expectedClientActions: 1,
  },
  {
    testName: "Endpoints with 1 subset, 2 ports, and 2 addresses",
    expectedMetrics: { desiredSlices: 1, actualSlices: 1, desiredEndpoints: 2, addedPerSync: 2, numCreated: 1 },
    subsets: [
      {
        ports: [tcp("http", 80), udp("https", 443)],
        addresses: [addr("10.0.0.1", "pod-1", "node-1"), addr("10.0.0.2", "pod-2", "node-2")],
      },
    ],
    expectedNumSlices: 1,
    expectedClientActions: 1,
  },
  {
    testName: "Endpoints with 1 subset, 2 ports, and 2 not ready addresses",
    expectedMetrics: { desiredSlices: 1, actualSlices: 1, desiredEndpoints: 2, addedPerSync: 2, numCreated: 1 },
    subsets: [
      {
        ports: [tcp("http", 80), udp("https", 443)],
        notReadyAddresses: [addr("10.0.0.1", "pod-1", "node-1"), addr("10.0.0.2", "pod-2", "node-2")],
      },
    ],
    expectedNumSlices: 1,
    expectedClientActions: 1,
  },
  {
    testName: "Endpoints with 1 subset, 2 ports, and 2 ready and 2 not ready addresses",
    expectedMetrics: { desiredSlices: 1, actualSlices: 1, desiredEndpoints: 4, addedPerSync: 4, numCreated: 1 },
    subsets: [
      {
        ports: [tcp("http", 80), udp("https", 443)],
        addresses: [addr("10.1.1.1", "pod-11", "node-1"), addr("10.1.1.2", "pod-12", "node-2")],
        notReadyAddresses: [addr("10.0.0.1", "pod-1", "node-1"), addr("10.0.0.2", "pod-2", "node-2")],
      },
    ],
    expectedNumSlices: 1,
    expectedClientActions: 1,
  },
  {
    testName: "Endpoints with 2 subsets, multiple ports and addresses",
    subsets: five,
    expectedNumSlices: 2,
    expectedClientActions: 2,
    expectedMetrics: { desiredSlices: 2, actualSlices: 2, desiredEndpoints: 5, addedPerSync: 5, numCreated: 2 },
  },
  {
    testName: "Endpoints with 2 subsets, multiple ports and addresses, existing empty EndpointSlice",
    expectedMetrics: { desiredSlices: 2, actualSlices: 2, desiredEndpoints: 5, addedPerSync: 5, numCreated: 1, numUpdated: 1 },
    subsets: five,
    existingEndpointSlices: [existing("test-ep-1", [tcp("http", 80), udp("https", 443)], [])],
    expectedNumSlices: 2,
    expectedClientActions: 2,
  },
  {
    testName: "Endpoints with 2 subsets, multiple ports and addresses, existing EndpointSlice with some addresses",
    expectedMetrics: {
      desiredSlices: 2,
      actualSlices: 2,
      desiredEndpoints: 5,
      addedPerSync: 4,
      updatedPerSync: 1,
      removedPerSync: 1,
      numCreated: 1,
      numUpdated: 1,
    },
    subsets: five,
    existingEndpointSlices: [
      existing(
        "test-ep-1",
        [tcp("http", 80), udp("https", 443)],
        [
          { addresses: ["10.0.0.2"], hostname: "pod-2" },
          { addresses: ["10.0.0.1", "10.0.0.3"], hostname: "pod-1" },
        ],
      ),
    ],
    expectedNumSlices: 2,
    expectedClientActions: 2,
  },
  {
    testName: "Endpoints with 2 subsets, multiple ports and addresses, existing EndpointSlice identical to subset",
    expectedMetrics: { desiredSlices: 2, actualSlices: 2, desiredEndpoints: 5, addedPerSync: 3, numCreated: 1 },
    subsets: five,
    existingEndpointSlices: [
      existing(
        "test-ep-1",
        [tcp("http", 80), udp("https", 443)],
        [
          { addresses: ["10.0.0.1"], hostname: "pod-1", nodeName: "node-1", conditions: { ready: true } },
          { addresses: ["10.0.0.2"], hostname: "pod-2", nodeName: "node-2", conditions: { ready: true } },
        ],
      ),
    ],
    expectedNumSlices: 2,
    expectedClientActions: 1,
  },
  {
    testName: "Endpoints with 2 subsets, multiple ports, and dual stack addresses",
    expectedMetrics: { desiredSlices: 4, actualSlices: 4, desiredEndpoints: 5, addedPerSync: 5, numCreated: 4 },
    subsets: twoSubsets(
      [addr("2001:db8:2222:3333:4444:5555:6666:7777", "pod-1", "node-1"), addr("10.0.0.2", "pod-2", "node-2")],
      [
        addr("10.0.1.1", "pod-11", "node-1"),
        addr("10.0.1.2", "pod-12", "node-2"),
        addr("2001:db8:3333:4444:5555:6666:7777:8888", "pod-13", "node-3"),
      ],
    ),
    expectedNumSlices: 4,
    expectedClientActions: 4,
  },
  {
    testName: "Endpoints with 2 subsets, multiple ports, ipv6 only addresses",
    expectedMetrics: { desiredSlices: 2, actualSlices: 2, desiredEndpoints: 5, addedPerSync: 5, numCreated: 2 },
    subsets: twoSubsets(
      [
        addr("2001:db8:1111:3333:4444:5555:6666:7777", "pod-1", "node-1"),
        addr("2001:db8:2222:3333:4444:5555:6666:7777", "pod-2", "node-2"),
      ],
      [
        addr("2001:db8:3333:3333:4444:5555:6666:7777", "pod-11", "node-1"),
        addr("2001:db8:4444:3333:4444:5555:6666:7777", "pod-12", "node-2"),
        addr("2001:db8:5555:3333:4444:5555:6666:7777", "pod-13", "node-3"),
      ],
    ),
    expectedNumSlices: 2,
    expectedClientActions: 2,
  },
  {
    testName: "Endpoints with 2 subsets, multiple ports, some invalid addresses",
    expectedMetrics: { desiredSlices: 2, actualSlices: 2, desiredEndpoints: 3, addedPerSync: 3, skippedPerSync: 2, numCreated: 2 },
    subsets: twoSubsets(
      [addr("2001:db8:1111:3333:4444:5555:6666:7777", "pod-1", "node-1"), addr("this-is-not-an-ip", "pod-2", "node-2")],
      [
        addr("this-is-also-not-an-ip", "pod-11", "node-1"),
        addr("2001:db8:4444:3333:4444:5555:6666:7777", "pod-12", "node-2"),
        addr("2001:db8:5555:3333:4444:5555:6666:7777", "pod-13", "node-3"),
      ],
    ),
    expectedNumSlices: 2,
    expectedClientActions: 2,
    expectedSkipped: 2,
  },
  {
    testName: "Endpoints with 2 subsets, multiple ports, all invalid addresses",
    expectedMetrics: { skippedPerSync: 5 },
    subsets: twoSubsets(
      [addr("this-is-not-an-ip1", "pod-1", "node-1"), addr("this-is-not-an-ip12", "pod-2", "node-2")],
      [
        addr("this-is-not-an-ip11", "pod-11", "node-1"),
        addr("this-is-not-an-ip12", "pod-12", "node-2"),
        addr("this-is-not-an-ip3", "pod-13", "node-3"),
      ],
    ),
    expectedNumSlices: 0,
    expectedClientActions: 0,
    expectedSkipped: 5,
  },
  {
    testName: "Endpoints with 2 subsets, 1 exceeding maxEndpointsPerSubset",
    expectedMetrics: { desiredSlices: 2, actualSlices: 2, desiredEndpoints: 4, addedPerSync: 4, skippedPerSync: 1, numCreated: 2 },
    subsets: five,
    maxEndpointsPerSubset: 2,
    expectedNumSlices: 2,
    expectedClientActions: 2,
    expectedSkipped: 1,
  },
  {
    testName: "The last-applied-configuration annotation should not get mirrored to created or updated endpoint slices",
    expectedMetrics: oneCreated,
    epAnnotations: { [lastApplied]: '{"apiVersion":"v1","kind":"Endpoints","subsets":[]}' },
    subsets: oneSubset,
    expectedNumSlices: 1,
    expectedClientActions: 1,
  },
  {
    testName: "The last-applied-configuration annotation shouldn't get added to created endpoint slices",
    expectedMetrics: oneCreated,
    subsets: oneSubset,
    expectedNumSlices: 1,
    expectedClientActions: 1,
  },
  {
    testName: "The last-applied-configuration shouldn't get mirrored to endpoint slices when it's value is empty",
    expectedMetrics: oneCreated,
    epAnnotations: { [lastApplied]: "" },
    subsets: oneSubset,
    expectedNumSlices: 1,
    expectedClientActions: 1,
  },
  {
    testName: "Annotations other than last-applied-configuration should get correctly mirrored",
    expectedMetrics: oneCreated,
    epAnnotations: { [lastApplied]: '{"apiVersion":"v1","kind":"Endpoints","subsets":[]}', foo: "bar" },
    subsets: oneSubset,
    expectedNumSlices: 1,
    expectedClientActions: 1,
  },
  {
    testName: "Annotation mirroring should remove the last-applied-configuration annotation from existing endpoint slices",
    subsets: oneSubset,
    existingEndpointSlices: [
      existing("test-ep-1", [tcp("http", 80)], oneReady, {
        annotations: { [lastApplied]: '{"apiVersion":"v1","kind":"Endpoints","subsets":[]}' },
      }),
    ],
    expectedNumSlices: 1,
    expectedClientActions: 1,
  },
  {
    testName: "The last-change-trigger-time annotation is not mirrored, and its change alone writes nothing",
    epAnnotations: { "endpoints.kubernetes.io/last-change-trigger-time": "2026-01-01T00:00:00Z" },
    subsets: oneSubset,
    existingEndpointSlices: [existing("test-ep-1", [tcp("http", 80)], oneReady)],
    expectedNumSlices: 1,
    expectedClientActions: 0,
  },
];

function endpointsOf(tc: Case): Endpoints {
  return {
    metadata: {
      name: "test-ep",
      namespace: "test",
      ...(tc.uid ? { uid: tc.uid } : {}),
      ...(tc.epLabels ? { labels: tc.epLabels } : {}),
      ...(tc.epAnnotations ? { annotations: tc.epAnnotations } : {}),
      ...(tc.endpointsDeletionPending ? { deletionTimestamp: "2026-01-01T00:00:00Z" } : {}),
    },
    subsets: tc.subsets,
  };
}

describe("TestReconcile", () => {
  for (const tc of testCases) {
    it(tc.testName, () => {
      const endpoints = endpointsOf(tc);
      const before = tc.existingEndpointSlices ?? [];
      const plan = reconcile(endpoints, before, tc.maxEndpointsPerSubset ?? 1000);
      expect(plan.toCreate.length + plan.toUpdate.length + plan.toDelete.length).toBe(tc.expectedClientActions);
      // The slices after the plan is carried out.
      const after = new Map(before.map((s) => [s.metadata.name!, s]));
      plan.toCreate.forEach((s, i) => after.set(`${s.metadata.generateName}${i}`, s));
      for (const s of plan.toUpdate) after.set(s.metadata.name!, s);
      for (const s of plan.toDelete) after.delete(s.metadata.name!);
      expect(after.size).toBe(tc.expectedNumSlices);
      if (tc.expectedSkipped !== undefined) expect(plan.addressesSkipped).toBe(tc.expectedSkipped);
      // upstream expectMatchingAddresses and the metadata checks, for every slice written.
      for (const s of [...plan.toCreate, ...plan.toUpdate]) {
        expect(s.metadata.labels).toMatchObject({
          ...(tc.epLabels ?? {}),
          "kubernetes.io/service-name": "test-ep",
          "endpointslice.kubernetes.io/managed-by": "endpointslicemirroring-controller.k8s.io",
        });
        const want = { ...(tc.epAnnotations ?? {}) };
        delete want[lastApplied];
        delete want["endpoints.kubernetes.io/last-change-trigger-time"];
        expect(s.metadata.annotations ?? {}).toEqual(want);
        expect(s.metadata.ownerReferences).toEqual([
          { apiVersion: "v1", kind: "Endpoints", name: "test-ep", uid: tc.uid ?? "", controller: true, blockOwnerDeletion: true },
        ]);
        for (const ep of s.endpoints ?? []) expect(ep.addresses[0]!.includes(":")).toBe(s.addressType === "IPv6");
        expect((s.endpoints ?? []).length).toBeLessThanOrEqual(tc.maxEndpointsPerSubset ?? 1000);
      }
    });
  }

  it("mirrors ready and not-ready addresses with their conditions, hostname and nodeName, named after the Endpoints", () => {
    const plan = reconcile(
      endpointsOf({
        testName: "",
        subsets: [
          { ports: [tcp("http", 80)], addresses: [addr("10.0.0.1", "pod-1", "node-1")], notReadyAddresses: [addr("10.0.0.2", "pod-2")] },
        ],
        expectedClientActions: 0,
        expectedNumSlices: 0,
      }),
      [],
    );
    expect(plan.toCreate).toEqual([
      expect.objectContaining({
        metadata: expect.objectContaining({ generateName: "test-ep-", namespace: "test" }),
        addressType: "IPv4",
        ports: [{ name: "http", port: 80, protocol: "TCP" }],
        endpoints: [
          { addresses: ["10.0.0.1"], conditions: { ready: true }, hostname: "pod-1", nodeName: "node-1" },
          { addresses: ["10.0.0.2"], conditions: { ready: false }, hostname: "pod-2" },
        ],
      }),
    ]);
  });

  it("recycles a slice whose port set went away instead of deleting it and creating another", () => {
    const plan = reconcile(
      endpointsOf({
        testName: "",
        subsets: [{ ports: [tcp("http", 8080)], addresses: [addr("10.0.0.1", "pod-1")] }],
        expectedClientActions: 0,
        expectedNumSlices: 0,
      }),
      [existing("test-ep-abc", [tcp("http", 80)], oneReady)],
    );
    expect(plan.toCreate).toEqual([]);
    expect(plan.toDelete).toEqual([]);
    expect(plan.toUpdate.map((s) => [s.metadata.name, s.ports])).toEqual([
      ["test-ep-abc", [{ name: "http", port: 8080, protocol: "TCP" }]],
    ]);
  });
});

describe("TestReconcile expectMetrics", () => {
  for (const tc of testCases.filter((t) => t.expectedMetrics !== undefined)) {
    it(tc.testName, async () => {
      const { c, slices, read } = mirroringController({
        endpoints: endpointsOf(tc),
        existing: tc.existingEndpointSlices ?? [],
        maxEndpointsPerSubset: tc.maxEndpointsPerSubset ?? 1000,
      });
      await c.syncEndpoints("test/test-ep");
      expect(slices.list()).toHaveLength(tc.expectedNumSlices);
      const em = tc.expectedMetrics!;
      const s = "endpoint_slice_mirroring_controller";
      // upstream reads a histogram's sum (testutil.GetHistogramMetricValue).
      expect({
        desiredSlices: read(`${s}_desired_endpoint_slices`),
        actualSlices: read(`${s}_num_endpoint_slices`),
        desiredEndpoints: read(`${s}_endpoints_desired`),
        addedPerSync: read(`${s}_endpoints_added_per_sync_sum`),
        updatedPerSync: read(`${s}_endpoints_updated_per_sync_sum`),
        removedPerSync: read(`${s}_endpoints_removed_per_sync_sum`),
        skippedPerSync: read(`${s}_addresses_skipped_per_sync_sum`),
        numCreated: read(`${s}_changes{operation="create"}`) ?? 0,
        numUpdated: read(`${s}_changes{operation="update"}`) ?? 0,
        numDeleted: read(`${s}_changes{operation="delete"}`) ?? 0,
      }).toEqual({
        desiredSlices: em.desiredSlices ?? 0,
        actualSlices: em.actualSlices ?? 0,
        desiredEndpoints: em.desiredEndpoints ?? 0,
        addedPerSync: em.addedPerSync ?? 0,
        updatedPerSync: em.updatedPerSync ?? 0,
        removedPerSync: em.removedPerSync ?? 0,
        skippedPerSync: em.skippedPerSync ?? 0,
        numCreated: em.numCreated ?? 0,
        numUpdated: em.numUpdated ?? 0,
        numDeleted: em.numDeleted ?? 0,
      });
      expect(read(`${s}_endpoints_sync_duration_count`)).toBe(1);
    });
  }
});
