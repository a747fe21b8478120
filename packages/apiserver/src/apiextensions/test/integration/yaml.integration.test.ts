/**
 * Upstream test/integration/yaml_test.go (TestYAML, TestYAMLSubresource) over HTTP: custom
 * resources read and written as `application/yaml` (discovery, errors, create, get, list, update,
 * delete, the status and scale subresources); a YAML watch is 406 and a YAML patch 415.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { startTestServer, type TestServer } from "../../../server/testing.ts";
import { createCRD, deleteCRD, noxuCRD, noxuSubresourcesCRD } from "./fixtures-testing.ts";

const yaml = { Accept: "application/yaml", "Content-Type": "application/yaml" };
const apiVersion = "mygroup.example.com/v1beta1";
const kind = "WishIHadChosenNoxu";
const base = "/apis/mygroup.example.com/v1beta1/noxus";

type Obj = Record<string, unknown> & { apiVersion: string; kind: string; metadata: { name: string; uid: string; resourceVersion: string } };

/** decodeYAML: the body must be YAML, not JSON. */
function decodeYAML(text: string): Obj {
  expect(() => JSON.parse(text) as unknown, `data is JSON, not YAML: ${text}`).toThrow();
  return parse(text) as Obj;
}

describe("apiextensions yaml_test", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  it("TestYAML", async () => {
    await createCRD(s, noxuCRD("Cluster"));

    const discovery = await s.request("/apis/mygroup.example.com/v1beta1", { headers: { Accept: "application/yaml" } });
    expect(discovery.status).toBe(200);
    expect(decodeYAML(discovery.text)).toMatchObject({ apiVersion: "v1", kind: "APIResourceList", groupVersion: apiVersion });

    const missing = await s.request(`${base}/missingname`, { headers: { Accept: "application/yaml" } });
    expect(missing.status).toBe(404);
    expect(decodeYAML(missing.text)).toMatchObject({ apiVersion: "v1", kind: "Status", reason: "NotFound" });

    const values = (n: number, b: boolean): string => `values:\n  numVal: ${n}\n  boolVal: ${b}\n  stringVal: "${n}"`;
    const created = await s.request(base, {
      method: "POST",
      headers: yaml,
      body: `\napiVersion: ${apiVersion}\nkind: ${kind}\nmetadata:\n  name: mytest\n${values(1, true)}`,
    });
    expect(created.status, created.text).toBe(201);
    const obj = decodeYAML(created.text);
    const want = { apiVersion, kind, metadata: { name: "mytest" }, values: { numVal: 1, boolVal: true, stringVal: "1" } };
    expect(obj).toMatchObject(want);

    const got = await s.request(`${base}/mytest`, { headers: { Accept: "application/yaml" } });
    expect(got.status).toBe(200);
    expect(decodeYAML(got.text)).toMatchObject(want);

    const list = await s.request(base, { headers: { Accept: "application/yaml" } });
    expect(list.status).toBe(200);
    const listObj = decodeYAML(list.text) as Obj & { items: unknown[] };
    expect(listObj).toMatchObject({ apiVersion, kind: "NoxuItemList" });
    expect(listObj.items).toHaveLength(1);
    expect(listObj.items[0]).toMatchObject(want);

    // Watch rejects yaml (no streaming support).
    const watch = await s.request(`${base}?watch=true`, { headers: { Accept: "application/yaml" } });
    expect(watch.status).toBe(406);
    expect(decodeYAML(watch.text)).toMatchObject({ apiVersion: "v1", kind: "Status", reason: "NotAcceptable", code: 406 });

    const updated = await s.request(`${base}/mytest`, {
      method: "PUT",
      headers: yaml,
      body: `\napiVersion: ${apiVersion}\nkind: ${kind}\nmetadata:\n  name: mytest\n  uid: ${obj.metadata.uid}\n  resourceVersion: "${obj.metadata.resourceVersion}"\n${values(2, false)}`,
    });
    expect(updated.status, updated.text).toBe(200);
    const u = decodeYAML(updated.text);
    expect(u).toMatchObject({ ...want, values: { numVal: 2, boolVal: false, stringVal: "2" } });
    expect(u.metadata.uid).toBe(obj.metadata.uid);

    // Patch rejects yaml requests (only JSON mime types are allowed).
    const patch = await s.request(`${base}/mytest`, { method: "PATCH", headers: yaml, body: "\nvalues:\n  numVal: 3" });
    expect(patch.status).toBe(415);
    expect(decodeYAML(patch.text)).toMatchObject({ apiVersion: "v1", kind: "Status", reason: "UnsupportedMediaType" });

    const del = await s.request(`${base}/mytest`, { method: "DELETE", headers: { Accept: "application/yaml" } });
    expect(del.status, del.text).toBe(200);
    expect(decodeYAML(del.text)).toMatchObject({ apiVersion: "v1", kind: "Status", status: "Success" });
  });

  it("TestYAMLSubresource", async () => {
    await deleteCRD(s, "noxus.mygroup.example.com");
    const crd = noxuSubresourcesCRD();
    (crd["spec"] as Record<string, unknown>)["scope"] = "Cluster";
    await createCRD(s, crd);

    const created = await s.request(base, {
      method: "POST",
      headers: yaml,
      body: `\napiVersion: ${apiVersion}\nkind: ${kind}\nmetadata:\n  name: mytest\nspec:\n  replicas: 3`,
    });
    expect(created.status, created.text).toBe(201);
    const obj = decodeYAML(created.text);
    expect(obj).toMatchObject({ apiVersion, kind, metadata: { name: "mytest" }, spec: { replicas: 3 } });

    const status = await s.request(`${base}/mytest/status`, { headers: { Accept: "application/yaml" } });
    expect(status.status).toBe(200);
    expect(decodeYAML(status.text)).toMatchObject({ apiVersion, kind, metadata: { name: "mytest" }, spec: { replicas: 3 } });

    const updated = await s.request(`${base}/mytest/status`, {
      method: "PUT",
      headers: yaml,
      body: `\napiVersion: ${apiVersion}\nkind: ${kind}\nmetadata:\n  name: mytest\n  uid: ${obj.metadata.uid}\n  resourceVersion: "${obj.metadata.resourceVersion}"\nspec:\n  replicas: 5\nstatus:\n  replicas: 3`,
    });
    expect(updated.status, updated.text).toBe(200);
    const u = decodeYAML(updated.text);
    // The status subresource ignores the spec.
    expect(u).toMatchObject({
      apiVersion,
      kind,
      metadata: { name: "mytest", uid: obj.metadata.uid },
      spec: { replicas: 3 },
      status: { replicas: 3 },
    });

    const scale = await s.request(`${base}/mytest/scale`, { headers: { Accept: "application/yaml" } });
    expect(scale.status).toBe(200);
    expect(decodeYAML(scale.text)).toMatchObject({
      apiVersion: "autoscaling/v1",
      kind: "Scale",
      metadata: { name: "mytest" },
      spec: { replicas: 3 },
      status: { replicas: 3 },
    });
  });
});
