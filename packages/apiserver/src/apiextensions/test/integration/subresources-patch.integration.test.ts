/**
 * Upstream test/integration/subresources_test.go (TestValidateOnlyStatus, TestSubresourcePatch) over
 * HTTP, for both versions of NewNoxuSubresourcesCRDs: a write to `/status` validates the status only,
 * and merge patches of `/status` and `/scale` touch their own part, keep the resourceVersion when
 * nothing changes, and a strategic merge patch of a custom resource is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../server/testing.ts";
import { allowAllSchema, createCRD, json, noxuSubresourcesCRD } from "./fixtures-testing.ts";

const ns = "not-the-default";
const merge = { "Content-Type": "application/merge-patch+json" };
const strategic = { "Content-Type": "application/strategic-merge-patch+json" };

interface Obj {
  metadata: { resourceVersion: string };
  spec: { num?: number; replicas?: number };
  status?: { num?: number; replicas?: number };
}

/** Upstream's schema of TestValidateOnlyStatus: .spec.num and .status.num at most 10. */
const maxTen = {
  type: "object",
  properties: {
    spec: { type: "object", properties: { num: { type: "integer", maximum: 10 } } },
    status: { type: "object", properties: { num: { type: "integer", maximum: 10 } } },
  },
};

/** NewNoxuSubresourceInstance, plus `status` when given. */
function instance(version: string, status: Record<string, unknown> = { replicas: 7 }): Record<string, unknown> {
  return {
    apiVersion: `mygroup.example.com/${version}`,
    kind: "WishIHadChosenNoxu",
    metadata: { namespace: ns, name: "foo" },
    spec: { num: 10, replicas: 3 },
    status,
  };
}

const versions = ["v1beta1", "v1"];

async function start(schema: Record<string, unknown>): Promise<TestServer> {
  const s = await startTestServer();
  const r = await s.request("/api/v1/namespaces", { method: "POST", headers: json, body: JSON.stringify({ metadata: { name: ns } }) });
  expect(r.status, r.text).toBe(201);
  await createCRD(s, noxuSubresourcesCRD(schema));
  return s;
}

async function createFoo(s: TestServer, version: string, status?: Record<string, unknown>): Promise<Obj> {
  const r = await s.request(`/apis/mygroup.example.com/${version}/namespaces/${ns}/noxus`, {
    method: "POST",
    headers: json,
    body: JSON.stringify(instance(version, status)),
  });
  expect(r.status, r.text).toBe(201);
  return r.json() as Obj;
}

describe("apiextensions subresources_test TestValidateOnlyStatus", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await start(maxTen);
  });
  afterAll(async () => {
    await s?.close();
  });

  it.each(versions)("%s: an UpdateStatus validates .status only", async (v) => {
    const path = `/apis/mygroup.example.com/${v}/namespaces/${ns}/noxus/foo`;
    const created = await createFoo(s, v, { num: 10 });
    // .spec.num = 15 breaks the spec's maximum, but a status write ignores (and validates) no spec.
    const specOnly = await s.request(`${path}/status`, {
      method: "PUT",
      headers: json,
      body: JSON.stringify({ ...created, spec: { ...created.spec, num: 15 } }),
    });
    expect(specOnly.status, specOnly.text).toBe(200);
    const updated = specOnly.json() as Obj;
    expect(updated.spec.num).toBe(10);
    const bad = await s.request(`${path}/status`, {
      method: "PUT",
      headers: json,
      body: JSON.stringify({ ...updated, status: { num: 15 } }),
    });
    expect(bad.status, bad.text).toBe(422);
    expect((bad.json() as { message: string }).message).toBe(
      'WishIHadChosenNoxu.mygroup.example.com "foo" is invalid: status.num: Invalid value: 15: status.num in body should be less than or equal to 10',
    );
    expect((await s.request(path, { method: "DELETE" })).status).toBe(200);
  });
});

describe("apiextensions subresources_test TestSubresourcePatch", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await start(allowAllSchema);
  });
  afterAll(async () => {
    await s?.close();
  });

  const patch = async (path: string, body: string, headers = merge): Promise<Obj> => {
    const r = await s.request(path, { method: "PATCH", headers, body });
    expect(r.status, r.text).toBe(200);
    return r.json() as Obj;
  };

  it.each(versions)("%s: merge patches of /status and /scale", async (v) => {
    const path = `/apis/mygroup.example.com/${v}/namespaces/${ns}/noxus/foo`;
    await createFoo(s, v);
    const statusPatch = `{"spec": {"num":999}, "status": {"num":999}}`;
    let got = await patch(`${path}/status`, statusPatch);
    expect(got.status?.num).toBe(999);
    expect(got.spec.num).toBe(10);
    let rv = got.metadata.resourceVersion;
    // A no-op patch and an empty patch leave the resourceVersion.
    for (const body of [statusPatch, "{}"]) {
      got = await patch(`${path}/status`, body);
      expect([got.status?.num, got.spec.num, got.metadata.resourceVersion]).toEqual([999, 10, rv]);
    }

    // The create dropped .status (the status subresource), so .status.replicas reads as 0.
    const scalePatch = `{"spec": {"replicas":7}, "status": {"replicas":7}}`;
    got = (await s.request(`${path}/scale`, { method: "PATCH", headers: merge, body: scalePatch })).json() as Obj;
    const cr = (await s.request(path)).json() as Obj;
    expect(cr.spec.replicas).toBe(7);
    expect(cr.status?.replicas ?? 0).toBe(0);
    rv = cr.metadata.resourceVersion;
    const scale = (await s.request(`${path}/scale`)).json() as { spec: { replicas: number }; status: { replicas: number } };
    expect([scale.spec.replicas, scale.status.replicas]).toEqual([7, 0]);
    for (const body of [scalePatch, "{}"]) {
      const r = await s.request(`${path}/scale`, { method: "PATCH", headers: merge, body });
      expect(r.status, r.text).toBe(200);
      expect((await s.request(path)).json()).toMatchObject({ metadata: { resourceVersion: rv }, spec: { replicas: 7 } });
    }

    // crdHandler serves JSON, merge and apply patches only, on the resource and its subresources.
    for (const sub of ["", "/status", "/scale"]) {
      const r = await s.request(`${path}${sub}`, { method: "PATCH", headers: strategic, body: scalePatch });
      expect(r.status, r.text).toBe(415);
      expect((r.json() as { message: string }).message).toBe(
        "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml",
      );
    }
    expect((await s.request(path, { method: "DELETE" })).status).toBe(200);
  });
});
