/**
 * upstream test/integration/apiserver/crd_validation_expressions_test.go over HTTP, function by
 * function and case by case, with upstream's expected substrings. Its "CRD writes MUST fail for a
 * non-structural schema" case is not here: it writes a v1beta1 CRD into etcd directly.
 */
import { eventually } from "@servicenet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../server/testing.ts";
import { createCRD, json } from "./fixtures-testing.ts";
import {
  createCRDWithSchema,
  crdWithSchema,
  expectInvalid,
  structuralSchemaWithBlockingErr,
  structuralSchemaWithCostLimit,
  structuralSchemaWithDefaultMapKeyTransitionRule,
  structuralSchemaWithEmptyObject,
  structuralSchemaWithInvalidMetadataValidators,
  structuralSchemaWithInvalidTransitionRule,
  structuralSchemaWithItemsUnderArray,
  structuralSchemaWithItemsUnderObject,
  structuralSchemaWithValidators,
  structuralSchemaWithValidMetadataValidators,
  structuralSchemaWithValidTransitionRule,
  type CRClient,
} from "./crd-validation-expressions-fixtures-testing.ts";

const crdPath = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

/** A CRD create that must fail (fixtures.CreateNewV1CustomResourceDefinition returning an error). */
async function createCRDMustFail(kind: string, schema: Record<string, unknown>, want: string): Promise<void> {
  const r = await s.send("POST", crdPath, crdWithSchema(kind, schema));
  expectInvalid({ status: r.status, message: String((r.json() as { message?: string }).message) }, want);
}

describe("TestCustomResourceValidators", () => {
  describe("Structural schema", () => {
    let cr: CRClient;
    beforeAll(async () => {
      cr = await createCRDWithSchema(s, "Structural", structuralSchemaWithValidators);
    });

    it("CRD creation MUST allow data that is valid according to x-kubernetes-validations", async () => {
      const r = await cr.create("cr-1a", { x: 2, y: 2, limit: 123 });
      expect(r.status, r.message).toBe(201);
    });

    it("custom resource create and update MUST NOT allow data that is invalid according to x-kubernetes-validations", async () => {
      expectInvalid(await cr.create("cr-1b", { x: -1, y: 0 }), "failed rule: self.spec.x + self.spec.y");
      const valid = { x: 2, y: 2, extra: "anything?", floatMap: { key1: 0.2, key2: 0.3 }, assocList: [{ k: "a", v: "1" }], limit: null };
      const created = await cr.create("cr-1b", valid);
      expect(created.status, created.message).toBe(201);
      const obj = created.body;
      const cases: [string, Record<string, unknown>][] = [
        ["spec vs. status default value", { x: 3, y: -4 }],
        ["nested string field", { extra: "something" }],
        ["nested array", { floatMap: { key1: 0.1, key2: 0.2 } }],
        ["nested associative list", { assocList: [{ k: "a", v: "2" }] }],
      ];
      for (const [name, spec] of cases) {
        obj["spec"] = spec;
        const r = await cr.update(obj);
        expect(r.status, `${name}: ${r.message}`).toBe(422);
        expect(r.message, name).toContain("failed rule");
      }
      obj["status"] = { z: 5 };
      expectInvalid(await cr.update(obj, "status"), "failed rule: self.spec.x + self.spec.y");
      obj["status"] = { z: 3 };
      const ok = await cr.update(obj, "status");
      expect(ok.status, ok.message).toBe(200);
    });
  });

  it("CRD creation MUST fail if a x-kubernetes-validations rule accesses a metadata field other than name", async () => {
    await createCRDMustFail("InvalidStructuralMetadata", structuralSchemaWithInvalidMetadataValidators, "undefined field 'labels'");
  });

  it("CRD creation MUST pass if a x-kubernetes-validations rule accesses metadata.name", async () => {
    await createCRD(s, crdWithSchema("ValidStructuralMetadata", structuralSchemaWithValidMetadataValidators));
  });

  it("CRD creation MUST pass for an CRD with empty field", async () => {
    await createCRD(s, crdWithSchema("WithEmptyObject", structuralSchemaWithEmptyObject));
  });

  it("CR creation MUST fail if a x-kubernetes-validations rule exceeds the runtime cost limit", async () => {
    const cr = await createCRDWithSchema(s, "RuntimeCostLimit", structuralSchemaWithCostLimit);
    expectInvalid(await cr.create("cr-1", { list: new Array<number>(725).fill(20) }), "call cost exceeds limit");
  });

  describe("Schema with valid transition rule", () => {
    let cr: CRClient;
    beforeAll(async () => {
      cr = await createCRDWithSchema(s, "ValidTransitionRule", structuralSchemaWithValidTransitionRule);
    });
    const createOriginal = async (name: string) => {
      const r = await cr.create(name, { someImmutableThing: "original", somethingElse: "original" });
      expect(r.status, r.message).toBe(201);
      return r.body as { spec: Record<string, string> };
    };

    it("custom resource update MUST pass if a x-kubernetes-validations rule contains a valid transition rule", async () => {
      const obj = await createOriginal("cr-1a");
      obj.spec["somethingElse"] = "new value";
      const r = await cr.update(obj);
      expect(r.status, r.message).toBe(200);
    });

    it("custom resource update MUST fail if a x-kubernetes-validations rule contains an invalid transition rule", async () => {
      const obj = await createOriginal("cr-1b");
      obj.spec["someImmutableThing"] = "new value";
      expectInvalid(await cr.update(obj), "failed rule: self.someImmutableThing == oldSelf.someImmutableThing");
    });
  });

  it("CRD creation MUST fail if a x-kubernetes-validations rule contains invalid transition rule", async () => {
    await createCRDMustFail(
      "InvalidTransitionRule",
      structuralSchemaWithInvalidTransitionRule,
      "oldSelf cannot be used on the uncorrelatable portion of the schema",
    );
  });

  it("Schema with default map key transition rule: custom resource update MUST fail if a x-kubernetes-validations if a transition rule contained in a mapList with default map keys fails validation", async () => {
    const cr = await createCRDWithSchema(s, "DefaultMapKeyTransitionRule", structuralSchemaWithDefaultMapKeyTransitionRule);
    const created = await cr.create("cr-1", { list: [{ k1: "x", v: "value" }] });
    expect(created.status, created.message).toBe(201);
    const obj = created.body as { spec: { list: Record<string, string>[] } };
    obj.spec.list[0]!["k2"] = "DEFAULT";
    obj.spec.list[0]!["v"] = "new value";
    expectInvalid(await cr.update(obj), "failed rule: self.v == oldSelf.v");
  });
});

