/**
 * The EndpointSlice mirroring controller on in-memory informers, with a client that writes into
 * the slice informer (as the watch would) and the controller-manager's metrics, for the tests
 * that read what a sync did from the registry.
 */
import type { EndpointSlice, Endpoints, Service } from "@servicenet/api";
import type { Clock } from "@servicenet/component-base/clock";
import { MetricsRegistry } from "@servicenet/component-base/metrics";
import { MemoryInformer } from "@servicenet/client/tools/cache";
import { FakeRecorder } from "@servicenet/client/tools/record";
import { EndpointSliceMirroringController } from "../endpointslicemirroring/endpointslicemirroring-controller.ts";
import { newEndpointSliceMirroringMetrics } from "../endpointslicemirroring/metrics/metrics.ts";
import { makeService } from "./fixtures.ts";
import { sampleReader } from "./metrics.ts";
import { informerSliceClient } from "./slice-client.ts";

/** The labels of a slice mirrored from the Endpoints `test/test-ep`. */
export const mirroredFromTestEp = {
  "kubernetes.io/service-name": "test-ep",
  "endpointslice.kubernetes.io/managed-by": "endpointslicemirroring-controller.k8s.io",
};

export interface MirroringSetup {
  endpoints: Endpoints;
  /** Slices already mirrored from `test/test-ep` (labelled as such here). */
  existing?: readonly EndpointSlice[];
  maxEndpointsPerSubset?: number;
  clock?: Clock;
  /** Called on every write, before it lands. */
  onWrite?: () => void;
}

/** The controller mirroring `endpoints` (named `test/test-ep`, its Service selectorless). */
export function mirroringController(o: MirroringSetup) {
  const registry = new MetricsRegistry();
  const recorder = new FakeRecorder();
  const service = { ...makeService({ selector: undefined }), metadata: { name: "test-ep", namespace: "test" } } as Service;
  const existing = (o.existing ?? []).map((s) => ({ ...s, metadata: { ...s.metadata, labels: mirroredFromTestEp } }));
  const slices = new MemoryInformer<EndpointSlice>(existing);
  const endpoints = new MemoryInformer<Endpoints>([o.endpoints]);
  const client = informerSliceClient(slices, o.onWrite);
  const c = new EndpointSliceMirroringController({
    endpoints,
    services: new MemoryInformer<Service>([service]),
    slices,
    client,
    metrics: newEndpointSliceMirroringMetrics(registry),
    ...(o.maxEndpointsPerSubset !== undefined ? { maxEndpointsPerSubset: o.maxEndpointsPerSubset } : {}),
    ...(o.clock !== undefined ? { clock: o.clock } : {}),
    recorder,
  });
  return { c, endpoints, slices, recorder, read: sampleReader(registry) };
}
