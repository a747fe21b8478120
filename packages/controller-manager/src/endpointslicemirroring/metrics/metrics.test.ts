/**
 * The mirroring controller's metrics as a scraper sees them after syncs: upstream's
 * reconciler.reconcile (per-sync histograms, the cache), finalize (changes), syncEndpoints
 * (the duration) and deleteEndpoints (the cache forgets the Endpoints).
 */
import { describe, expect, it } from "vitest";
import type { EndpointAddress, Endpoints } from "@servicenet/api";
import { FakeClock } from "@servicenet/component-base/clock";
import { mirroringController } from "../../testing/mirroring.ts";

const s = "endpoint_slice_mirroring_controller";

function testEp(addresses: EndpointAddress[], notReadyAddresses: EndpointAddress[] = []): Endpoints {
  return {
    metadata: { name: "test-ep", namespace: "test", uid: "ep-uid" },
    subsets: [{ ports: [{ name: "http", port: 80, protocol: "TCP" }], addresses, notReadyAddresses }],
  };
}

describe("EndpointSlice mirroring controller metrics", () => {
  it("counts endpoints added, updated and removed per sync, and the totals until the Endpoints go away", async () => {
    const { c, endpoints, slices, read } = mirroringController({
      endpoints: testEp([{ ip: "10.0.0.1" }, { ip: "10.0.0.2" }, { ip: "10.0.0.3" }]),
    });
    await c.syncEndpoints("test/test-ep");
    expect(read(`${s}_endpoints_added_per_sync_sum`)).toBe(3);
    expect(read(`${s}_endpoints_desired`)).toBe(3);
    expect(read(`${s}_num_endpoint_slices`)).toBe(1);
    expect(read(`${s}_desired_endpoint_slices`)).toBe(1);
    expect(read(`${s}_changes{operation="create"}`)).toBe(1);

    // 10.0.0.1 becomes not ready (updated), 10.0.0.3 goes (removed), 10.0.0.4 comes (added).
    endpoints.set(testEp([{ ip: "10.0.0.2" }, { ip: "10.0.0.4" }], [{ ip: "10.0.0.1" }]));
    await c.syncEndpoints("test/test-ep");
    expect(read(`${s}_endpoints_added_per_sync_sum`)).toBe(4);
    expect(read(`${s}_endpoints_updated_per_sync_sum`)).toBe(1);
    expect(read(`${s}_endpoints_removed_per_sync_sum`)).toBe(1);
    expect(read(`${s}_endpoints_added_per_sync_count`)).toBe(2);
    expect(read(`${s}_changes{operation="update"}`)).toBe(1);
    expect(read(`${s}_endpoints_desired`)).toBe(3);

    endpoints.remove("test/test-ep");
    await c.syncEndpoints("test/test-ep");
    expect(slices.list()).toEqual([]);
    expect(read(`${s}_endpoints_desired`)).toBe(0);
    expect(read(`${s}_num_endpoint_slices`)).toBe(0);
    expect(read(`${s}_desired_endpoint_slices`)).toBe(0);
    // upstream's deleteEndpoints deletes without counting changes, and reconciles nothing.
    expect(read(`${s}_changes{operation="delete"}`)).toBeUndefined();
    expect(read(`${s}_endpoints_added_per_sync_count`)).toBe(2);
    expect(read(`${s}_endpoints_sync_duration_count`)).toBe(3);
  });

  it("counts the addresses skipped for being no IP or beyond maxEndpointsPerSubset", async () => {
    const { c, read } = mirroringController({
      endpoints: testEp([{ ip: "10.0.0.1" }, { ip: "not-an-ip" }, { ip: "10.0.0.2" }, { ip: "10.0.0.3" }]),
      maxEndpointsPerSubset: 2,
    });
    await c.syncEndpoints("test/test-ep");
    expect(read(`${s}_addresses_skipped_per_sync_sum`)).toBe(2);
    expect(read(`${s}_endpoints_desired`)).toBe(2);
  });

  it("reports skipped addresses as upstream's Warning events on the Endpoints", async () => {
    // RepackSubsets sorts the addresses first: "1.2.3" (no IP) comes before the 10.0.0.x ones.
    const { c, recorder } = mirroringController({
      endpoints: testEp([{ ip: "10.0.0.1" }, { ip: "1.2.3" }, { ip: "10.0.0.2" }, { ip: "10.0.0.3" }]),
      maxEndpointsPerSubset: 2,
    });
    await c.syncEndpoints("test/test-ep");
    expect(recorder.events).toEqual([
      "Warning InvalidIPAddress Skipped 1 invalid IP addresses when mirroring to EndpointSlices",
      "Warning TooManyAddressesToMirror A max of 2 addresses can be mirrored to EndpointSlices per Endpoints subset. 2 addresses were skipped",
    ]);
  });

  it("observes syncEndpoints' duration in whole milliseconds, as seconds", async () => {
    const clock = new FakeClock(0);
    const { c, read } = mirroringController({ endpoints: testEp([{ ip: "10.0.0.1" }]), clock, onWrite: () => clock.step(250.9) });
    await c.syncEndpoints("test/test-ep");
    expect(read(`${s}_endpoints_sync_duration_sum`)).toBe(0.25);
    expect(read(`${s}_endpoints_sync_duration_bucket{le="0.256"}`)).toBe(1);
    expect(read(`${s}_endpoints_sync_duration_bucket{le="0.128"}`)).toBe(0);
  });
});