describe("TestCustomResourceValidatorsWithBlockingErrors", () => {
  const blocked =
    "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation";
  let cr: CRClient;
  beforeAll(async () => {
    cr = await createCRDWithSchema(s, "Blocking", structuralSchemaWithBlockingErr);
  });

  it("CRD creation MUST allow data that is valid according to x-kubernetes-validations", async () => {
    const r = await cr.create("cr-1a", { x: 2, y: 2, limit: 123 });
    expect(r.status, r.message).toBe(201);
  });

  it("custom resource create and update MUST NOT allow data if failed validation", async () => {
    expectInvalid(await cr.create("cr-1b", { x: -1, y: 0 }), "self.spec.x + self.spec.y must be greater than or equal to 0");
  });

  it("the skipped rules are upstream's field.Invalid(nil, nil, ...) after the blocking error", async () => {
    const r = await cr.create("cr-3", { x: 2, y: 2, extra: "x".repeat(201) });
    expect(r.message).toBe(
      `Blocking.mygroup.example.com "cr-3" is invalid: [spec.extra: Too long: may not be more than 200 bytes, <nil>: Invalid value: "null": ${blocked}]`,
    );
  });

  const floatMap = { key1: 0.2, key2: 0.3 };
  const manyKeys = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`key${i + 1}`, (i + 1) / 10]));
  const manyItems = Array.from({ length: 101 }, (_, i) => ({ k: "a", v: String(i + 1) }));
  it.each<[string, Record<string, unknown>]>([
    ["MaxLength", { x: 2, y: 2, extra: "x".repeat(201), floatMap, limit: null }],
    ["MaxItems", { x: 2, y: 2, floatMap, assocList: manyItems, limit: null }],
    ["MaxProperties", { x: 2, y: 2, floatMap: manyKeys, assocList: [{ k: "a", v: "1" }], limit: null }],
    ["missing required field", { x: 2, y: 2, floatMap, assocList: [{ k: "1" }], limit: null }],
    ["type", { x: 2, y: 2, floatMap, assocList: [{ k: "a", v: true }], limit: null }],
  ])("custom resource create and update MUST NOT allow data if there is blocking error of %s", async (_n, spec) => {
    expectInvalid(await cr.create("cr-2", spec), blocked);
  });
});

describe("TestCustomResourceValidatorsWithSchemaConversion", () => {
  it("CRD replacement with a schema that does not convert to CEL types does not break the handler", async () => {
    const cr = await createCRDWithSchema(s, "Conversion", structuralSchemaWithItemsUnderArray);
    const created = await cr.create("cr-1", { backend: [{ replicas: 8 }] });
    expect(created.status, created.message).toBe(201);
    const name = "conversions.mygroup.example.com";
    const current = (await s.request(`${crdPath}/${name}`)).json() as { metadata: { resourceVersion: string } };
    const replacement = crdWithSchema("Conversion", structuralSchemaWithItemsUnderObject);
    (replacement["metadata"] as Record<string, unknown>)["resourceVersion"] = current.metadata.resourceVersion;
    const updated = await s.request(`${crdPath}/${name}`, { method: "PUT", headers: json, body: JSON.stringify(replacement) });
    expect(updated.status, updated.text).toBe(200);
    // An unrelated update of the stored object: the rule under the object's `items` has no CEL
    // type, a compilation error that ratcheting does not hide.
    await eventually(async () => {
      const old = (await s.request(`${cr.path}/cr-1`)).json() as { metadata: Record<string, unknown> };
      old.metadata["labels"] = { key: "value" };
      expectInvalid(await cr.update(old), "rule compiler initialization error: Failed to convert to declType for CEL validation rules");
      return true;
    });
    await eventually(async () => {
      const r = await cr.create("cr-2", { backend: [{ replicas: 7 }] });
      expectInvalid(r, 'Invalid value: "array": spec.backend in body must be of type object: "array"');
      return r;
    });
  });
});
