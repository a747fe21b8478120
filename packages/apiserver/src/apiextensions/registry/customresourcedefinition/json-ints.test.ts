import { describe, expect, it } from "vitest";
import { parseJSON } from "../../../util/json/json.ts";
import { retypeCRDInts } from "./json-ints.ts";

const max = "9223372036854775807";

describe("retypeCRDInts", () => {
  it.each<[string, string, unknown]>([
    ["default", `{"default":${max}}`, { default: 2n ** 63n - 1n }],
    ["enum and example", `{"enum":[${max}],"example":{"a":${max}}}`, { enum: [2n ** 63n - 1n], example: { a: 2n ** 63n - 1n } }],
    // maximum is a float64 and maxLength an int64 struct field: JSON.parse's numbers.
    ["maximum and maxLength", `{"maximum":${max},"maxLength":${max}}`, { maximum: 2 ** 63, maxLength: 2 ** 63 }],
    // A property named default is a schema, not a JSON field.
    [
      "a property named default",
      `{"properties":{"default":{"maximum":${max},"default":${max}}}}`,
      { properties: { default: { maximum: 2 ** 63, default: 2n ** 63n - 1n } } },
    ],
    [
      "items, allOf, additionalProperties",
      `{"items":{"default":${max}},"allOf":[{"minimum":${max}}],"additionalProperties":{"default":${max}}}`,
      {
        items: { default: 2n ** 63n - 1n },
        allOf: [{ minimum: 2 ** 63 }],
        additionalProperties: { default: 2n ** 63n - 1n },
      },
    ],
  ])("%s", (_name, schema, want) => {
    const crd = parseJSON(
      `{"metadata":{"generation":${max}},"spec":{"versions":[{"name":"v1","schema":{"openAPIV3Schema":${schema}}}]}}`,
    ) as Record<string, unknown>;
    retypeCRDInts(crd);
    expect(crd).toStrictEqual({
      metadata: { generation: 2 ** 63 },
      spec: { versions: [{ name: "v1", schema: { openAPIV3Schema: want } }] },
    });
  });
});
