import { describe, expect, it } from "vitest";
import type { FieldSchema } from "./field-schema.ts";
import { toFieldSet } from "./fieldpath.ts";
import { toFieldsV1 } from "./fieldpath-serialize.ts";

const obj = {
  apiVersion: "example.com/v1",
  kind: "Widget",
  metadata: { name: "w", labels: { a: "1" } },
  spec: { size: 1, extra: { deep: { x: 1 } }, byName: { one: { port: 80 } } },
};

const fieldsV1 = (schema?: FieldSchema): unknown => toFieldsV1(toFieldSet("Widget", obj, schema));

// structured-merge-diff typed/tofieldset.go (toFieldSetWalker.visitMapItems): a key its map type
// does not declare is a member of the set, not only the leaves below it.
describe("toFieldSet with a custom resource's schema", () => {
  it.each<[string, FieldSchema | undefined, unknown]>([
    [
      "no schema (a typed object): leaves only",
      undefined,
      {
        "f:metadata": { "f:labels": { "f:a": {} } },
        "f:spec": { "f:byName": { "f:one": { "f:port": {} } }, "f:extra": { "f:deep": { "f:x": {} } }, "f:size": {} },
      },
    ],
    [
      "a preserve-unknown-fields root: every field below it",
      { type: "object", "x-kubernetes-preserve-unknown-fields": true },
      {
        "f:metadata": { "f:labels": { "f:a": {} } },
        "f:spec": {
          ".": {},
          "f:byName": { ".": {}, "f:one": { ".": {}, "f:port": {} } },
          "f:extra": { ".": {}, "f:deep": { ".": {}, "f:x": {} } },
          "f:size": {},
        },
      },
    ],
    [
      "declared properties, additionalProperties and preserve-unknown-fields below",
      {
        type: "object",
        properties: {
          spec: {
            type: "object",
            properties: {
              size: { type: "integer" },
              extra: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
              byName: { type: "object", additionalProperties: { type: "object", properties: { port: { type: "integer" } } } },
            },
          },
        },
      },
      {
        "f:metadata": { "f:labels": { "f:a": {} } },
        "f:spec": { "f:byName": { "f:one": { ".": {}, "f:port": {} } }, "f:extra": { "f:deep": { ".": {}, "f:x": {} } }, "f:size": {} },
      },
    ],
  ])("%s", (_name, schema, want) => {
    expect(fieldsV1(schema)).toEqual(want);
  });
});
