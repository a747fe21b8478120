import type { CustomResourceDefinition, JSONSchemaProps } from "@servicenet/api/apiextensions/v1";
import { describe, expect, it } from "vitest";
import { buildCRDOpenAPI, buildKubeNative, buildListSchema, definitionName } from "./builder.ts";

function crd(schema: JSONSchemaProps | undefined, extra: Partial<CustomResourceDefinition["spec"]> = {}): CustomResourceDefinition {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "foos.bar.k8s.io" },
    spec: {
      group: "bar.k8s.io",
      names: { plural: "foos", singular: "foo", kind: "Foo", listKind: "FooList" },
      scope: "Namespaced",
      versions: [{ name: "v1", served: true, storage: true, ...(schema ? { schema: { openAPIV3Schema: schema } } : {}) }],
      ...extra,
    },
  };
}

const gvk = [{ group: "bar.k8s.io", kind: "Foo", version: "v1" }];

/** Drops the TypeMeta/ObjectMeta descriptions, as upstream's TestNewBuilder does. */
function withoutMetaDocs(s: Record<string, unknown>): Record<string, unknown> {
  const props = { ...(s.properties as Record<string, Record<string, unknown>> | undefined) };
  for (const f of ["apiVersion", "kind", "metadata"]) {
    if (props[f] === undefined) continue;
    const { description: _d, ...rest } = props[f];
    props[f] = rest;
  }
  return s.properties === undefined ? s : { ...s, properties: props };
}

const meta2 = { $ref: "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta" };
const meta3 = { allOf: [{ $ref: "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta" }] };
const str = { type: "string" };
const intOrStr = [{ type: "integer" }, { type: "string" }];

