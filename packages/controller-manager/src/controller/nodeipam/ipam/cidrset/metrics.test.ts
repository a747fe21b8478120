/** Upstream's TestCidrSetMetrics* (pkg/controller/nodeipam/ipam/cidrset/cidr_set_test.go), read from the rendered registry. */
import { describe, expect, it } from "vitest";
import { MetricsRegistry } from "@servicenet/component-base/metrics";
import { parseCIDRSloppy, type CIDR } from "@servicenet/api/net";
import { CidrSet } from "./cidr-set.ts";
import { newCidrSetMetrics } from "./metrics.ts";

const cidr = (s: string): CIDR => {
  const c = parseCIDRSloppy(s);
  if (c === null) throw new Error(`bad test CIDR ${s}`);
  return c;
};

interface TestMetrics {
  usage: number;
  allocs: number;
  releases: number;
  allocTries: number;
  max: number;
}

/**
 * upstream `expectMetrics`: the series of `label` as /metrics shows them (allocTries is the
 * histogram's sum); a series not written yet reads 0, as upstream's `WithLabelValues` makes it.
 */
function metricsOf(registry: MetricsRegistry, label: string): TestMetrics {
  const text = registry.render();
  const value = (name: string): number => {
    const line = text.split("\n").find((l) => l.startsWith(`node_ipam_controller_${name}{clusterCIDR="${label}"} `));
    if (line === undefined) return 0;
    return Number(line.slice(line.lastIndexOf(" ") + 1));
  };
  return {
    usage: value("cidrset_usage_cidrs"),
    allocs: value("cidrset_cidrs_allocations_total"),
    releases: value("cidrset_cidrs_releases_total"),
    allocTries: value("cidrset_allocation_tries_per_request_sum"),
    max: value("cirdset_max_cidrs"),
  };
}

describe("TestCidrSetMetrics", () => {
  it("counts allocations, releases and usage of a /16 cut into /24s", () => {
    const registry = new MetricsRegistry();
    const a = new CidrSet(cidr("10.0.0.0/16"), 24, newCidrSetMetrics(registry));
    const label = "10.0.0.0/16";
    expect(metricsOf(registry, label)).toEqual({ usage: 0, allocs: 0, releases: 0, allocTries: 0, max: 256 });
    for (let i = 1; i <= 256; i++) {
      a.allocateNext();
      expect(metricsOf(registry, label)).toEqual({ usage: i / 256, allocs: i, releases: 0, allocTries: 0, max: 256 });
    }
    a.release(cidr("10.0.0.0/16"));
    expect(metricsOf(registry, label)).toEqual({ usage: 0, allocs: 256, releases: 256, allocTries: 0, max: 256 });
    a.occupy(cidr("10.0.0.0/16"));
    expect(metricsOf(registry, label)).toEqual({ usage: 1, allocs: 512, releases: 256, allocTries: 0, max: 256 });
  });
});

describe("TestCidrSetMetricsHistogram", () => {
  it("observes the blocks tried before a free one", () => {
    const registry = new MetricsRegistry();
    const a = new CidrSet(cidr("10.0.0.0/16"), 24, newCidrSetMetrics(registry));
    const label = "10.0.0.0/16";
    // Occupy does not move the next candidate: the allocation walks over the 128 occupied blocks.
    a.occupy(cidr("10.0.0.0/17"));
    expect(metricsOf(registry, label)).toEqual({ usage: 0.5, allocs: 128, releases: 0, allocTries: 0, max: 256 });
    a.allocateNext();
    expect(metricsOf(registry, label)).toEqual({ usage: 129 / 256, allocs: 129, releases: 0, allocTries: 128, max: 256 });
    // ExponentialBuckets(1, 5, 5): 128 falls in le="625", not in le="125".
    const text = registry.render();
    expect(text).toContain('node_ipam_controller_cidrset_allocation_tries_per_request_bucket{clusterCIDR="10.0.0.0/16",le="125"} 0');
    expect(text).toContain('node_ipam_controller_cidrset_allocation_tries_per_request_bucket{clusterCIDR="10.0.0.0/16",le="625"} 1');
  });
});

describe("TestCidrSetMetricsDual", () => {
  it("keeps one series per cluster CIDR", () => {
    const registry = new MetricsRegistry();
    const metrics = newCidrSetMetrics(registry);
    const a = new CidrSet(cidr("10.0.0.0/16"), 24, metrics);
    const b = new CidrSet(cidr("2001:db8::/48"), 64, metrics);
    a.occupy(cidr("10.0.0.0/16"));
    expect(metricsOf(registry, "10.0.0.0/16")).toEqual({ usage: 1, allocs: 256, releases: 0, allocTries: 0, max: 256 });
    b.occupy(cidr("2001:db8::/48"));
    expect(metricsOf(registry, "2001:db8::/48")).toEqual({ usage: 1, allocs: 65536, releases: 0, allocTries: 0, max: 65536 });
    a.release(cidr("10.0.0.0/16"));
    expect(metricsOf(registry, "10.0.0.0/16")).toEqual({ usage: 0, allocs: 256, releases: 256, allocTries: 0, max: 256 });
    b.release(cidr("2001:db8::/48"));
    expect(metricsOf(registry, "2001:db8::/48")).toEqual({ usage: 0, allocs: 65536, releases: 65536, allocTries: 0, max: 65536 });
  });
});
