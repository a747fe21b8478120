/**
 * The schemas and helpers of upstream test/integration/apiserver/crd_validation_expressions_test.go
 * (crdWithSchema and the structuralSchemaWith* documents), for its reproduction over HTTP.
 */
import { expect } from "vitest";
import type { TestServer } from "../../../server/testing.ts";
import { createCRD } from "./fixtures-testing.ts";

type Schema = Record<string, unknown>;

/** crdWithSchema: a cluster-scoped `<kind>s.mygroup.example.com`, v1beta1 with a status subresource. */
export function crdWithSchema(kind: string, openAPIV3Schema: Schema): Record<string, unknown> {
  const plural = `${kind.toLowerCase()}s`;
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `${plural}.mygroup.example.com` },
    spec: {
      group: "mygroup.example.com",
      versions: [{ name: "v1beta1", served: true, storage: true, schema: { openAPIV3Schema }, subresources: { status: {} } }],
      names: { plural, kind },
      scope: "Cluster",
    },
  };
}

/** A client of one CRD's custom resources (the dynamic client of the upstream test). */
export interface CRClient {
  path: string;
  create(name: string, spec: unknown): Promise<{ status: number; body: Record<string, unknown>; message: string }>;
  update(cr: Record<string, unknown>, subresource?: "status"): Promise<{ status: number; message: string }>;
}

/** Creates the CRD of `kind` (Established) and returns a client of its objects. */
export async function createCRDWithSchema(s: TestServer, kind: string, schema: Schema): Promise<CRClient> {
  await createCRD(s, crdWithSchema(kind, schema));
  const path = `/apis/mygroup.example.com/v1beta1/${kind.toLowerCase()}s`;
  const answer = (r: { status: number; json(): unknown }) => {
    const body = r.json() as Record<string, unknown>;
    const message = body["message"];
    return { status: r.status, body, message: typeof message === "string" ? message : "" };
  };
  return {
    path,
    create: async (name, spec) =>
      answer(await s.send("POST", path, { apiVersion: "mygroup.example.com/v1beta1", kind, metadata: { name }, spec })),
    update: async (cr, subresource) => {
      const name = (cr["metadata"] as { name: string }).name;
      return answer(await s.send("PUT", `${path}/${name}${subresource ? `/${subresource}` : ""}`, cr));
    },
  };
}

/** Expects a 422 whose message contains `want` (upstream's strings.Contains on err.Error()). */
export function expectInvalid(r: { status: number; message: string }, want: string): void {
  expect(r.status, r.message).toBe(422);
  expect(r.message).toContain(want);
}

const xy = { x: { type: "integer", default: 0 }, y: { type: "integer", default: 0 } };
const startsWithAnything = [{ rule: "self.startsWith('anything')" }];
const selfXY = { rule: "self.spec.x + self.spec.y >= (has(self.status) ? self.status.z : 0)" };
const status = { type: "object", properties: { z: { type: "integer", default: 0 } } };
const limit = {
  nullable: true,
  "x-kubernetes-validations": [{ rule: "type(self) == int && self == 123" }],
  "x-kubernetes-int-or-string": true,
};

/** structuralSchemaWithValidators. */
export const structuralSchemaWithValidators: Schema = {
  description: "CRD with CEL validators",
  type: "object",
  "x-kubernetes-validations": [selfXY],
  properties: {
    spec: {
      type: "object",
      properties: {
        ...xy,
        extra: { type: "string", "x-kubernetes-validations": startsWithAnything },
        floatMap: {
          type: "object",
          additionalProperties: { type: "number" },
          "x-kubernetes-validations": [{ rule: "self.all(k, self[k] >= 0.2)" }],
        },
        assocList: {
          type: "array",
          maxItems: 100,
          items: {
            type: "object",
            properties: { k: { type: "string", maxLength: 200 }, v: { type: "string", maxLength: 200 } },
            required: ["k"],
          },
          "x-kubernetes-list-type": "map",
          "x-kubernetes-list-map-keys": ["k"],
          "x-kubernetes-validations": [{ rule: "self.exists(e, e.k == 'a' && e.v == '1')" }],
        },
        limit,
      },
    },
    status,
  },
};