const extensions: JSONSchemaProps = {
  type: "object",
  properties: {
    "int-or-string-1": { "x-kubernetes-int-or-string": true, anyOf: intOrStr },
    "int-or-string-2": { "x-kubernetes-int-or-string": true, allOf: [{ anyOf: intOrStr }, { anyOf: [{ minimum: 42 }] }] },
    "int-or-string-3": { "x-kubernetes-int-or-string": true, anyOf: intOrStr, allOf: [{ anyOf: [{ minimum: 42 }] }] },
    "int-or-string-4": { "x-kubernetes-int-or-string": true, anyOf: [{ minimum: 42 }] },
    "int-or-string-5": { "x-kubernetes-int-or-string": true, anyOf: [{ minimum: 42 }], allOf: [{ minimum: 42 }] },
    "int-or-string-6": { "x-kubernetes-int-or-string": true },
    "preserve-unknown-fields": { "x-kubernetes-preserve-unknown-fields": true },
    "embedded-object": { "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true, type: "object" },
  },
};

// TestNewBuilder (builder_test.go), with v2 as ToStructuralOpenAPIV2 now converts it.
const cases: { name: string; schema?: JSONSchemaProps; v2: boolean; want: Record<string, unknown> }[] = [
  { name: "nil", v2: true, want: { type: "object", "x-kubernetes-group-version-kind": gvk } },
  {
    name: "with properties",
    schema: { type: "object", properties: { spec: { type: "object" }, status: { type: "object" } } },
    v2: true,
    want: {
      type: "object",
      properties: { apiVersion: str, kind: str, metadata: meta2, spec: { type: "object" }, status: { type: "object" } },
      "x-kubernetes-group-version-kind": gvk,
    },
  },
  {
    name: "type only",
    schema: { type: "object" },
    v2: true,
    want: { type: "object", properties: { apiVersion: str, kind: str, metadata: meta2 }, "x-kubernetes-group-version-kind": gvk },
  },
  {
    name: "preserve unknown at root v2",
    schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
    v2: true,
    want: { type: "object", "x-kubernetes-group-version-kind": gvk },
  },
  {
    name: "preserve unknown at root v3",
    schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
    v2: false,
    want: {
      type: "object",
      "x-kubernetes-preserve-unknown-fields": true,
      properties: { apiVersion: str, kind: str, metadata: meta3 },
      "x-kubernetes-group-version-kind": gvk,
    },
  },
  {
    name: "with extensions",
    schema: extensions,
    v2: true,
    want: {
      type: "object",
      properties: {
        apiVersion: str,
        kind: str,
        metadata: meta2,
        ...Object.fromEntries([1, 2, 3, 4, 5, 6].map((i) => [`int-or-string-${i}`, { "x-kubernetes-int-or-string": true }])),
        "preserve-unknown-fields": { "x-kubernetes-preserve-unknown-fields": true },
        // kubectl's v2 reader cannot take an object that keeps unknown fields: no type.
        "embedded-object": { "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true },
      },
      "x-kubernetes-group-version-kind": gvk,
    },
  },
  {
    name: "with extensions as v3 schema",
    schema: extensions,
    v2: false,
    want: {
      type: "object",
      properties: {
        apiVersion: str,
        kind: str,
        metadata: meta3,
        "int-or-string-1": { "x-kubernetes-int-or-string": true, anyOf: intOrStr },
        "int-or-string-2": { "x-kubernetes-int-or-string": true, allOf: [{ anyOf: intOrStr }, { anyOf: [{ minimum: 42 }] }] },
        "int-or-string-3": { "x-kubernetes-int-or-string": true, anyOf: intOrStr, allOf: [{ anyOf: [{ minimum: 42 }] }] },
        "int-or-string-4": { "x-kubernetes-int-or-string": true, allOf: [{ anyOf: intOrStr }], anyOf: [{ minimum: 42 }] },
        "int-or-string-5": { "x-kubernetes-int-or-string": true, anyOf: [{ minimum: 42 }], allOf: [{ anyOf: intOrStr }, { minimum: 42 }] },
        "int-or-string-6": { "x-kubernetes-int-or-string": true, anyOf: intOrStr },
        "preserve-unknown-fields": { "x-kubernetes-preserve-unknown-fields": true },
        "embedded-object": {
          "x-kubernetes-embedded-resource": true,
          "x-kubernetes-preserve-unknown-fields": true,
          type: "object",
          required: ["kind", "apiVersion"],
          properties: {
            apiVersion: {
              description:
                "apiVersion defines the versioned schema of this representation of an object. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources",
              type: "string",
            },
            kind: {
              description:
                "kind is a string value representing the type of this object. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds",
              type: "string",
            },
            metadata: {
              description:
                "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata",
              allOf: [{ $ref: "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta" }],
            },
          },
        },
      },
      "x-kubernetes-group-version-kind": gvk,
    },
  },
];

describe("TestNewBuilder", () => {
  it.each(cases)("$name", ({ schema, v2, want }) => {
    expect(withoutMetaDocs(buildKubeNative(crd(schema), "v1", { v2 }))).toEqual(want);
    const list = buildListSchema(crd(schema), "v1", { v2 });
    expect(Object.keys(list.properties as object).sort()).toEqual(["apiVersion", "items", "kind", "metadata"]);
    expect((list.properties as { items: { items: unknown } }).items.items).toEqual({
      $ref: `${v2 ? "#/definitions/" : "#/components/schemas/"}io.k8s.bar.v1.Foo`,
    });
  });

  it("drops what a structural schema does not carry, keeps descriptions and validations", () => {
    const s = buildKubeNative(
      crd({
        type: "object",
        description: "Foo is a foo.",
        properties: {
          spec: { type: "object", example: { a: 1 }, "x-kubernetes-validations": [{ rule: "self.a > 0" }] } as JSONSchemaProps,
        },
      }),
      "v1",
      { v2: false },
    );
    expect(s.description).toBe("Foo is a foo.");
    expect((s.properties as Record<string, unknown>).spec).toEqual({
      type: "object",
      "x-kubernetes-validations": [{ rule: "self.a > 0" }],
    });
  });

  it("v2 leaves out the properties of a CRD with spec.preserveUnknownFields", () => {
    const s = buildKubeNative(crd({ type: "object", properties: { spec: { type: "object" } } }, { preserveUnknownFields: true }), "v1", {
      v2: true,
    });
    expect(s).toEqual({ type: "object", "x-kubernetes-group-version-kind": gvk });
  });
});

describe("buildListSchema", () => {
  it("describes the list kind with upstream's texts", () => {
    expect(buildListSchema(crd({ type: "object" }), "v1", { v2: true })).toMatchObject({
      description: "FooList is a list of Foo",
      required: ["items"],
      properties: {
        items: {
          type: "array",
          description: "List of foos. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md",
        },
        metadata: {
          $ref: "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta",
          description:
            "Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds",
        },
      },
      "x-kubernetes-group-version-kind": [{ group: "bar.k8s.io", kind: "FooList", version: "v1" }],
    });
  });
});

describe("definitionName", () => {
  it.each([
    ["bar.k8s.io", "io.k8s.bar.v1.Foo"],
    ["stable.example.com", "com.example.stable.v1.Foo"],
    ["foo-group.example", "example.foo-group.v1.Foo"],
  ])("%s", (group, want) => expect(definitionName(group, "v1", "Foo")).toBe(want));
});

// TestCRDRouteParameterBuilder (builder_test.go).
describe("TestCRDRouteParameterBuilder", () => {
  const sub = { subresources: { status: {}, scale: { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas" } } };
  const withSubresources = (scope: string): CustomResourceDefinition => {
    const c = crd({ type: "object" }, { scope });
    c.spec.versions = [{ ...c.spec.versions[0]!, ...sub }];
    return c;
  };
  const cases = [
    {
      scope: "Namespaced",
      paths: {
        "/apis/bar.k8s.io/v1/foos": { ns: false, name: false, actions: ["list"] },
        "/apis/bar.k8s.io/v1/namespaces/{namespace}/foos": { ns: true, name: false, actions: ["deletecollection", "list", "post"] },
        "/apis/bar.k8s.io/v1/namespaces/{namespace}/foos/{name}": { ns: true, name: true, actions: ["delete", "get", "patch", "put"] },
        "/apis/bar.k8s.io/v1/namespaces/{namespace}/foos/{name}/scale": { ns: true, name: true, actions: ["get", "patch", "put"] },
        "/apis/bar.k8s.io/v1/namespaces/{namespace}/foos/{name}/status": { ns: true, name: true, actions: ["get", "patch", "put"] },
      },
    },
    {
      scope: "Cluster",
      paths: {
        "/apis/bar.k8s.io/v1/foos": { ns: false, name: false, actions: ["deletecollection", "list", "post"] },
        "/apis/bar.k8s.io/v1/foos/{name}": { ns: false, name: true, actions: ["delete", "get", "patch", "put"] },
        "/apis/bar.k8s.io/v1/foos/{name}/scale": { ns: false, name: true, actions: ["get", "patch", "put"] },
        "/apis/bar.k8s.io/v1/foos/{name}/status": { ns: false, name: true, actions: ["get", "patch", "put"] },
      },
    },
  ];
  it.each(cases)("$scope", ({ scope, paths }) => {
    const spec = buildCRDOpenAPI(withSubresources(scope), "v1", { v2: true });
    expect(Object.keys(spec.paths).sort()).toEqual(Object.keys(paths).sort());
    for (const [path, want] of Object.entries(paths)) {
      const item = spec.paths[path] as Record<string, { "x-kubernetes-action": string; "x-kubernetes-group-version-kind": unknown }>;
      const params = (item.parameters as unknown as { name: string }[]).map((p) => p.name);
      expect(params.includes("namespace"), path).toBe(want.ns);
      expect(params.includes("name"), path).toBe(want.name);
      const ops = Object.entries(item).filter(([k]) => k !== "parameters");
      expect(ops.map(([, o]) => o["x-kubernetes-action"]).sort(), path).toEqual(want.actions);
      for (const [, o] of ops) expect(o["x-kubernetes-group-version-kind"]).toEqual(gvk[0]);
    }
  });

  it("names operations and tags as GetOperationIDAndTags does, with the scale subresource on autoscaling/v1 Scale", () => {
    const spec = buildCRDOpenAPI(withSubresources("Namespaced"), "v1", { v2: false });
    type Op = { operationId: string; tags: string[]; responses: { "200": { content: Record<string, { schema: unknown }> } } };
    const path = (p: string, m: string): Op => (spec.paths[p] as Record<string, Op>)[m]!;
    expect(path("/apis/bar.k8s.io/v1/foos", "get").operationId).toBe("listBarV1FooForAllNamespaces");
    expect(path("/apis/bar.k8s.io/v1/namespaces/{namespace}/foos/{name}/status", "patch").operationId).toBe(
      "patchBarV1NamespacedFooStatus",
    );
    expect(path("/apis/bar.k8s.io/v1/namespaces/{namespace}/foos", "post").tags).toEqual(["bar_v1"]);
    expect(
      path("/apis/bar.k8s.io/v1/namespaces/{namespace}/foos/{name}/scale", "get").responses["200"].content["application/json"],
    ).toEqual({
      schema: { $ref: "#/components/schemas/io.k8s.api.autoscaling.v1.Scale" },
    });
    expect(spec.gv).toBe("apis/bar.k8s.io/v1");
    expect(Object.keys(spec.definitions)).toEqual(["io.k8s.bar.v1.Foo", "io.k8s.bar.v1.FooList"]);
  });
});

describe("GetOperationIDAndTags of a dotted group", () => {
  it("capitalises each part of stable.example.com and v1beta1", () => {
    const c = crd({ type: "object" }, { group: "stable.example.com" });
    c.spec.versions = [{ ...c.spec.versions[0]!, name: "v1beta1" }];
    const spec = buildCRDOpenAPI(c, "v1beta1", { v2: true });
    const post = (
      spec.paths["/apis/stable.example.com/v1beta1/namespaces/{namespace}/foos"] as Record<string, { operationId: string; tags: string[] }>
    ).post!;
    expect(post.operationId).toBe("createStableExampleComV1beta1NamespacedFoo");
    expect(post.tags).toEqual(["stableExampleCom_v1beta1"]);
  });
});

// builder_test.go TestNewBuilder / TestBuildOpenAPIV2 with IncludeSelectableFields: the kind and its list carry them.
describe("buildSelectableFields", () => {
  const selectable = crd(
    { type: "object", "x-kubernetes-preserve-unknown-fields": true },
    {
      versions: [
        {
          name: "v1",
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true } },
          selectableFields: [{ jsonPath: ".spec.color" }, { jsonPath: ".spec.quantity" }],
        },
      ],
    },
  );
  const want = [{ fieldPath: "spec.color" }, { fieldPath: "spec.quantity" }];
  it.each([true, false])("v2=%s: on the kind (also when v2 publishes only type: object) and on the list", (v2) => {
    expect(buildKubeNative(selectable, "v1", { v2 })["x-kubernetes-selectable-fields"]).toEqual(want);
    expect(buildListSchema(selectable, "v1", { v2 })["x-kubernetes-selectable-fields"]).toEqual(want);
  });
  it("absent without selectableFields", () => {
    expect(buildKubeNative(crd({ type: "object" }), "v1", { v2: false })).not.toHaveProperty("x-kubernetes-selectable-fields");
  });
});
