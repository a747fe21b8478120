/**
 * Upstream test/integration/pruning_test.go (TestPruningCreate, TestPruningStatus,
 * TestPruningFromStorage) and the custom-resource cases of test/integration/apiserver/
 * field_validation_test.go (PostCRD, PatchCRD) over HTTP: unknown fields are pruned, kept under
 * `x-kubernetes-preserve-unknown-fields`, and reported as fieldValidation asks.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../server/testing.ts";
import { createCRD, json, noxuCRD } from "./fixtures-testing.ts";

const base = "/apis/mygroup.example.com/v1beta1/namespaces/default/noxus";

const schema = {
  type: "object",
  properties: {
    spec: {
      type: "object",
      properties: {
        knownField1: { type: "string" },
        ports: {
          type: "array",
          "x-kubernetes-list-type": "map",
          "x-kubernetes-list-map-keys": ["containerPort", "protocol"],
          items: {
            type: "object",
            required: ["containerPort", "protocol"],
            properties: {
              containerPort: { type: "integer" },
              hostPort: { type: "integer" },
              name: { type: "string" },
              protocol: { type: "string" },
            },
          },
        },
        embeddedObj: {
          type: "object",
          "x-kubernetes-embedded-resource": true,
          properties: { apiVersion: { type: "string" }, kind: { type: "string" }, metadata: { type: "object" } },
        },
        preserved: {
          type: "object",
          "x-kubernetes-preserve-unknown-fields": true,
          properties: { pruned: { type: "object", properties: { a: { type: "string" } } } },
        },
      },
    },
    status: { type: "object", properties: { num: { type: "integer" } } },
  },
};

function crd(): Record<string, unknown> {
  const c = noxuCRD("Namespaced");
  (c["spec"] as { versions: unknown[] }).versions = [
    { name: "v1beta1", served: true, storage: true, schema: { openAPIV3Schema: schema }, subresources: { status: {} } },
  ];
  return c;
}

/** field_validation_test.go crdInvalidBody: duplicates, unknown fields at every level, an embedded object's unknown metadata. */
const invalidBody = (name: string): string => `{
  "apiVersion": "mygroup.example.com/v1beta1",
  "kind": "WishIHadChosenNoxu",
  "metadata": {"name": "dupename", "name": "${name}", "unknownMeta": "metaVal"},
  "spec": {
    "unknown1": "val1",
    "unknownDupe": "valDupe",
    "unknownDupe": "valDupe2",
    "knownField1": "val1",
    "knownField1": "val2",
    "ports": [{"name": "portName", "containerPort": 8080, "protocol": "TCP", "hostPort": 8081, "hostPort": 8082, "unknownNested": "val"}],
    "embeddedObj": {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "my-cm", "namespace": "my-ns", "unknownEmbeddedMeta": "foo"}},
    "preserved": {"kept": 1, "pruned": {"a": "x", "b": "y"}}
  },
  "unknownRoot": true
}`;

const warnings = [
  'duplicate field "metadata.name"',
  'duplicate field "spec.unknownDupe"',
  'duplicate field "spec.knownField1"',
  'duplicate field "spec.ports[0].hostPort"',
  'unknown field "metadata.unknownMeta"',
  'unknown field "spec.ports[0].unknownNested"',
  'unknown field "spec.preserved.pruned.b"',
  'unknown field "spec.unknown1"',
  'unknown field "spec.unknownDupe"',
  'unknown field "unknownRoot"',
  'unknown field "spec.embeddedObj.metadata.unknownEmbeddedMeta"',
];

interface Obj {
  metadata: Record<string, unknown>;
  spec: Record<string, unknown>;
  status?: Record<string, unknown>;
  [k: string]: unknown;
}

describe("apiextensions pruning_test and field_validation_test (CRD)", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    await createCRD(s, crd());
  });
  afterAll(async () => {
    await s?.close();
  });

  it("PostCRD crd-post-strict-validation: 400 naming every duplicate and unknown field", async () => {
    const r = await s.request(`${base}?fieldValidation=Strict`, { method: "POST", headers: json, body: invalidBody("strict") });
    expect(r.status, r.text).toBe(400);
    expect((r.json() as { message: string }).message).toBe(
      `WishIHadChosenNoxu in version "v1beta1" cannot be handled as a WishIHadChosenNoxu: strict decoding error: ${warnings.join(", ")}`,
    );
    expect((await s.request(`${base}/strict`)).status).toBe(404);
  });

  it("TestPruningCreate / crd-post-no-validation: Warn by default, the stored object pruned", async () => {
    const r = await s.request(base, { method: "POST", headers: json, body: invalidBody("warn") });
    expect(r.status, r.text).toBe(201);
    expect(r.headers.get("warning")).toBe(warnings.map((w) => `299 - ${JSON.stringify(w)}`).join(", "));
    const got = (await s.request(`${base}/warn`)).json() as Obj;
    expect(got["unknownRoot"]).toBeUndefined();
    expect(got.metadata["unknownMeta"]).toBeUndefined();
    expect(got.spec).toEqual({
      knownField1: "val2",
      ports: [{ name: "portName", containerPort: 8080, protocol: "TCP", hostPort: 8082 }],
      embeddedObj: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "my-cm", namespace: "my-ns" } },
      preserved: { kept: 1, pruned: { a: "x" } },
    });
  });

  it("crd-post-ignore-validation: no warnings, still pruned", async () => {
    const r = await s.request(`${base}?fieldValidation=Ignore`, { method: "POST", headers: json, body: invalidBody("ignore") });
    expect(r.status, r.text).toBe(201);
    expect(r.headers.get("warning")).toBeNull();
    expect((r.json() as Obj).spec["unknown1"]).toBeUndefined();
  });

  it("PatchCRD merge patch: Strict 400 on the patched object's unknown field, Warn warns and prunes", async () => {
    const patch = (q: string) =>
      s.request(`${base}/warn${q}`, {
        method: "PATCH",
        headers: { "Content-Type": "application/merge-patch+json" },
        body: JSON.stringify({ spec: { knownField1: "val3", foo: "bar" } }),
      });
    const strict = await patch("?fieldValidation=Strict");
    expect(strict.status, strict.text).toBe(400);
    expect((strict.json() as { message: string }).message).toContain('strict decoding error: unknown field "spec.foo"');
    const warn = await patch("");
    expect(warn.status, warn.text).toBe(200);
    expect(warn.headers.get("warning")).toBe('299 - "unknown field \\"spec.foo\\""');
    expect((warn.json() as Obj).spec["foo"]).toBeUndefined();
    expect((warn.json() as Obj).spec["knownField1"]).toBe("val3");
  });

  it("TestPruningStatus: unknown status fields are pruned through /status", async () => {
    const got = (await s.request(`${base}/warn`)).json() as Obj;
    const r = await s.request(`${base}/warn/status`, {
      method: "PUT",
      headers: json,
      body: JSON.stringify({ ...got, status: { num: 3, unknown: "x" } }),
    });
    expect(r.status, r.text).toBe(200);
    expect((r.json() as Obj).status).toEqual({ num: 3 });
    expect(r.headers.get("warning")).toBe('299 - "unknown field \\"status.unknown\\""');
  });
});
