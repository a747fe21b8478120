/**
 * Upstream apiextensions-apiserver test/integration/fieldselector_test.go over HTTP:
 * TestSelectableFields (list, watch and deletecollection by a version's selectableFields) and
 * TestFieldSelectorOpenAPI. Upstream also runs every row against v1beta1, whose `spec.hue` a
 * conversion webhook maps to v1's `spec.color`; Webhook conversion is not offered here, so the
 * rows run against v1 only.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../server/testing.ts";
import { createCRD, watchEvents } from "./fixtures-testing.ts";

const shirts = "/apis/tests.example.com/v1/shirts";
const specSchema = {
  type: "object",
  properties: {
    color: { type: "string" },
    quantity: { type: "integer" },
    size: { type: "string", enum: ["S", "M", "L", "XL"] },
    branded: { type: "boolean" },
  },
};
/** fieldselector_test.go selectableFieldFixture, v1 only. */
const selectableFieldFixture = {
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: "shirts.tests.example.com" },
  spec: {
    group: "tests.example.com",
    versions: [
      {
        name: "v1",
        storage: true,
        served: true,
        schema: { openAPIV3Schema: { type: "object", properties: { spec: specSchema } } },
        selectableFields: [
          { jsonPath: ".spec.color" },
          { jsonPath: ".spec.quantity" },
          { jsonPath: ".spec.size" },
          { jsonPath: ".spec.branded" },
        ],
      },
    ],
    names: { plural: "shirts", singular: "shirt", kind: "Shirt", listKind: "ShirtList" },
    scope: "Cluster",
  },
};
const shirt = (name: string, spec: Record<string, unknown>) => ({
  kind: "Shirt",
  apiVersion: "tests.example.com/v1",
  metadata: { name },
  spec,
});
const shirtInstances = [
  shirt("shirt1", { color: "blue", quantity: 2, size: "S", branded: true }),
  shirt("shirt2", { color: "blue", quantity: 3, size: "M", branded: false }),
  shirt("shirt3", { color: "green", quantity: 2, branded: false }),
];

/** TestSelectableFields' rows for v1. */
const selectableFieldRows: { fieldSelector: string; expectedByName: string[]; expectObserveRemoval?: string[]; expectError?: string }[] = [
  // shirt1 is deleted, shirt2 is updated to not match the selector.
  { fieldSelector: "spec.color=blue", expectedByName: ["shirt1", "shirt2"], expectObserveRemoval: ["shirt1", "shirt2"] },
  { fieldSelector: "spec.quantity=2", expectedByName: ["shirt1", "shirt3"], expectObserveRemoval: ["shirt1"] },
  { fieldSelector: "spec.size=M", expectedByName: ["shirt2"] },
  { fieldSelector: "spec.branded=false", expectedByName: ["shirt2", "shirt3"] },
  { fieldSelector: "spec.color=blue,spec.quantity=2", expectedByName: ["shirt1"], expectObserveRemoval: ["shirt1"] },
  { fieldSelector: "spec.color=blue,spec.branded=false", expectedByName: ["shirt2"], expectObserveRemoval: ["shirt2"] },
  { fieldSelector: "spec.nosuchfield=xyz", expectedByName: [], expectError: "field label not supported: spec.nosuchfield" },
];

const names = (items: { metadata: { name: string } }[]): string[] => items.map((i) => i.metadata.name).sort();

