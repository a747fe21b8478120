/**
 * Upstream test/integration/validation_test.go (TestCustomResourceValidation,
 * TestCustomResourceValidationErrors, TestCustomResourceUpdateValidation) and
 * ratcheting_test.go over HTTP: custom objects are validated against their version's schema on
 * create, update, patch and the status subresource, with kube-openapi's messages in field errors.
 */
import { eventually } from "@servicenet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../server/testing.ts";
import { createCRD, json, noxuCRD } from "./fixtures-testing.ts";

const base = "/apis/mygroup.example.com/v1beta1/namespaces/default/noxus";

const schema = {
  type: "object",
  properties: {
    spec: {
      type: "object",
      required: ["alpha", "beta"],
      properties: {
        alpha: { type: "string", pattern: "^[a-zA-Z0-9_]*$" },
        beta: { type: "number", minimum: 10 },
        gamma: { type: "string", enum: ["foo", "bar", "baz"] },
        delta: {
          "x-kubernetes-int-or-string": true,
          anyOf: [
            { type: "integer", minimum: 0 },
            { type: "string", maxLength: 5 },
          ],
        },
        replicas: { type: "integer", maximum: 10, exclusiveMaximum: true },
        list: { type: "array", maxItems: 2, items: { type: "string" }, "x-kubernetes-list-type": "set" },
        ports: {
          type: "array",
          "x-kubernetes-list-type": "map",
          "x-kubernetes-list-map-keys": ["port"],
          items: { type: "object", required: ["port"], properties: { port: { type: "integer" }, name: { type: "string" } } },
        },
        labels: { type: "object", maxProperties: 1, additionalProperties: { type: "string" } },
        id: { type: "string", format: "uuid" },
        name: { type: "string", minLength: 2, maxLength: 4 },
        template: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true },
      },
    },
    status: { type: "object", properties: { count: { type: "integer", minimum: 0 } } },
  },
};

function noxuValidationCRD(): Record<string, unknown> {
  const c = noxuCRD("Namespaced");
  (c["spec"] as { versions: unknown[] }).versions = [
    { name: "v1beta1", served: true, storage: true, schema: { openAPIV3Schema: schema }, subresources: { status: {} } },
  ];
  return c;
}

const validSpec = { alpha: "foo_123", beta: 10, gamma: "bar", delta: "hello" };

function instance(name: string, spec: Record<string, unknown>): string {
  return JSON.stringify({ apiVersion: "mygroup.example.com/v1beta1", kind: "WishIHadChosenNoxu", metadata: { name }, spec });
}

interface Status {
  code: number;
  reason: string;
  message: string;
  details: { causes: { reason: string; field: string; message: string }[] };
}

