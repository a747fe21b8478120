/**
 * upstream endpointslicemirroring_controller_test.go TestSyncEndpoints (and the event handlers), on
 * in-memory informers and a recording client.
 */
import { describe, expect, it } from "vitest";
import type { EndpointSlice, Endpoints, Service } from "@servicenet/api";
import { MemoryInformer } from "@servicenet/client/tools/cache";
import { NoScanInformer } from "../testing/no-scan-informer.ts";
import { makeService } from "../testing/fixtures.ts";
import { StaleInformerCacheError, type EndpointSliceClient } from "../endpointslice/endpointslice-controller.ts";
import { EndpointSliceMirroringController } from "./endpointslicemirroring-controller.ts";

const managed = {
  "kubernetes.io/service-name": "test-ep",
  "endpointslice.kubernetes.io/managed-by": "endpointslicemirroring-controller.k8s.io",
};

function makeEndpoints(extra: Partial<Endpoints["metadata"]> = {}, ips = ["10.0.0.1"]): Endpoints {
  return {
    metadata: { name: "test-ep", namespace: "test", uid: "ep-uid", ...extra },
    subsets: [{ ports: [{ name: "http", port: 80, protocol: "TCP" }], addresses: ips.map((ip) => ({ ip })) }],
  };
}

function setup(o: { endpoints?: Endpoints[]; services?: Service[]; slices?: EndpointSlice[] }) {
  const endpoints = new MemoryInformer<Endpoints>(o.endpoints ?? []);
  const services = new MemoryInformer<Service>(o.services ?? []);
  // Mirrored slices are read through the lister of one namespace (endpointSlicesMirroredForService), never scanned.
  const slices = new NoScanInformer<EndpointSlice>(o.slices ?? []);
  const calls: string[] = [];
  let n = 0;
  let rv = 100;
  const client: EndpointSliceClient = {
    async create(ns, s) {
      calls.push(`create ${s.metadata.generateName}`);
      return { ...s, metadata: { ...s.metadata, name: `${s.metadata.generateName}${++n}`, namespace: ns, resourceVersion: String(++rv) } };
    },
    async update(ns, s) {
      calls.push(`update ${s.metadata.name}`);
      return { ...s, metadata: { ...s.metadata, namespace: ns, resourceVersion: String(++rv) } };
    },
    async delete(_ns, name) {
      calls.push(`delete ${name}`);
    },
  };
  const c = new EndpointSliceMirroringController({ endpoints, services, slices, client });
  return { c, calls, endpoints, services, slices };
}

const selectorless = () => ({ ...makeService({ selector: undefined }), metadata: { name: "test-ep", namespace: "test" } }) as Service;
const withSelector = () => ({ ...makeService(), metadata: { name: "test-ep", namespace: "test" } }) as Service;
const mirrored = (name: string): EndpointSlice => ({
  metadata: { name, namespace: "test", labels: managed, resourceVersion: "5" },
  addressType: "IPv4",
  ports: [{ name: "http", port: 80, protocol: "TCP" }],
  endpoints: [{ addresses: ["10.0.0.9"], conditions: { ready: true } }],
});

