import { describe, expect, it } from "vitest";
import { MetricsRegistry, exponentialBuckets } from "./registry.ts";

describe("MetricsRegistry", () => {
  it("renders counters, gauges and histograms in Prometheus text format", () => {
    const r = new MetricsRegistry();
    const c = r.counter("kube_apiserver_clusterip_allocator_allocation_total", "[ALPHA] Number of Cluster IPs allocations");
    c.inc({ cidr: "10.0.0.0/24", scope: "dynamic" });
    c.inc({ scope: "dynamic", cidr: "10.0.0.0/24" });
    r.gauge("g", "[ALPHA] g").set({ cidr: 'a"b' }, 3);
    r.histogram("h", "[ALPHA] h", [0.1, 1]).observe({ cidr: "x" }, 0.5);
    expect(r.counter("kube_apiserver_clusterip_allocator_allocation_total", "")).toBe(c);
    expect(c.get({ cidr: "10.0.0.0/24", scope: "dynamic" })).toBe(2);
    expect(r.render()).toBe(
      [
        "# HELP kube_apiserver_clusterip_allocator_allocation_total [ALPHA] Number of Cluster IPs allocations",
        "# TYPE kube_apiserver_clusterip_allocator_allocation_total counter",
        'kube_apiserver_clusterip_allocator_allocation_total{cidr="10.0.0.0/24",scope="dynamic"} 2',
        "# HELP g [ALPHA] g",
        "# TYPE g gauge",
        'g{cidr="a\\"b"} 3',
        "# HELP h [ALPHA] h",
        "# TYPE h histogram",
        'h_bucket{cidr="x",le="0.1"} 0',
        'h_bucket{cidr="x",le="1"} 1',
        'h_bucket{cidr="x",le="+Inf"} 1',
        'h_sum{cidr="x"} 0.5',
        'h_count{cidr="x"} 1',
        "",
      ].join("\n"),
    );
  });

  it("renders nothing when empty", () => {
    expect(new MetricsRegistry().render()).toBe("");
  });

  it("spells out infinities and NaN as expfmt does (kube-proxy's renderer did; the apiserver's wrote Infinity)", () => {
    const r = new MetricsRegistry();
    const g = r.gauge("g", "g");
    g.set({ a: "1" }, Infinity);
    g.set({ a: "2" }, -Infinity);
    g.set({ a: "3" }, NaN);
    expect(r.render()).toBe('# HELP g g\n# TYPE g gauge\ng{a="1"} +Inf\ng{a="2"} -Inf\ng{a="3"} NaN\n');
  });

  it("exponentialBuckets", () => {
    expect(exponentialBuckets(0.001, 2, 4)).toEqual([0.001, 0.002, 0.004, 0.008]);
  });

  it("with() hands out the series of one label set, sharing it with inc/observe by labels", () => {
    const r = new MetricsRegistry();
    const c = r.counter("c", "c");
    const child = c.with({ b: "2", a: "1" });
    child.inc();
    child.inc(2);
    c.inc({ a: "1", b: "2" });
    expect(c.get({ a: "1", b: "2" })).toBe(4);
    const h = r.histogram("h", "h", [1]);
    h.with({ x: "y" }).observe(0.5);
    h.observe({ x: "y" }, 2);
    expect(h.count({ x: "y" })).toBe(2);
    expect(r.render()).toContain('h_bucket{x="y",le="1"} 1\n');
  });
});