describe("apiextensions validation_test", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    await createCRD(s, noxuValidationCRD());
  });
  afterAll(async () => {
    await s?.close();
  });

  it("TestCustomResourceValidation: a valid instance is created", async () => {
    const r = await s.request(base, { method: "POST", headers: json, body: instance("valid", validSpec) });
    expect(r.status, r.text).toBe(201);
  });

  it.each([
    ["bad alpha", { alpha: "foo_123!" }, `spec.alpha: Invalid value: "foo_123!": spec.alpha in body should match '^[a-zA-Z0-9_]*$'`],
    ["bad beta", { beta: 5 }, "spec.beta: Invalid value: 5: spec.beta in body should be greater than or equal to 10"],
    ["bad gamma", { gamma: "qux" }, 'spec.gamma: Unsupported value: "qux": supported values: "foo", "bar", "baz"'],
    ["bad delta", { delta: "foobarbaz" }, "spec.delta: Too long: may not be more than 5 bytes"],
    ["bad delta (anyOf)", { delta: "foobarbaz" }, '<nil>: Invalid value: "": "spec.delta" must validate at least one schema (anyOf)'],
    [
      "string for an integer",
      { replicas: "three" },
      'spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"',
    ],
    [
      "fraction for an integer",
      { replicas: 1.5 },
      'spec.replicas: Invalid value: "number": spec.replicas in body must be of type integer: "number"',
    ],
    [
      "object for int-or-string",
      { delta: {} },
      'spec.delta: Invalid value: "object": spec.delta in body must be of type integer,string: "object"',
    ],
    ["exclusive maximum", { replicas: 10 }, "spec.replicas: Invalid value: 10: spec.replicas in body should be less than 10"],
    ["too short", { name: "a" }, 'spec.name: Invalid value: "a": spec.name in body should be at least 2 chars long'],
    ["too long", { name: "abcde" }, "spec.name: Too long: may not be more than 4 bytes"],
    ["too many items", { list: ["a", "b", "c"] }, "spec.list: Too many: 3: must have at most 2 items"],
    ["set duplicates", { list: ["a", "a"] }, 'spec.list[1]: Duplicate value: "a"'],
    [
      "map duplicates",
      { ports: [{ port: 80 }, { port: 80, name: "x" }] },
      'spec.ports[1]: Duplicate value: map[string]interface {}{"port":80}',
    ],
    ["required in items", { ports: [{ name: "x" }] }, "spec.ports[0].port: Required value"],
    ["too many properties", { labels: { a: "1", b: "2" } }, "spec.labels: Too many: 2: must have at most 1 item"],
    [
      "additionalProperties type",
      { labels: { a: 1 } },
      'spec.labels.a: Invalid value: "integer": spec.labels.a in body must be of type string: "integer"',
    ],
    ["format", { id: "nope" }, 'spec.id: Invalid value: "nope": spec.id in body must be of type uuid: "nope"'],
    ["embedded resource without kind", { template: { apiVersion: "v1" } }, "spec.template.kind: Required value"],
    [
      "embedded resource with a bad name",
      { template: { apiVersion: "v1", kind: "Pod", metadata: { name: "a/b" } } },
      "spec.template.metadata.name: Invalid value: \"a/b\": may not contain '/'",
    ],
  ])("TestCustomResourceValidationErrors %s: 422 with %s", async (_name, change, want) => {
    const r = await s.request(base, { method: "POST", headers: json, body: instance("bad", { ...validSpec, ...change }) });
    expect(r.status, r.text).toBe(422);
    const st = r.json() as Status;
    expect(st.reason).toBe("Invalid");
    expect(st.message).toContain('WishIHadChosenNoxu.mygroup.example.com "bad" is invalid: ');
    expect(st.message).toContain(want);
    expect((await s.request(`${base}/bad`)).status).toBe(404);
  });

  it("absent alpha and beta: Required value for each, with causes", async () => {
    const r = await s.request(base, { method: "POST", headers: json, body: instance("bad", { gamma: "bar" }) });
    expect(r.status, r.text).toBe(422);
    const st = r.json() as Status;
    expect(st.message).toBe(
      'WishIHadChosenNoxu.mygroup.example.com "bad" is invalid: [spec.alpha: Required value, spec.beta: Required value]',
    );
    expect(st.details.causes).toEqual([
      { reason: "FieldValueRequired", message: "Required value", field: "spec.alpha" },
      { reason: "FieldValueRequired", message: "Required value", field: "spec.beta" },
    ]);
  });

  it("TestCustomResourceUpdateValidation: update, merge patch and status are validated; nothing is stored", async () => {
    const created = await s.request(base, { method: "POST", headers: json, body: instance("upd", validSpec) });
    expect(created.status, created.text).toBe(201);
    const obj = created.json() as { metadata: Record<string, unknown>; spec: Record<string, unknown> };
    const put = await s.request(`${base}/upd`, { method: "PUT", headers: json, body: JSON.stringify({ ...obj, spec: { gamma: "bar" } }) });
    expect(put.status, put.text).toBe(422);
    expect((put.json() as Status).message).toContain("spec.alpha: Required value");
    const patch = await s.request(`${base}/upd`, {
      method: "PATCH",
      headers: { "Content-Type": "application/merge-patch+json" },
      body: JSON.stringify({ spec: { beta: 1 } }),
    });
    expect(patch.status, patch.text).toBe(422);
    expect((patch.json() as Status).message).toContain(
      "spec.beta: Invalid value: 1: spec.beta in body should be greater than or equal to 10",
    );
    const status = await s.request(`${base}/upd/status`, {
      method: "PATCH",
      headers: { "Content-Type": "application/merge-patch+json" },
      body: JSON.stringify({ status: { count: -1 } }),
    });
    expect(status.status, status.text).toBe(422);
    expect((status.json() as Status).message).toContain(
      "status.count: Invalid value: -1: status.count in body should be greater than or equal to 0",
    );
    const got = (await s.request(`${base}/upd`)).json() as { spec: unknown; status?: unknown; metadata: { resourceVersion: string } };
    expect(got.spec).toEqual(validSpec);
    expect(got.status).toBeUndefined();
    expect(got.metadata.resourceVersion).toBe(obj.metadata["resourceVersion"]);
  });

  it("ratcheting_test: an update keeps a value the tightened schema rejects only while it is unchanged", async () => {
    const created = await s.request(base, {
      method: "POST",
      headers: json,
      body: instance("ratchet", { ...validSpec, alpha: "longvalue" }),
    });
    expect(created.status, created.text).toBe(201);
    const tightened = structuredClone(schema);
    (tightened.properties.spec.properties.alpha as Record<string, unknown>)["maxLength"] = 3;
    const crd = await s.request("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/noxus.mygroup.example.com", {
      method: "PATCH",
      headers: { "Content-Type": "application/merge-patch+json" },
      body: JSON.stringify({
        spec: {
          versions: [
            { name: "v1beta1", served: true, storage: true, schema: { openAPIV3Schema: tightened }, subresources: { status: {} } },
          ],
        },
      }),
    });
    expect(crd.status, crd.text).toBe(200);
    await eventually(async () => {
      const r = await s.request(`${base}?dryRun=All`, {
        method: "POST",
        headers: json,
        body: instance("tight", { ...validSpec, alpha: "longvalue" }),
      });
      expect(r.status, r.text).toBe(422);
      expect((r.json() as Status).message).toContain("spec.alpha: Too long: may not be more than 3 bytes");
      return true;
    });
    const patch = (spec: Record<string, unknown>) =>
      s.request(`${base}/ratchet`, {
        method: "PATCH",
        headers: { "Content-Type": "application/merge-patch+json" },
        body: JSON.stringify({ spec }),
      });
    const unchanged = await patch({ beta: 20 });
    expect(unchanged.status, unchanged.text).toBe(200);
    const changed = await patch({ alpha: "otherlong" });
    expect(changed.status, changed.text).toBe(422);
    expect((changed.json() as Status).message).toContain("spec.alpha: Too long: may not be more than 3 bytes");
  });
});
