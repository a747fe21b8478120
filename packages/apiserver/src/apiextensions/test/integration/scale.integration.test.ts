/**
 * Upstream test/integration/subresources_test.go (TestScaleSubresource,
 * TestValidationSchemaWithStatus' scale cases, TestSubresourcesDiscovery) over HTTP, and `kubectl scale` of a custom
 * resource: the autoscaling/v1 Scale reads the CRD's replica and selector paths, and writes
 * spec.replicas back.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { haveKubectl, startTestServer, type TestServer } from "../../../server/testing.ts";
import { createCRD, json, noxuCRD } from "./fixtures-testing.ts";

const base = "/apis/mygroup.example.com/v1/namespaces/default/noxus";
const merge = { "Content-Type": "application/merge-patch+json" };

function crdWithScale(): Record<string, unknown> {
  const c = noxuCRD("Namespaced");
  (c["spec"] as { versions: unknown[] }).versions = [
    {
      name: "v1",
      served: true,
      storage: true,
      schema: { openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true } },
      subresources: {
        status: {},
        scale: { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas", labelSelectorPath: ".status.labelSelector" },
      },
    },
  ];
  return c;
}

interface Scale {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace: string; resourceVersion: string; uid: string };
  spec: { replicas?: number };
  status: { replicas: number; selector?: string };
}

describe("apiextensions subresources_test (scale)", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    await createCRD(s, crdWithScale());
    const r = await s.request(base, {
      method: "POST",
      headers: json,
      body: JSON.stringify({
        apiVersion: "mygroup.example.com/v1",
        kind: "WishIHadChosenNoxu",
        metadata: { name: "foo" },
        spec: { replicas: 3 },
      }),
    });
    expect(r.status, r.text).toBe(201);
    const st = await s.request(`${base}/foo/status`, {
      method: "PATCH",
      headers: merge,
      body: JSON.stringify({ status: { replicas: 2, labelSelector: "app=foo" } }),
    });
    expect(st.status, st.text).toBe(200);
  });
  afterAll(async () => {
    await s?.close();
  });

  it("TestScaleSubresource: GET /scale reads the paths as an autoscaling/v1 Scale", async () => {
    const r = await s.request(`${base}/foo/scale`);
    expect(r.status, r.text).toBe(200);
    const scale = r.json() as Scale;
    expect(scale.kind).toBe("Scale");
    expect(scale.apiVersion).toBe("autoscaling/v1");
    expect(scale.metadata.name).toBe("foo");
    expect(scale.metadata.namespace).toBe("default");
    expect(scale.spec).toEqual({ replicas: 3 });
    expect(scale.status).toEqual({ replicas: 2, selector: "app=foo" });
  });

  it("TestScaleSubresource: PUT /scale writes spec.replicas; a stale resourceVersion conflicts", async () => {
    const scale = (await s.request(`${base}/foo/scale`)).json() as Scale;
    const put = await s.request(`${base}/foo/scale`, {
      method: "PUT",
      headers: json,
      body: JSON.stringify({ ...scale, spec: { replicas: 5 } }),
    });
    expect(put.status, put.text).toBe(200);
    expect((put.json() as Scale).spec.replicas).toBe(5);
    const cr = (await s.request(`${base}/foo`)).json() as { spec: { replicas: number }; metadata: { generation: number } };
    expect(cr.spec.replicas).toBe(5);
    expect(cr.metadata.generation).toBe(2);
    const stale = await s.request(`${base}/foo/scale`, {
      method: "PUT",
      headers: json,
      body: JSON.stringify({ ...scale, spec: { replicas: 6 } }),
    });
    expect(stale.status, stale.text).toBe(409);
  });

  it("a negative replica count is the custom resource's 422 (ValidateScaleSpec)", async () => {
    const r = await s.request(`${base}/foo/scale`, { method: "PATCH", headers: merge, body: JSON.stringify({ spec: { replicas: -1 } }) });
    expect(r.status, r.text).toBe(422);
    expect((r.json() as { message: string }).message).toBe(
      'WishIHadChosenNoxu.mygroup.example.com "foo" is invalid: .spec.replicas: Invalid value: -1: should be a non-negative integer',
    );
  });

  it("a custom resource whose replicas path holds a string is refused (ValidateScaleSpec)", async () => {
    const r = await s.request(`${base}/foo`, { method: "PATCH", headers: merge, body: JSON.stringify({ spec: { replicas: "many" } }) });
    expect(r.status, r.text).toBe(422);
    expect((r.json() as { message: string }).message).toContain(
      ".spec.replicas: Invalid value: 0: .spec.replicas accessor error: many is of the type string, expected int64",
    );
  });

  it.runIf(haveKubectl())("kubectl scale sets the replicas through the scale subresource", async () => {
    const out = await s.kubectl(["scale", "-n", "default", "noxus/foo", "--replicas=7"]);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout.trim()).toBe("wishihadchosennoxu.mygroup.example.com/foo scaled");
    const cr = (await s.request(`${base}/foo`)).json() as { spec: { replicas: number } };
    expect(cr.spec.replicas).toBe(7);
  });

  it("TestSubresourcesDiscovery: noxus, noxus/status and noxus/scale (an autoscaling/v1 Scale), get, patch and update", async () => {
    const { resources } = (await s.request("/apis/mygroup.example.com/v1")).json() as {
      resources: { name: string; namespaced: boolean; kind: string; group?: string; version?: string; verbs: string[] }[];
    };
    expect(resources.map((r) => r.name)).toEqual(["noxus", "noxus/status", "noxus/scale"]);
    const [, status, scale] = resources;
    expect(status).toMatchObject({ name: "noxus/status", namespaced: true, kind: "WishIHadChosenNoxu" });
    expect(scale).toMatchObject({ name: "noxus/scale", namespaced: true, kind: "Scale", group: "autoscaling", version: "v1" });
    for (const r of [status!, scale!]) expect([...r.verbs].sort()).toEqual(["get", "patch", "update"]);
  });
});