describe("apiextensions fieldselector_test", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    await createCRD(s, selectableFieldFixture);
  });
  afterAll(async () => {
    await s?.close();
  });

  /** createTestResources after deleteTestResources. */
  async function recreateShirts(): Promise<void> {
    expect((await s.request(`${shirts}?gracePeriodSeconds=0`, { method: "DELETE" })).status).toBe(200);
    for (const o of shirtInstances) {
      const r = await s.send("POST", shirts, o);
      expect(r.status, r.text).toBe(201);
    }
  }

  const listed = async (fieldSelector: string) => {
    const r = await s.request(`${shirts}?fieldSelector=${encodeURIComponent(fieldSelector)}`);
    return { status: r.status, body: r.json() as { message?: string; items: { metadata: { name: string } }[] } };
  };

  describe("TestSelectableFields", () => {
    it("watch: ADDED for the matching objects, DELETED when one is deleted or stops matching", async () => {
      expect((await s.request(`${shirts}?gracePeriodSeconds=0`, { method: "DELETE" })).status).toBe(200);
      const rv = ((await s.request(shirts)).json() as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
      for (const o of shirtInstances) expect((await s.send("POST", shirts, o)).status).toBe(201);
      expect((await s.request(`${shirts}/shirt1?gracePeriodSeconds=0`, { method: "DELETE" })).status).toBe(200);
      const shirt2 = (await s.request(`${shirts}/shirt2`)).json() as { spec: Record<string, unknown> };
      shirt2.spec["color"] = "green";
      expect((await s.send("PUT", `${shirts}/shirt2`, shirt2)).status).toBe(200);

      await Promise.all(
        selectableFieldRows.map(async (row) => {
          const selector = `fieldSelector=${encodeURIComponent(row.fieldSelector)}`;
          if (row.expectError !== undefined) {
            const r = await s.request(`${shirts}?watch=true&${selector}`);
            return void expect(r.status, row.fieldSelector).toBe(400);
          }
          const events = await watchEvents(s, `${shirts}?resourceVersion=${rv}&${selector}`);
          const of = (type: string) => names(events.filter((e) => e.type === type).map((e) => e.object));
          expect(of("ADDED"), row.fieldSelector).toEqual(row.expectedByName);
          expect(of("DELETED"), row.fieldSelector).toEqual(row.expectObserveRemoval ?? []);
        }),
      );
    });

    it.each(selectableFieldRows)("list: $fieldSelector", async (row) => {
      if (row === selectableFieldRows[0]) await recreateShirts();
      const { status, body } = await listed(row.fieldSelector);
      if (row.expectError !== undefined) {
        expect(status).toBe(400);
        return void expect(body.message).toBe(row.expectError);
      }
      expect(status).toBe(200);
      expect(names(body.items)).toEqual(row.expectedByName);
    });

    it.each(selectableFieldRows)("deleteCollection: $fieldSelector", async (row) => {
      await recreateShirts();
      const r = await s.request(`${shirts}?gracePeriodSeconds=0&fieldSelector=${encodeURIComponent(row.fieldSelector)}`, {
        method: "DELETE",
      });
      if (row.expectError !== undefined) {
        expect(r.status).toBe(400);
        return void expect((r.json() as { message: string }).message).toBe(row.expectError);
      }
      expect(r.status, r.text).toBe(200);
      const remaining = names((await listed("")).body.items);
      expect(["shirt1", "shirt2", "shirt3"].filter((n) => !remaining.includes(n))).toEqual(row.expectedByName);
    });
  });

  it("TestFieldSelectorOpenAPI: x-kubernetes-selectable-fields in the v3 and v2 definitions", async () => {
    const expected = [
      { fieldPath: "spec.color" },
      { fieldPath: "spec.quantity" },
      { fieldPath: "spec.size" },
      { fieldPath: "spec.branded" },
    ];
    const v3 = (await s.request("/openapi/v3/apis/tests.example.com/v1")).json() as {
      components: { schemas: Record<string, Record<string, unknown>> };
    };
    expect(v3.components.schemas["com.example.tests.v1.Shirt"]?.["x-kubernetes-selectable-fields"]).toEqual(expected);
    const v2 = (await s.request("/openapi/v2")).json() as { definitions: Record<string, Record<string, unknown>> };
    expect(v2.definitions["com.example.tests.v1.Shirt"]?.["x-kubernetes-selectable-fields"]).toEqual(expected);
  });
});
