import { describe, expect, it } from "vitest";
import type { JSONObject, JSONValue } from "./json-value.ts";
import { managedFieldsError } from "./managed-fields-validate.ts";
import { updateManagedFields } from "./managed-fields.ts";

const entry = (o: Record<string, unknown> = {}) => ({
  manager: "m",
  operation: "Update",
  apiVersion: "v1",
  time: "2026-01-01T00:00:00Z",
  fieldsType: "FieldsV1",
  fieldsV1: { "f:metadata": { "f:labels": { "f:a": {} } } },
  ...o,
});

// managedfields/internal/managedfields.go DecodeManagedFields' errors, entry by entry.
describe("managedFieldsError (DecodeManagedFields)", () => {
  const cases: [string, JSONValue | undefined, string | undefined][] = [
    ["none", undefined, undefined],
    ["valid", [entry(), entry({ manager: "n", operation: "Apply" })], undefined],
    ["bad operation", [entry({ operation: "Patch" })], "operation must be `Apply` or `Update`"],
    ["no operation", [entry({ operation: undefined })], "operation must be `Apply` or `Update`"],
    ["no apiVersion", [entry({ apiVersion: "" })], "apiVersion must not be empty"],
    [
      "no fieldsType in the second entry",
      [entry(), entry({ manager: "n", fieldsType: undefined })],
      "missing fieldsType in managed fields entry 1",
    ],
    ["other fieldsType", [entry({ fieldsType: "FieldsV2" })], 'invalid fieldsType "FieldsV2" in managed fields entry 0'],
    ["no fieldsV1 is an empty set", [entry({ fieldsV1: undefined })], undefined],
  ];
  for (const [name, list, want] of cases) it(name, () => expect(managedFieldsError(list as JSONValue)).toBe(want));
});

describe("a client's undecodable managedFields", () => {
  it("are ignored for the stored ones (FieldManager.Update falls back to the live object)", () => {
    const old: JSONObject = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "x", labels: { a: "1" }, managedFields: [entry()] } };
    const next: JSONObject = {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "x", labels: { a: "1" }, managedFields: [{ manager: "broken" }] },
    };
    const out = updateManagedFields(old, next, "m", "Update", "v1", new Date("2026-01-01T00:00:00Z"));
    expect((out.metadata as JSONObject).managedFields).toEqual([entry()]);
  });
});
