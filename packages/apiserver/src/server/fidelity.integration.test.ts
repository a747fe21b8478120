/** What every client sees: server-side defaulting, validation lists, timestamps and output shape as kube-apiserver 1.33. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { haveKubectl, startTestServer, type TestServer } from "./testing.ts";

const json = { "Content-Type": "application/json" };

describe("server fidelity", () => {
  let s: TestServer;
  const post = async (path: string, body: unknown) => s.request(path, { method: "POST", headers: json, body: JSON.stringify(body) });
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  it('defaults EndpointSlice ports[].name to "" and ports[].protocol to TCP (SetDefaults_EndpointPort)', async () => {
    const r = await post("/apis/discovery.k8s.io/v1/namespaces/default/endpointslices", {
      metadata: { name: "es-defaults" },
      addressType: "IPv4",
      endpoints: [{ addresses: ["10.0.0.1"] }],
      ports: [{ port: 80 }],
    });
    expect(r.status, r.text).toBe(201);
    expect((r.json() as { ports: unknown }).ports).toEqual([{ name: "", protocol: "TCP", port: 80 }]);
  });

  it.skipIf(!haveKubectl())("real kubectl 1.33 describes a Service whose slice has an unnamed port", async () => {
    const svc = await post("/api/v1/namespaces/default/services", {
      metadata: { name: "unnamed" },
      spec: { selector: { app: "u" }, ports: [{ port: 80 }] },
    });
    expect(svc.status, svc.text).toBe(201);
    const es = await post("/apis/discovery.k8s.io/v1/namespaces/default/endpointslices", {
      metadata: { name: "unnamed-abc", labels: { "kubernetes.io/service-name": "unnamed" } },
      addressType: "IPv4",
      endpoints: [{ addresses: ["10.0.0.7"] }],
      ports: [{ port: 8080 }],
    });
    expect(es.status, es.text).toBe(201);
    const r = await s.kubectl(["describe", "svc", "unnamed"]);
    expect(r.stderr).not.toMatch(/panic/);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Endpoints:\s+10\.0\.0\.7:8080/);
  });

  it('a ServiceCIDR update changing a CIDR reports only "field is immutable" (strategy ValidateUpdate)', async () => {
    const base = "/apis/networking.k8s.io/v1/servicecidrs";
    const c = await post(base, { metadata: { name: "immut" }, spec: { cidrs: ["10.120.0.0/24"] } });
    expect(c.status, c.text).toBe(201);
    const obj = c.json() as { spec: { cidrs: string[] } };
    obj.spec.cidrs = ["10.120.0.1/24"];
    const r = await s.request(`${base}/immut`, { method: "PUT", headers: json, body: JSON.stringify(obj) });
    expect(r.status).toBe(422);
    const causes = (r.json() as { details: { causes: { field: string; message: string }[] } }).details.causes;
    expect(causes).toEqual([
      { reason: "FieldValueInvalid", field: "spec.cidrs[0]", message: 'Invalid value: "10.120.0.1/24": field is immutable' },
    ]);
  });

  it("returns a Service's empty status as {loadBalancer: {}}, as Go's encoder does", async () => {
    const c = await post("/api/v1/namespaces/default/services", { metadata: { name: "st-empty" }, spec: { ports: [{ port: 80 }] } });
    expect(c.status, c.text).toBe(201);
    const created = c.json() as { status: unknown; metadata: Record<string, unknown> };
    expect(created.status).toEqual({ loadBalancer: {} });
    const r = await s.request("/api/v1/namespaces/default/services/st-empty/status", {
      method: "PUT",
      headers: json,
      body: JSON.stringify({ ...created, status: {} }),
    });
    expect(r.status, r.text).toBe(200);
    expect((r.json() as { status: unknown }).status).toEqual({ loadBalancer: {} });
  });

  describe("metav1.Time and Condition decoding", () => {
    const base = "/apis/networking.k8s.io/v1/servicecidrs";
    const putStatus = async (conditions: unknown[]) => {
      const cur = (await s.request(`${base}/times`)).json() as Record<string, unknown>;
      return s.request(`${base}/times/status`, { method: "PUT", headers: json, body: JSON.stringify({ ...cur, status: { conditions } }) });
    };
    const cond = { type: "Ready", status: "True", reason: "r", message: "" };
    beforeAll(async () => {
      expect((await post(base, { metadata: { name: "times" }, spec: { cidrs: ["10.121.0.0/24"] } })).status).toBe(201);
    });

    it.each<[string, Record<string, unknown>]>([
      ["absent", cond],
      ["null", { ...cond, lastTransitionTime: null }],
    ])("a %s lastTransitionTime is Go's zero time, returned as null", async (_, c) => {
      const r = await putStatus([c]);
      expect(r.status, r.text).toBe(200);
      expect((r.json() as { status: { conditions: unknown[] } }).status.conditions).toEqual([{ ...cond, lastTransitionTime: null }]);
    });

    it("stores a time with an offset and fraction in UTC, whole seconds", async () => {
      const r = await putStatus([{ ...cond, lastTransitionTime: "2024-07-01T14:34:56.789+02:00" }]);
      expect(r.status, r.text).toBe(200);
      const got = (await s.request(`${base}/times`)).json() as { status: { conditions: { lastTransitionTime: string }[] } };
      expect(got.status.conditions[0]!.lastTransitionTime).toBe("2024-07-01T12:34:56Z");
    });

    it("rejects an unparsable time with Go's decoder message", async () => {
      const r = await putStatus([{ ...cond, lastTransitionTime: "garbage" }]);
      expect(r.status).toBe(400);
      expect((r.json() as { message: string }).message).toBe(
        'ServiceCIDR in version "v1" cannot be handled as a ServiceCIDR: parsing time "garbage" as "2006-01-02T15:04:05Z07:00": cannot parse "garbage" as "2006"',
      );
    });
  });

  it("stores an Event's MicroTime eventTime with microseconds in UTC", async () => {
    const r = await post("/api/v1/namespaces/default/events", {
      metadata: { name: "ev-micro" },
      involvedObject: { kind: "Service", namespace: "default", name: "x" },
      reason: "R",
      eventTime: "2024-07-01T14:34:56.5+02:00",
      reportingComponent: "test",
      reportingInstance: "i",
      action: "A",
      type: "Normal",
    });
    expect(r.status, r.text).toBe(201);
    expect((r.json() as { eventTime: string }).eventTime).toBe("2024-07-01T12:34:56.500000Z");
  });

  describe("v1 Endpoints deprecation warning (apiserver/pkg/endpoints/deprecation)", () => {
    const warning = '299 - "v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice"';
    const ep = { metadata: { name: "dep" }, subsets: [{ addresses: [{ ip: "10.0.0.9" }], ports: [{ port: 80 }] }] };

    it("is sent on create, get, list, update, delete, watch and errors, first among warnings", async () => {
      const base = "/api/v1/namespaces/default/endpoints";
      const created = await post(base, ep);
      expect(created.status, created.text).toBe(201);
      expect(created.headers.get("warning")).toBe(warning);
      expect((await s.request(`${base}/dep`)).headers.get("warning")).toBe(warning);
      expect((await s.request(base)).headers.get("warning")).toBe(warning);
      expect((await s.request("/api/v1/endpoints")).headers.get("warning")).toBe(warning);
      expect((await s.request(`${base}/missing`)).headers.get("warning")).toBe(warning);
      const withUnknown = await s.request(`${base}/dep`, {
        method: "PUT",
        headers: json,
        body: JSON.stringify({ ...(created.json() as object), bogus: 1 }),
      });
      expect(withUnknown.status, withUnknown.text).toBe(200);
      expect(withUnknown.headers.get("warning")).toBe(`${warning}, 299 - "unknown field \\"bogus\\""`);
      const w = await s.request(`${base}?watch=true&timeoutSeconds=1`);
      expect(w.headers.get("warning")).toBe(warning);
      expect((await s.request(`${base}/dep`, { method: "DELETE" })).headers.get("warning")).toBe(warning);
    });

    it("is not sent for EndpointSlices or Services", async () => {
      expect((await s.request("/apis/discovery.k8s.io/v1/namespaces/default/endpointslices")).headers.get("warning")).toBeNull();
      expect((await s.request("/api/v1/namespaces/default/services")).headers.get("warning")).toBeNull();
    });

    it.skipIf(!haveKubectl())("real kubectl 1.33 prints it on get endpoints", async () => {
      const r = await s.kubectl(["get", "endpoints", "-n", "default"]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain("Warning: v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice");
    });
  });
});
