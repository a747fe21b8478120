/**
 * upstream apiextensions-apiserver test/integration/listtype_test.go TestListTypes over HTTP: a
 * custom object whose `x-kubernetes-list-type` map and set lists hold duplicates is refused
 * naming only those lists; a duplicate appended on update is refused; and once the CRD's map keys
 * change so that the stored object itself has duplicates, the update is let through (the list
 * checks ratchet on an old object that fails them).
 */
import { eventually } from "@servicenet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../server/testing.ts";
import { createCRD, json } from "./fixtures-testing.ts";

const integerMap = { type: "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["a", "b"] };
const mapItems = { type: "object", properties: { a: { type: "integer" }, b: { type: "integer" } } };
const setItems = { type: "object", "x-kubernetes-map-type": "atomic", additionalProperties: { type: "integer" } };

/** listTypeResourceSchema. */
const listTypeResourceSchema = {
  type: "object",
  properties: {
    "correct-map": { ...integerMap, items: mapItems },
    "correct-set": { type: "array", "x-kubernetes-list-type": "set", items: setItems },
    "invalid-map": { ...integerMap, items: mapItems },
    "invalid-set": { type: "array", "x-kubernetes-list-type": "set", items: setItems },
  },
};

/** listTypeResourceFixture with the schema. */
const listTypeResourceFixture = {
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: "foos.tests.example.com" },
  spec: {
    group: "tests.example.com",
    versions: [{ name: "v1beta1", storage: true, served: true, schema: { openAPIV3Schema: listTypeResourceSchema } }],
    names: { plural: "foos", singular: "foo", kind: "Foo", listKind: "FooList" },
    scope: "Cluster",
  },
};

/** listTypeResourceInstance. */
const listTypeResourceInstance = (): Record<string, unknown> => ({
  kind: "Foo",
  apiVersion: "tests.example.com/v1beta1",
  metadata: { name: "foo" },
  "correct-map": [
    { a: 1, b: 1, c: "1" },
    { a: 1, b: 2, c: "2" },
    { a: 1, c: "3" },
  ],
  "correct-set": [{ a: 1, b: 1 }, { a: 1, b: 2 }, { a: 1 }, { a: 1, b: 4 }],
  "invalid-map": [
    { a: 1, b: 1, c: "1" },
    { a: 1, b: 2, c: "2" },
    { a: 1, c: "3" },
    { a: 1, b: 1, c: "4" },
  ],
  "invalid-set": [{ a: 1, b: 1 }, { a: 1, b: 2 }, { a: 1 }, { a: 1, b: 4 }, { a: 1, b: 1 }],
});

const validListTypeFields = ["correct-map", "correct-set"];
const invalidListTypeFields = ["invalid-map", "invalid-set"];
const crdPath = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/foos.tests.example.com";
const foos = "/apis/tests.example.com/v1beta1/foos";

describe("TestListTypes", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    await createCRD(s, listTypeResourceFixture);
  });
  afterAll(async () => {
    await s?.close();
  });

  it("refuses duplicates in map and set lists, and ratchets on an invalid stored object", async () => {
    const created = await s.send("POST", foos, listTypeResourceInstance());
    expect(created.status, created.text).toBe(422);
    for (const valid of validListTypeFields) expect(created.text).not.toContain(valid);
    for (const invalid of invalidListTypeFields) expect(created.text).toContain(invalid);

    const fixed = listTypeResourceInstance();
    for (const invalid of invalidListTypeFields) delete fixed[invalid];
    const validInstance = await s.send("POST", foos, fixed);
    expect(validInstance.status, validInstance.text).toBe(201);

    const modifiedInstance = validInstance.json() as Record<string, unknown[]>;
    for (const valid of validListTypeFields) modifiedInstance[valid]!.push(modifiedInstance[valid]![0]);
    const updated = await s.send("PUT", `${foos}/foo`, modifiedInstance);
    expect(updated.status, updated.text).toBe(422);
    for (const valid of validListTypeFields) expect(updated.text).toContain(valid);

    // Remove "b" from the keys in the schema which renders the valid instance invalid.
    const crd = (await s.request(crdPath)).json() as typeof listTypeResourceFixture;
    crd.spec.versions[0]!.schema.openAPIV3Schema.properties["correct-map"]["x-kubernetes-list-map-keys"] = ["a"];
    const crdUpdated = await s.request(crdPath, { method: "PUT", headers: json, body: JSON.stringify(crd) });
    expect(crdUpdated.status, crdUpdated.text).toBe(200);

    // Updating again with invalid values, eventually successfully due to ratcheting logic.
    await eventually(async () => {
      const r = await s.send("PUT", `${foos}/foo`, modifiedInstance);
      expect(r.status, r.text).toBe(200);
      return r;
    });
  });
});
