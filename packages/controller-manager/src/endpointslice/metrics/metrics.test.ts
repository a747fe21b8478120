import { describe, expect, it } from "vitest";
import type { EndpointSlice, Pod, Service } from "@servicenet/api";
import { MetricsRegistry } from "@servicenet/component-base/metrics";
import { MemoryInformer } from "@servicenet/client/tools/cache";
import { dualStackPods, makeService } from "../../testing/fixtures.ts";
import { sample } from "../../testing/metrics.ts";
import { informerSliceClient } from "../../testing/slice-client.ts";
import { EndpointSliceController } from "../endpointslice-controller.ts";
import { EndpointSliceMetricsCache, numDesiredSlices } from "./cache.ts";
import { newEndpointSliceMetrics } from "./metrics.ts";

function setup(service: Service) {
  const registry = new MetricsRegistry();
  const services = new MemoryInformer<Service>([service]);
  const pods = new MemoryInformer<Pod>(dualStackPods(3));
  const slices = new MemoryInformer<EndpointSlice>();
  const client = informerSliceClient(slices);
  const c = new EndpointSliceController({ services, pods, slices, client, metrics: newEndpointSliceMetrics(registry) });
  return { c, services, pods, read: (s: string) => sample(registry.render(), s) };
}

describe("EndpointSlice controller metrics (upstream reconciler_test.go expectMetrics)", () => {
  it("counts endpoints added and removed, slice changes, and the desired and actual totals", async () => {
    const { c, pods, services, read } = setup({ ...makeService(), spec: { ...makeService().spec, trafficDistribution: "PreferClose" } });
    await c.syncService("default/web");
    // One slice per family, three endpoints each.
    expect(read("endpoint_slice_controller_endpoints_desired")).toBe(6);
    expect(read("endpoint_slice_controller_num_endpoint_slices")).toBe(2);
    expect(read("endpoint_slice_controller_desired_endpoint_slices")).toBe(2);
    expect(read("endpoint_slice_controller_endpoints_added_per_sync_sum")).toBe(6);
    expect(read("endpoint_slice_controller_endpoints_added_per_sync_count")).toBe(2);
    expect(read('endpoint_slice_controller_changes{operation="create"}')).toBe(2);
    expect(
      read('endpoint_slice_controller_endpointslices_changed_per_sync_sum{topology="Disabled",traffic_distribution="PreferClose"}'),
    ).toBe(2);
    expect(read('endpoint_slice_controller_services_count_by_traffic_distribution{traffic_distribution="PreferClose"}')).toBe(1);

    pods.remove(`default/${pods.list()[0]!.metadata.name}`);
    await c.syncService("default/web");
    expect(read("endpoint_slice_controller_endpoints_removed_per_sync_sum")).toBe(2);
    expect(read('endpoint_slice_controller_changes{operation="update"}')).toBe(2);
    expect(read("endpoint_slice_controller_endpoints_desired")).toBe(4);

    services.remove("default/web");
    await c.syncService("default/web");
    expect(read("endpoint_slice_controller_endpoints_desired")).toBe(0);
    expect(read("endpoint_slice_controller_num_endpoint_slices")).toBe(0);
    expect(read('endpoint_slice_controller_services_count_by_traffic_distribution{traffic_distribution="PreferClose"}')).toBe(0);
  });
});

describe("numDesiredSlices (upstream cache.go)", () => {
  it.each([
    [0, 100, 0],
    [1, 100, 1],
    [100, 100, 1],
    [101, 100, 2],
    [250, 100, 3],
  ])("%i endpoints, %i per slice: %i", (endpoints, max, want) => {
    expect(numDesiredSlices(endpoints, max)).toBe(want);
  });

  it("totals every Service's port maps (upstream cache_test.go TestNumEndpointsAndSlices)", () => {
    const registry = new MetricsRegistry();
    const cache = new EndpointSliceMetricsCache(newEndpointSliceMetrics(registry), 100);
    cache.updateServicePortCache(
      "ns/a",
      new Map([
        ["80", { endpoints: 250, slices: 4 }],
        ["443", { endpoints: 1, slices: 1 }],
      ]),
    );
    cache.updateServicePortCache("ns/b", new Map([["80", { endpoints: 10, slices: 1 }]]));
    const text = registry.render();
    expect(sample(text, "endpoint_slice_controller_endpoints_desired")).toBe(261);
    expect(sample(text, "endpoint_slice_controller_num_endpoint_slices")).toBe(6);
    expect(sample(text, "endpoint_slice_controller_desired_endpoint_slices")).toBe(5);
  });

  it("counts an unknown trafficDistribution as ImplementationSpecific", () => {
    const registry = new MetricsRegistry();
    const cache = new EndpointSliceMetricsCache(newEndpointSliceMetrics(registry), 100);
    cache.updateTrafficDistributionForService("ns/a", "PreferSameNode");
    cache.updateTrafficDistributionForService("ns/b", "PreferClose");
    const text = registry.render();
    expect(
      sample(text, 'endpoint_slice_controller_services_count_by_traffic_distribution{traffic_distribution="ImplementationSpecific"}'),
    ).toBe(1);
    expect(sample(text, 'endpoint_slice_controller_services_count_by_traffic_distribution{traffic_distribution="PreferClose"}')).toBe(1);
  });
});
