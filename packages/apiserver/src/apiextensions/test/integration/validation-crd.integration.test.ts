/**
 * Upstream test/integration/validation_test.go (TestCRValidationOnCRDUpdate,
 * TestForbiddenFieldsInSchema) over HTTP, on each version of newNoxuValidationCRDs: a CRD update
 * that relaxes the schema lets a refused object in, and schemas using what structural schemas
 * forbid (additionalProperties false, uniqueItems true, $ref) are refused on the CRD write.
 */
import { eventually } from "@servicenet/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../server/testing.ts";
import { createCRD, deleteCRD, json, noxuCRD } from "./fixtures-testing.ts";

const crdPath = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const crdName = "noxus.mygroup.example.com";

type Schema = Record<string, unknown> & { properties?: Record<string, unknown>; required?: string[] };

/** newNoxuValidationCRDs' schema (the variant whose v1 schema has a description). */
function validationSchema(): Schema {
  return {
    type: "object",
    required: ["alpha", "beta"],
    properties: {
      alpha: { description: "Alpha is an alphanumeric string with underscores", type: "string", pattern: "^[a-zA-Z0-9_]*$" },
      beta: { description: "Minimum value of beta is 10", type: "number", minimum: 10 },
      gamma: { description: "Gamma is restricted to foo, bar and baz", type: "string", enum: ["foo", "bar", "baz"] },
    },
  };
}

/** newNoxuValidationCRDs()[1] with `edit` applied to the schema of version `name`. */
function validationCRD(name: string, edit: (s: Schema) => void): Record<string, unknown> {
  const c = noxuCRD("Namespaced");
  const versions = ["v1beta1", "v1"].map((v) => {
    const schema = validationSchema();
    if (v === "v1") schema["description"] = "test";
    if (v === name) edit(schema);
    return { name: v, served: true, storage: v === "v1beta1", schema: { openAPIV3Schema: schema } };
  });
  (c["spec"] as Record<string, unknown>)["versions"] = versions;
  return c;
}

/** newNoxuValidationInstance in `version`, without gamma. */
const withoutGamma = (version: string): Record<string, unknown> => ({
  apiVersion: `mygroup.example.com/${version}`,
  kind: "WishIHadChosenNoxu",
  metadata: { namespace: "default", name: "foo" },
  alpha: "foo_123",
  beta: 10,
  delta: "hello",
});

describe("apiextensions validation_test (CRD writes)", () => {
  let s: TestServer;
  beforeEach(async () => {
    s = await startTestServer();
  });
  afterEach(async () => {
    await s?.close();
  });

  it.each(["v1beta1", "v1"])("TestCRValidationOnCRDUpdate (%s): relaxing required lets the object in", async (v) => {
    await createCRD(
      s,
      validationCRD(v, (schema) => (schema.required = ["alpha", "beta", "gamma"])),
    );
    const objects = `/apis/mygroup.example.com/${v}/namespaces/default/noxus`;
    const refused = await s.send("POST", objects, withoutGamma(v));
    expect(refused.status, refused.text).toBe(422);
    expect((refused.json() as { message: string }).message).toBe(
      'WishIHadChosenNoxu.mygroup.example.com "foo" is invalid: gamma: Required value',
    );

    const crd = (await s.request(`${crdPath}/${crdName}`)).json() as {
      spec: { versions: { name: string; schema: { openAPIV3Schema: Schema } }[] };
    };
    crd.spec.versions.find((x) => x.name === v)!.schema.openAPIV3Schema.required = ["alpha", "beta"];
    const put = await s.request(`${crdPath}/${crdName}`, { method: "PUT", headers: json, body: JSON.stringify(crd) });
    expect(put.status, put.text).toBe(200);
    // The handler serves the new schema once its informer has the updated CRD.
    await eventually(async () => {
      const created = await s.send("POST", objects, withoutGamma(v));
      expect(created.status, created.text).toBe(201);
      return created;
    });
    await deleteCRD(s, crdName);
  });

  it.each(["v1beta1", "v1"])("TestForbiddenFieldsInSchema (%s)", async (v) => {
    const refused = async (edit: (schema: Schema) => void): Promise<string> => {
      const r = await s.send("POST", crdPath, validationCRD(v, edit));
      expect(r.status, r.text).toBe(422);
      return (r.json() as { message: string }).message;
    };
    const at = `spec.versions[${v === "v1beta1" ? 0 : 1}].schema.openAPIV3Schema`;
    const invalid = `CustomResourceDefinition.apiextensions.k8s.io "${crdName}" is invalid: `;
    expect(
      await refused((schema) => {
        delete schema.properties;
        schema["additionalProperties"] = false;
      }),
    ).toBe(`${invalid}${at}.additionalProperties: Forbidden: must not be used at the root`);
    expect(
      await refused((schema) => {
        schema.properties!["zeta"] = { type: "array", uniqueItems: true, additionalProperties: true };
      }),
    ).toContain(
      `${at}.properties[zeta].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`,
    );
    const zeta = { type: "array", uniqueItems: false, items: { type: "object" } };
    expect(
      await refused((schema) => {
        schema["$ref"] = "#/definition/zeta";
        schema.properties!["zeta"] = zeta;
      }),
    ).toBe(`${invalid}${at}.$ref: Forbidden: $ref is not supported`);
    await createCRD(
      s,
      validationCRD(v, (schema) => (schema.properties!["zeta"] = zeta)),
    );
  });
});
