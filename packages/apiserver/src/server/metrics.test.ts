import { describe, expect, it } from "vitest";
import { RequestMetrics, type RequestLabels } from "./metrics.ts";

const create: RequestLabels = { verb: "POST", group: "", version: "v1", resource: "services", subresource: "", scope: "namespace" };

describe("RequestMetrics", () => {
  it("counts by code and keeps one histogram per label set (label texts are cached per label set)", () => {
    const m = new RequestMetrics();
    m.observe(create, 201, 0.001);
    m.observe(create, 201, 0.03);
    m.observe(create, 409, 0.002);
    m.observe({ ...create, resource: "endpoints" }, 201, 2);
    const text = m.render();
    // Label names sorted, as client_golang writes them (kube-apiserver's own /metrics).
    const base = 'component="apiserver",group="",resource="services",scope="namespace",subresource="",verb="POST",version="v1"';
    expect(text).toContain(`apiserver_request_total{code="201",${base}} 2\n`);
    expect(text).toContain(`apiserver_request_total{code="409",${base}} 1\n`);
    expect(text).toContain(`apiserver_request_duration_seconds_bucket{${base},le="0.005"} 2\n`);
    expect(text).toContain(`apiserver_request_duration_seconds_bucket{${base},le="0.05"} 3\n`);
    expect(text).toContain(`apiserver_request_duration_seconds_count{${base}} 3\n`);
    expect(text).toContain(
      'apiserver_request_duration_seconds_bucket{component="apiserver",group="",resource="endpoints",scope="namespace",subresource="",verb="POST",version="v1",le="1.5"} 0\n',
    );
    expect(text).toContain(
      'apiserver_request_duration_seconds_bucket{component="apiserver",group="",resource="endpoints",scope="namespace",subresource="",verb="POST",version="v1",le="2"} 1\n',
    );
  });

  it("keeps label sets apart whose values only differ in where a separator would fall", () => {
    const m = new RequestMetrics();
    m.observe({ ...create, group: "a", version: "" }, 200, 0.001);
    m.observe({ ...create, group: "", version: "a" }, 200, 0.001);
    const totals = m
      .render()
      .split("\n")
      .filter((l) => l.startsWith("apiserver_request_total{"));
    expect(totals).toHaveLength(2);
  });

  it("escapes quotes, backslashes and newlines in label values and counts watches without a histogram", () => {
    const m = new RequestMetrics();
    m.observe({ ...create, verb: "WATCH", resource: 'a"b\\c\nd' }, 200, 5);
    const text = m.render();
    expect(text).toContain('resource="a\\"b\\\\c\\nd"');
    expect(text).toContain(
      'apiserver_request_total{code="200",component="apiserver",group="",resource="a\\"b\\\\c\\nd",scope="namespace",subresource="",verb="WATCH",version="v1"} 1',
    );
    expect(text).not.toMatch(/apiserver_request_duration_seconds_count\{[^}]*verb="WATCH"/);
  });
});
