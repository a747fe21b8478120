/**
 * Upstream test/integration/validation_test.go (TestCustomResourceItemsValidation,
 * TestZeroValueValidation) over HTTP: properties named `items` and `type` are data, not schema
 * keywords; zero values and nulls pass their schemas, and defaults fill the missing fields.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYAML } from "yaml";
import { startTestServer, type TestServer } from "../../../server/testing.ts";
import { createCRD } from "./fixtures-testing.ts";

/** Upstream's fixtureItemsAndType (without its v1beta1-era `spec.version`, which v1 does not have). */
const fixtureItemsAndType = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.tests.example.com
spec:
  group: tests.example.com
  names:
    plural: foos
    singular: foo
    kind: Foo
    listKind: Foolist
  scope: Cluster
  versions:
  - name: v1beta1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          items-no-type:
            type: object
            properties:
              items:
                type: array
                items:
                  type: object
          items-items-no-type:
            type: object
            properties:
              items:
                type: array
                items:
                  type: array
                  items:
                    type: object
          items-properties-items-no-type:
            type: object
            properties:
              items:
                type: array
                items:
                  type: object
                  properties:
                    items:
                      type: array
                      items:
                        type: object
          type-array-no-items:
            type: object
            properties:
              type:
                type: string
          items-and-type:
            type: object
            properties:
              type:
                type: string
              items:
                type: array
                items:
                  type: object
          default-with-items-and-no-type:
            type: object
            properties:
              type:
                type: string
              items:
                type: array
                items:
                  type: object
            default: {"items": []}
          issue-84880:
            type: object
            properties:
              volumes:
                type: array
                items:
                  type: object
                  properties:
                    downwardAPI:
                      type: object
                      properties:
                        items:
                          items:
                            properties:
                              path:
                                type: string
                            required:
                            - path
                            type: object
                          type: array
`;

/** TestZeroValueValidation's CRD manifest. */
const zerosCRD = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: zeros.tests.example.com
spec:
  group: tests.example.com
  names:
    plural: zeros
    singular: zero
    kind: Zero
    listKind: Zerolist
  scope: Cluster
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          string:
            type: string
          string_default:
            type: string
            default: ""
          string_null:
            type: string
            nullable: true

          boolean:
            type: boolean
          boolean_default:
            type: boolean
            default: false
          boolean_null:
            type: boolean
            nullable: true

          number:
            type: number
          number_default:
            type: number
            default: 0.0
          number_null:
            type: number
            nullable: true

          integer:
            type: integer
          integer_default:
            type: integer
            default: 0
          integer_null:
            type: integer
            nullable: true

          array:
            type: array
            items:
              type: string
          array_default:
            type: array
            items:
              type: string
            default: []
          array_null:
            type: array
            nullable: true
            items:
              type: string

          object:
            type: object
            properties:
              a:
                type: string
          object_default:
            type: object
            properties:
              a:
                type: string
            default: {}
          object_null:
            type: object
            nullable: true
            properties:
              a:
                type: string
`;

describe("apiextensions validation_test (items and zero values)", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    await createCRD(s, parseYAML(fixtureItemsAndType) as Record<string, unknown>);
    await createCRD(s, parseYAML(zerosCRD) as Record<string, unknown>);
  });
  afterAll(async () => {
    await s?.close();
  });

  it("TestCustomResourceItemsValidation: fields named items and type are validated as data", async () => {
    const r = await s.send("POST", "/apis/tests.example.com/v1beta1/foos", {
      apiVersion: "tests.example.com/v1beta1",
      kind: "Foo",
      metadata: { name: "foo" },
      "items-no-type": { items: [{}] },
      "items-items-no-type": { items: [[{}]] },
      "items-properties-items-no-type": { items: [{ items: [{}] }] },
      "type-array-no-items": { type: "array" },
      "items-and-type": { items: [{}], type: "array" },
      "issue-84880": { volumes: [{ downwardAPI: { items: [{ path: "annotations" }] } }] },
    });
    expect(r.status, r.text).toBe(201);
    expect((r.json() as Record<string, unknown>)["default-with-items-and-no-type"]).toEqual({ items: [] });
  });

  it("TestZeroValueValidation: zero values and nulls are kept, defaults are added", async () => {
    const zeros = {
      string: "",
      string_null: null,
      boolean: false,
      boolean_null: null,
      number: 0,
      number_null: null,
      integer: 0,
      integer_null: null,
      array: [],
      array_null: null,
      object: {},
      object_null: null,
    };
    const r = await s.send("POST", "/apis/tests.example.com/v1/zeros", {
      apiVersion: "tests.example.com/v1",
      kind: "Zero",
      metadata: { name: "myzero" },
      ...zeros,
    });
    expect(r.status, r.text).toBe(201);
    const { metadata: _m, ...created } = r.json() as Record<string, unknown>;
    expect(created).toEqual({
      apiVersion: "tests.example.com/v1",
      kind: "Zero",
      ...zeros,
      string_default: "",
      boolean_default: false,
      number_default: 0,
      integer_default: 0,
      array_default: [],
      object_default: {},
    });
  });
});
