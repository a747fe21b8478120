/**
 * The x-kubernetes-validations cases of upstream test/integration/validation_test.go
 * (TestCustomResourceValidation with CEL rules, transition rules) over HTTP: rules run with
 * `self` (and `oldSelf` on update), report their message, messageExpression, reason and
 * fieldPath, and nothing is stored when one fails.
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
      "x-kubernetes-validations": [
        { rule: "self.minReplicas <= self.replicas", message: "replicas should be greater than or equal to minReplicas" },
        { rule: "self.replicas <= 10", messageExpression: "'replicas ' + string(self.replicas) + ' is more than 10'" },
        { rule: "has(self.name)", reason: "FieldValueRequired", fieldPath: ".name", message: "name is required" },
        { rule: "self.replicas != 7" },
      ],
      properties: {
        replicas: { type: "integer" },
        minReplicas: { type: "integer" },
        name: { type: "string", "x-kubernetes-validations": [{ rule: "self == oldSelf", message: "Value is immutable" }] },
      },
    },
  },
};

interface Status {
  message: string;
}

describe("apiextensions x-kubernetes-validations", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    const c = noxuCRD("Namespaced");
    (c["spec"] as { versions: unknown[] }).versions = [
      { name: "v1beta1", served: true, storage: true, schema: { openAPIV3Schema: schema } },
    ];
    await createCRD(s, c);
  });
  afterAll(async () => {
    await s?.close();
  });

  const create = (name: string, spec: Record<string, unknown>) =>
    s.request(base, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ apiVersion: "mygroup.example.com/v1beta1", kind: "WishIHadChosenNoxu", metadata: { name }, spec }),
    });

  it.each([
    [
      "message",
      { replicas: 3, minReplicas: 5, name: "a" },
      'spec: Invalid value: "object": replicas should be greater than or equal to minReplicas',
    ],
    ["messageExpression", { replicas: 11, minReplicas: 1, name: "a" }, 'spec: Invalid value: "object": replicas 11 is more than 10'],
    ["reason and fieldPath", { replicas: 1, minReplicas: 1 }, "spec.name: Required value: name is required"],
    ["no message", { replicas: 7, minReplicas: 1, name: "a" }, 'spec: Invalid value: "object": failed rule: self.replicas != 7'],
  ])("%s: 422 with the rule's error, nothing stored", async (_n, spec, want) => {
    const r = await create("bad", spec);
    expect(r.status, r.text).toBe(422);
    expect((r.json() as Status).message).toBe(`WishIHadChosenNoxu.mygroup.example.com "bad" is invalid: ${want}`);
    expect((await s.request(`${base}/bad`)).status).toBe(404);
  });

  it("transition rules see oldSelf on update only", async () => {
    const r = await create("ok", { replicas: 2, minReplicas: 1, name: "first" });
    expect(r.status, r.text).toBe(201);
    const patch = (spec: Record<string, unknown>) =>
      s.request(`${base}/ok`, {
        method: "PATCH",
        headers: { "Content-Type": "application/merge-patch+json" },
        body: JSON.stringify({ spec }),
      });
    const same = await patch({ replicas: 3 });
    expect(same.status, same.text).toBe(200);
    const renamed = await patch({ name: "second" });
    expect(renamed.status, renamed.text).toBe(422);
    expect((renamed.json() as Status).message).toBe(
      'WishIHadChosenNoxu.mygroup.example.com "ok" is invalid: spec.name: Invalid value: "string": Value is immutable',
    );
  });
});

/** Rule errors are reported when the CRD is written (validation.go ValidateCustomResourceDefinitionOpenAPISchema). */
describe("apiextensions x-kubernetes-validations errors on the CRD write", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  const crdWith = (spec: Record<string, unknown>) => {
    const c = noxuCRD("Namespaced");
    (c["spec"] as { versions: unknown[] }).versions = [
      { name: "v1beta1", served: true, storage: true, schema: { openAPIV3Schema: { type: "object", properties: { spec } } } },
    ];
    return c;
  };
  const at = "spec.validation.openAPIV3Schema.properties[spec]";
  const post = (c: Record<string, unknown>) =>
    s.request("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", { method: "POST", headers: json, body: JSON.stringify(c) });

  it.each<[string, Record<string, unknown>, string]>([
    [
      "a rule that does not compile",
      { type: "object", "x-kubernetes-validations": [{ rule: "self.replicas >" }] },
      `${at}.x-kubernetes-validations[0].rule: Invalid value: apiextensions.ValidationRule{Rule:"self.replicas >", Message:"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: compilation failed: ERROR: <input>:1:`,
    ],
    [
      "a messageExpression that is not a string",
      { type: "object", "x-kubernetes-validations": [{ rule: "true", messageExpression: "1" }] },
      `${at}.x-kubernetes-validations[0].messageExpression: Invalid value: apiextensions.ValidationRule{Rule:"true", Message:"", MessageExpression:"1", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: messageExpression must evaluate to a string`,
    ],
    [
      "oldSelf on items of a set",
      {
        type: "object",
        properties: {
          tags: {
            type: "array",
            "x-kubernetes-list-type": "set",
            maxItems: 10,
            items: { type: "string", maxLength: 64, "x-kubernetes-validations": [{ rule: "self == oldSelf" }] },
          },
        },
      },
      `${at}.properties[tags].items.x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within ${at}.properties[tags]`,
    ],
    [
      "a rule too expensive over an unbounded list",
      {
        type: "object",
        properties: { tags: { type: "array", items: { type: "string" } } },
        "x-kubernetes-validations": [{ rule: "self.tags.all(a, self.tags.exists(b, a == b))" }],
      },
      `${at}.x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`,
    ],
    [
      "a field the schema does not declare",
      { type: "object", properties: { replicas: { type: "integer" } }, "x-kubernetes-validations": [{ rule: "self.replica > 0" }] },
      `${at}.x-kubernetes-validations[0].rule: Invalid value: apiextensions.ValidationRule{Rule:"self.replica > 0", Message:"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: compilation failed: ERROR: <input>:1:5: undefined field 'replica'`,
    ],
    [
      "a fieldPath of no field",
      { type: "object", "x-kubernetes-validations": [{ rule: "true", fieldPath: ".replicas" }] },
      `${at}.x-kubernetes-validations[0].fieldPath: Invalid value: ".replicas": fieldPath must be a valid path`,
    ],
  ])("%s: 422, nothing stored", async (_n, spec, want) => {
    const r = await post(crdWith(spec));
    expect(r.status, r.text).toBe(422);
    const status = r.json() as Status & { reason: string };
    expect(status.reason).toBe("Invalid");
    expect(status.message).toMatch(/^CustomResourceDefinition\.apiextensions\.k8s\.io "noxus\.mygroup\.example\.com" is invalid: /);
    expect(status.message).toContain(want);
    expect((await s.request("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/noxus.mygroup.example.com")).status).toBe(404);
  });

  it("an update that adds a rule that does not compile is refused", async () => {
    const created = await createCRD(s, crdWith({ type: "object", "x-kubernetes-validations": [{ rule: "has(self.a)" }] }));
    const c = structuredClone(created) as {
      spec: { versions: { schema: { openAPIV3Schema: { properties: { spec: Record<string, unknown> } } } }[] };
    };
    c.spec.versions[0]!.schema.openAPIV3Schema.properties.spec["x-kubernetes-validations"] = [
      { rule: "has(self.a)" },
      { rule: "self.a +" },
    ];
    const r = await s.request("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/noxus.mygroup.example.com", {
      method: "PUT",
      headers: json,
      body: JSON.stringify(c),
    });
    expect(r.status, r.text).toBe(422);
    expect((r.json() as Status).message).toContain(`${at}.x-kubernetes-validations[1].rule: Invalid value: `);
  });
});
