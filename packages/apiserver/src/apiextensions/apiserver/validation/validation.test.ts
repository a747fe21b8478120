/**
 * validation_test.go (TestValidateCustomResource) and ratcheting_test.go of apiextensions-apiserver
 * pkg/apiserver/validation: values against schemas, the field errors kubeOpenAPIResultToFieldErrors
 * makes of kube-openapi's, and ratcheting on update.
 */
import { fieldErrorString } from "@servicenet/api";
import type { JSONSchemaProps } from "@servicenet/api/apiextensions/v1";
import { describe, expect, it } from "vitest";
import { validateCustomResource, validateCustomResourceUpdate } from "./validation.ts";

const obj = (props: Record<string, JSONSchemaProps>, extra: JSONSchemaProps = {}): JSONSchemaProps => ({
  type: "object",
  properties: props,
  ...extra,
});
const messages = (schema: JSONSchemaProps, value: unknown): string[] => validateCustomResource(value, schema).map(fieldErrorString);

describe("ValidateCustomResource", () => {
  it.each<[string, JSONSchemaProps, unknown, string[]]>([
    ["integer accepts an integral number", obj({ n: { type: "integer" } }), { n: 3 }, []],
    ["number accepts an integer", obj({ n: { type: "number" } }), { n: 3 }, []],
    [
      "null for a non-nullable field",
      obj({ s: { type: "string" } }),
      { s: null },
      ['s: Invalid value: "null": s in body must be of type string: "null"'],
    ],
    ["null for a nullable field", obj({ s: { type: "string", nullable: true } }), { s: null }, []],
    [
      "boolean for a string",
      obj({ s: { type: "string" } }),
      { s: true },
      ['s: Invalid value: "boolean": s in body must be of type string: "boolean"'],
    ],
    ["int-or-string takes both", obj({ p: { "x-kubernetes-int-or-string": true } }), { p: "http" }, []],
    [
      "exclusive minimum",
      obj({ n: { type: "number", minimum: 1.5, exclusiveMinimum: true } }),
      { n: 1.5 },
      ["n: Invalid value: 1.5: n in body should be greater than 1.5"],
    ],
    ["enum of numbers", obj({ n: { type: "integer", enum: [1, 2] } }), { n: 3 }, ['n: Unsupported value: 3: supported values: "1", "2"']],
    [
      "minItems",
      obj({ l: { type: "array", minItems: 1, items: { type: "string" } } }),
      { l: [] },
      ["l: Invalid value: 0: l in body should have at least 1 items"],
    ],
    [
      "minProperties",
      obj({ m: { type: "object", minProperties: 1 } }),
      { m: {} },
      ["m: Invalid value: 0: m in body should have at least 1 properties"],
    ],
    ["multipleOf", obj({ n: { type: "integer", multipleOf: 5 } }), { n: 7 }, ["n: Invalid value: 7: n in body should be a multiple of 5"]],
    [
      "date-time format",
      obj({ t: { type: "string", format: "date-time" } }),
      { t: "2024-13-01T00:00:00Z" },
      ['t: Invalid value: "2024-13-01T00:00:00Z": t in body must be of type date-time: "2024-13-01T00:00:00Z"'],
    ],
    ["unsupported formats are ignored", obj({ t: { type: "string", format: "int-or-string" } }), { t: "x" }, []],
    ["required at the root", obj({}, { required: ["spec"] }), {}, ["spec: Required value"]],
    ["wrong type at the root", obj({}), "x", ['<nil>: Invalid value: "string":  in body must be of type object: "string"']],
  ])("%s", (_name, schema, value, want) => {
    expect(messages(schema, value)).toEqual(want);
  });
});

describe("ValidateCustomResourceUpdate (ratcheting)", () => {
  const schema = obj({
    ports: {
      type: "array",
      "x-kubernetes-list-type": "map",
      "x-kubernetes-list-map-keys": ["port"],
      items: obj({ port: { type: "integer" }, name: { type: "string", maxLength: 2 } }),
    },
    atomic: { type: "array", items: { type: "string", maxLength: 2 } },
  });

  it("an unchanged invalid map-list item is kept even when the list is reordered", () => {
    const old = { ports: [{ port: 1, name: "long" }, { port: 2 }] };
    const now = {
      ports: [
        { port: 2, name: "ok" },
        { port: 1, name: "long" },
      ],
    };
    expect(validateCustomResourceUpdate(now, old, schema)).toEqual([]);
  });

  it("a changed item is validated", () => {
    const old = { ports: [{ port: 1, name: "long" }] };
    const now = { ports: [{ port: 1, name: "longer" }] };
    expect(validateCustomResourceUpdate(now, old, schema).map(fieldErrorString)).toEqual([
      "ports[0].name: Too long: may not be more than 2 bytes",
    ]);
  });

  it("items of atomic lists do not correlate: a changed list is validated whole", () => {
    const old = { atomic: ["long"] };
    expect(validateCustomResourceUpdate({ atomic: ["long", "ok"] }, old, schema).map(fieldErrorString)).toEqual([
      "atomic[0]: Too long: may not be more than 2 bytes",
    ]);
    expect(validateCustomResourceUpdate({ atomic: ["long"] }, old, schema)).toEqual([]);
  });

  it("a reordered map list is unchanged: its maxItems failure is kept (equality.go CachedDeepEqual)", () => {
    const capped = obj({ ports: { ...(schema.properties!["ports"] as object), maxItems: 1 } });
    const old = { ports: [{ port: 1 }, { port: 2 }] };
    expect(validateCustomResourceUpdate({ ports: [{ port: 2 }, { port: 1 }] }, old, capped)).toEqual([]);
    expect(validateCustomResourceUpdate({ ports: [{ port: 2 }, { port: 3 }] }, old, capped).map(fieldErrorString)).toEqual([
      "ports: Too many: 2: must have at most 1 item",
    ]);
  });

  it("the root's apiVersion and kind are validated even unchanged (ratcheting.go isTypeMetaField)", () => {
    const typed = obj({
      apiVersion: { type: "string", pattern: "^g/v1$" },
      kind: { type: "string", enum: ["K"] },
      nested: obj({ apiVersion: { type: "string", pattern: "^g/v1$" } }),
      i: { type: "integer" },
    });
    const old = { apiVersion: "g/v2", kind: "L", nested: { apiVersion: "g/v2" }, i: 1 };
    expect(validateCustomResourceUpdate({ ...old, i: 2 }, old, typed).map(fieldErrorString)).toEqual([
      "apiVersion: Invalid value: \"g/v2\": apiVersion in body should match '^g/v1$'",
      'kind: Unsupported value: "L": supported values: "K"',
    ]);
    // Anywhere below the root (an embedded object's apiVersion) they ratchet as any field does;
    // an unchanged object ratchets whole.
    expect(validateCustomResourceUpdate(old, old, typed)).toEqual([]);
  });
});
