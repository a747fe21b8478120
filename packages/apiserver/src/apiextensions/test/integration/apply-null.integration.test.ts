/**
 * Upstream test/integration/apply_test.go TestApplyNullToObject: a server-side apply that sets an
 * object field to null after an apply populated it. A nullable field ends null (or absent); a
 * non-nullable one is refused by schema validation, which sees the applied null before
 * structured-merge-diff's RemoveItems would prune it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../server/testing.ts";
import { createCRD } from "./fixtures-testing.ts";

interface Row {
  name: string;
  nullable?: boolean;
  required?: boolean;
  subfieldRequired?: boolean;
  wantNull?: boolean;
  wantErr?: string;
}

// Upstream's table, in its order.
const rows: Row[] = [
  { name: "nullable and optional field with optional subfield", nullable: true, wantNull: true },
  { name: "nullable and required field with optional subfield", nullable: true, required: true, wantNull: true },
  { name: "nullable and optional field with required subfield", nullable: true, subfieldRequired: true, wantNull: true },
  { name: "nullable and required field with required subfield", nullable: true, subfieldRequired: true, required: true, wantNull: true },
  { name: "non-nullable and optional field with optional subfield", wantErr: "must be of type object" },
  { name: "non-nullable and required field with optional subfield", required: true, wantErr: "must be of type object" },
  { name: "non-nullable and optional field with required subfield", subfieldRequired: true, wantErr: "must be of type object" },
  {
    name: "non-nullable and required field with required subfield",
    subfieldRequired: true,
    required: true,
    wantErr: "must be of type object",
  },
];

const fieldName = (i: number): string => `field${i}`;

function objectSchema(r: Row): Record<string, unknown> {
  return {
    type: "object",
    ...(r.nullable ? { nullable: true } : {}),
    properties: { a: { type: "string" }, b: { type: "string" } },
    ...(r.subfieldRequired ? { required: ["a", "b"] } : {}),
  };
}

function widgetCRD(): Record<string, unknown> {
  const specProps = Object.fromEntries(
    rows.map((r, i) => [
      fieldName(i),
      { type: "object", properties: { inner: objectSchema(r) }, ...(r.required ? { required: ["inner"] } : {}) },
    ]),
  );
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "widgets.stable.example.com" },
    spec: {
      group: "stable.example.com",
      versions: [
        {
          name: "v1",
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: "object", properties: { spec: { type: "object", properties: specProps } } } },
        },
      ],
      names: { plural: "widgets", kind: "Widget", listKind: "WidgetList" },
      scope: "Cluster",
    },
  };
}

describe("apiextensions apply_test TestApplyNullToObject", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    await createCRD(s, widgetCRD());
  });
  afterAll(async () => {
    await s?.close();
  });

  // dynamicClient.Apply: a JSON body of the apply patch type.
  const apply = (object: string, field: string, inner: unknown) =>
    s.request(`/apis/stable.example.com/v1/widgets/${object}?fieldManager=apply_test`, {
      method: "PATCH",
      headers: { "Content-Type": "application/apply-patch+yaml" },
      body: JSON.stringify({
        apiVersion: "stable.example.com/v1",
        kind: "Widget",
        metadata: { name: object },
        spec: { [field]: { inner } },
      }),
    });

  it.each(rows.map((r, i) => [r.name, r, i] as const))("%s", async (_name, r, i) => {
    const populated = await apply(fieldName(i), fieldName(i), { a: "1", b: "2" });
    expect(populated.status, populated.text).toBe(201);
    const got = await apply(fieldName(i), fieldName(i), null);
    if (r.wantErr !== undefined) {
      expect(got.status, got.text).toBe(422);
      expect(got.text).toContain(r.wantErr);
      expect(got.json()).toMatchObject({ reason: "Invalid", details: { causes: [{ field: `spec.${fieldName(i)}.inner` }] } });
      return;
    }
    expect(got.status, got.text).toBe(200);
    const spec = (got.json() as { spec: Record<string, Record<string, unknown>> }).spec;
    // Upstream asks only that inner is not set; RemoveItems leaves it null, which a nullable schema keeps.
    if (r.wantNull) expect(spec[fieldName(i)]).toEqual({ inner: null });
  });
});
