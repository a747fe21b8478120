/** upstream `pkg/controller/endpointslicemirroring/metrics/cache_test.go`. */
import { describe, expect, it } from "vitest";
import { MetricsRegistry } from "@servicenet/component-base/metrics";
import { sampleReader } from "../../testing/metrics.ts";
import { addrTypePortMapKey } from "../utils.ts";
import { EndpointPortCache, EndpointSliceMirroringMetricsCache } from "./cache.ts";
import { newEndpointSliceMirroringMetrics } from "./metrics.ts";

describe("TestNumEndpointsAndSlices", () => {
  const registry = new MetricsRegistry();
  const read = sampleReader(registry);
  const c = new EndpointSliceMirroringMetricsCache(newEndpointSliceMirroringMetrics(registry), 100);

  const pmKey80443 = addrTypePortMapKey([{ port: 80 }, { port: 443 }], "IPv4");
  const pmKey80 = addrTypePortMapKey([{ port: 80 }], "IPv4");

  const spCacheEfficient = new EndpointPortCache();
  spCacheEfficient.set(pmKey80, { endpoints: 45, slices: 1 });
  spCacheEfficient.set(pmKey80443, { endpoints: 35, slices: 1 });

  const spCacheInefficient = new EndpointPortCache();
  spCacheInefficient.set(pmKey80, { endpoints: 12, slices: 5 });
  spCacheInefficient.set(pmKey80443, { endpoints: 18, slices: 8 });

  /** upstream expectNumEndpointsAndSlices, read from the gauges. */
  const expectNumEndpointsAndSlices = (desired: number, actual: number, numEndpoints: number) => {
    expect(read("endpoint_slice_mirroring_controller_desired_endpoint_slices")).toBe(desired);
    expect(read("endpoint_slice_mirroring_controller_num_endpoint_slices")).toBe(actual);
    expect(read("endpoint_slice_mirroring_controller_endpoints_desired")).toBe(numEndpoints);
  };

  it.each<[string, () => void, number, number, number]>([
    ["ns1/svc1 inefficient", () => c.updateEndpointPortCache("ns1/svc1", spCacheInefficient), 2, 13, 30],
    ["ns1/svc2 efficient", () => c.updateEndpointPortCache("ns1/svc2", spCacheEfficient), 4, 15, 110],
    ["ns1/svc3 inefficient", () => c.updateEndpointPortCache("ns1/svc3", spCacheInefficient), 6, 28, 140],
    ["ns1/svc1 becomes efficient", () => c.updateEndpointPortCache("ns1/svc1", spCacheEfficient), 6, 17, 190],
    ["ns1/svc3 deleted", () => c.deleteEndpoints("ns1/svc3"), 4, 4, 160],
  ])("%s", (_name, step, desired, actual, numEndpoints) => {
    step();
    expectNumEndpointsAndSlices(desired, actual, numEndpoints);
  });

  it("forgets nothing when Endpoints it never saw are deleted", () => {
    c.deleteEndpoints("ns1/unknown");
    expectNumEndpointsAndSlices(4, 4, 160);
  });
});