describe("TestSyncEndpoints", () => {
  const cases: Array<{ testName: string; service?: Service; endpoints?: Endpoints; slices?: EndpointSlice[]; want: string[] }> = [
    {
      testName: "Endpoints with no addresses",
      service: selectorless(),
      endpoints: { metadata: { name: "test-ep", namespace: "test" }, subsets: [] },
      want: [],
    },
    {
      testName: "Endpoints with skip label true",
      service: selectorless(),
      endpoints: makeEndpoints({ labels: { "endpointslice.kubernetes.io/skip-mirror": "true" } }),
      want: [],
    },
    {
      testName: "Endpoints with skip label false",
      service: selectorless(),
      endpoints: makeEndpoints({ labels: { "endpointslice.kubernetes.io/skip-mirror": "false" } }),
      want: ["create test-ep-"],
    },
    {
      testName: "Endpoints with leader election annotation",
      service: selectorless(),
      endpoints: makeEndpoints({ annotations: { "control-plane.alpha.kubernetes.io/leader": "{}" } }),
      want: [],
    },
    { testName: "Endpoints with 1 address", service: selectorless(), endpoints: makeEndpoints(), want: ["create test-ep-"] },
    {
      testName: "Endpoints without a Service",
      endpoints: makeEndpoints(),
      slices: [mirrored("test-ep-old")],
      want: ["delete test-ep-old"],
    },
    {
      testName: "Service with selector specified",
      service: withSelector(),
      endpoints: makeEndpoints(),
      slices: [mirrored("test-ep-old")],
      want: ["delete test-ep-old"],
    },
    {
      testName: "Existing EndpointSlices that need to be cleaned up (Endpoints deleted)",
      service: selectorless(),
      slices: [mirrored("test-ep-a"), mirrored("test-ep-b")],
      want: ["delete test-ep-a", "delete test-ep-b"],
    },
    {
      testName: "Existing EndpointSlice with other addresses is updated in place",
      service: selectorless(),
      endpoints: makeEndpoints(),
      slices: [mirrored("test-ep-a")],
      want: ["update test-ep-a"],
    },
  ];
  for (const tc of cases) {
    it(tc.testName, async () => {
      const { c, calls } = setup({
        ...(tc.service ? { services: [tc.service] } : {}),
        ...(tc.endpoints ? { endpoints: [tc.endpoints] } : {}),
        slices: tc.slices ?? [],
      });
      await c.syncEndpoints("test/test-ep");
      expect(calls).toEqual(tc.want);
    });
  }

  it("refuses to reconcile from a cache that has not seen its own create", async () => {
    const { c, calls } = setup({ services: [selectorless()], endpoints: [makeEndpoints()] });
    await c.syncEndpoints("test/test-ep");
    await expect(c.syncEndpoints("test/test-ep")).rejects.toBeInstanceOf(StaleInformerCacheError);
    expect(calls).toEqual(["create test-ep-"]);
  });
});

describe("event handlers", () => {
  it("queue selectorless Services, mirrored Endpoints and changed mirrored slices only", () => {
    const { c, services, endpoints, slices } = setup({});
    services.set({ ...withSelector(), metadata: { name: "sel", namespace: "test" } });
    endpoints.set(makeEndpoints({ name: "skip", labels: { "endpointslice.kubernetes.io/skip-mirror": "true" } }));
    expect(c.queue.len()).toBe(0);
    services.set(selectorless());
    endpoints.set(makeEndpoints({ name: "other" }));
    slices.set({
      ...mirrored("x"),
      metadata: { ...mirrored("x").metadata, labels: { ...managed, "kubernetes.io/service-name": "third" } },
    });
    expect(c.queue.len()).toBe(3);
  });
});

describe("finalize", () => {
  it("drops the item when the namespace is terminating (creates would keep failing)", async () => {
    const terminating = Object.assign(new Error("forbidden"), {
      code: 403,
      body: JSON.stringify({
        kind: "Status",
        apiVersion: "v1",
        status: "Failure",
        reason: "Forbidden",
        code: 403,
        message: 'endpointslices "test-ep-" is forbidden: unable to create new content in namespace test because it is being terminated',
        details: {
          causes: [{ reason: "NamespaceTerminating", message: "namespace test is being terminated", field: "metadata.namespace" }],
        },
      }),
    });
    const failing = new EndpointSliceMirroringController({
      endpoints: new MemoryInformer<Endpoints>([makeEndpoints()]),
      services: new MemoryInformer<Service>([selectorless()]),
      slices: new MemoryInformer<EndpointSlice>(),
      client: { create: () => Promise.reject(terminating), update: () => Promise.reject(new Error("no")), delete: async () => {} },
    });
    await expect(failing.syncEndpoints("test/test-ep")).resolves.toBeUndefined();
  });
});