/** structuralSchemaWithBlockingErr. */
export const structuralSchemaWithBlockingErr: Schema = {
  description: "CRD with CEL validators",
  type: "object",
  "x-kubernetes-validations": [{ ...selfXY, messageExpression: '"self.spec.x + self.spec.y must be greater than or equal to 0"' }],
  properties: {
    spec: {
      type: "object",
      properties: {
        ...xy,
        extra: { type: "string", maxLength: 200, "x-kubernetes-validations": startsWithAnything },
        floatMap: {
          type: "object",
          maxProperties: 100,
          additionalProperties: { type: "number" },
          "x-kubernetes-validations": [{ rule: "self.all(k, self[k] >= 0.2)" }],
        },
        assocList: {
          type: "array",
          maxItems: 100,
          items: { type: "object", properties: { k: { type: "string" }, v: { type: "string" } }, required: ["k", "v"] },
          "x-kubernetes-list-type": "map",
          "x-kubernetes-list-map-keys": ["k"],
          "x-kubernetes-validations": [{ rule: "self.exists(e, e.k == 'a' && e.v == '1')" }],
        },
        limit,
      },
    },
    status,
  },
};

const backend = (type: "array" | "object"): Schema => ({
  description: "CRD with CEL validators",
  type: "object",
  properties: {
    spec: {
      type: "object",
      properties: {
        backend: {
          type,
          maxItems: 100,
          items: {
            type: "object",
            properties: { replicas: { type: "integer" } },
            required: ["replicas"],
            "x-kubernetes-validations": [{ rule: "0 <= self.replicas && self.replicas <= 10" }],
          },
        },
      },
    },
  },
});

/** structuralSchemaWithItemsUnderArray. */
export const structuralSchemaWithItemsUnderArray = backend("array");
/** structuralSchemaWithItemsUnderObject: `items` under an object, which v1 validation lets through. */
export const structuralSchemaWithItemsUnderObject = backend("object");

const withSpecStatus = (root: Schema, spec: Schema, statusSchema: Schema = { type: "object", properties: {} }): Schema => ({
  description: "CRD with CEL validators",
  type: "object",
  ...root,
  properties: { ...(root["properties"] ?? {}), spec, status: statusSchema },
});

const metadataSchema = (rule: string) =>
  withSpecStatus(
    { "x-kubernetes-validations": [{ rule }], properties: { metadata: { type: "object", properties: { name: { type: "string" } } } } },
    { type: "object", properties: {} },
  );

/** structuralSchemaWithValidMetadataValidators. */
export const structuralSchemaWithValidMetadataValidators = metadataSchema("self.metadata.name.size() > 3");
/** structuralSchemaWithInvalidMetadataValidators. */
export const structuralSchemaWithInvalidMetadataValidators = metadataSchema("self.metadata.labels.size() > 0");

/** structuralSchemaWithValidTransitionRule. */
export const structuralSchemaWithValidTransitionRule = withSpecStatus(
  {},
  {
    type: "object",
    properties: { someImmutableThing: { type: "string" }, somethingElse: { type: "string" } },
    "x-kubernetes-validations": [{ rule: "self.someImmutableThing == oldSelf.someImmutableThing" }],
  },
);

/** structuralSchemaWithInvalidTransitionRule. */
export const structuralSchemaWithInvalidTransitionRule = withSpecStatus(
  {},
  {
    type: "object",
    properties: { list: { type: "array", items: { type: "string", "x-kubernetes-validations": [{ rule: "self == oldSelf" }] } } },
  },
);

/** structuralSchemaWithDefaultMapKeyTransitionRule. */
export const structuralSchemaWithDefaultMapKeyTransitionRule = withSpecStatus(
  {},
  {
    type: "object",
    properties: {
      list: {
        type: "array",
        "x-kubernetes-list-map-keys": ["k1", "k2"],
        "x-kubernetes-list-type": "map",
        maxItems: 1000,
        items: {
          type: "object",
          properties: { k1: { type: "string" }, k2: { type: "string", default: "DEFAULT" }, v: { type: "string", maxLength: 200 } },
          required: ["k1"],
          "x-kubernetes-validations": [{ rule: "self.v == oldSelf.v" }],
        },
      },
    },
  },
);

/** structuralSchemaWithCostLimit. */
export const structuralSchemaWithCostLimit = withSpecStatus(
  {},
  {
    type: "object",
    properties: {
      list: {
        type: "array",
        maxItems: 725,
        items: { type: "integer" },
        "x-kubernetes-validations": [{ rule: "self.all(x, self.all(y, x == y))" }],
      },
    },
  },
);

/** structuralSchemaWithEmptyObject. */
export const structuralSchemaWithEmptyObject: Schema = {
  description: "weird CRD with empty spec, unstructured status. designed to fit test fixtures.",
  type: "object",
  "x-kubernetes-validations": [{ rule: "[has(self.spec), has(self.status)].exists_one(x, x)" }],
  properties: { spec: { type: "object" }, status: { type: "object", additionalProperties: true } },
};
