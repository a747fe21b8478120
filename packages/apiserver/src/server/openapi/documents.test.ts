import { describe, expect, it } from "vitest";
import * as core from "@servicenet/api/core/v1";
import * as discovery from "@servicenet/api/discovery/v1";
import * as net from "@servicenet/api/networking/v1";
import * as netbeta from "@servicenet/api/networking/v1beta1";
import { buildOpenAPI } from "./documents.ts";
import type { OpenAPIResource } from "./resource.ts";

type S = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const resources: OpenAPIResource[] = [
  {
    group: "",
    version: "v1",
    kind: "Service",
    resource: "services",
    namespaced: true,
    schema: core.ServiceSchema,
    listSchema: core.ServiceListSchema,
    subresources: ["status"],
  },
  {
    group: "",
    version: "v1",
    kind: "Pod",
    resource: "pods",
    namespaced: true,
    schema: core.PodSchema,
    listSchema: core.PodListSchema,
    subresources: ["status"],
    createSubresources: { binding: { kind: "Binding", schema: core.BindingSchema } },
  },
  {
    group: "",
    version: "v1",
    kind: "Node",
    resource: "nodes",
    namespaced: false,
    schema: core.NodeSchema,
    listSchema: core.NodeListSchema,
  },
  {
    group: "",
    version: "v1",
    kind: "Endpoints",
    resource: "endpoints",
    namespaced: true,
    schema: core.EndpointsSchema,
    listSchema: core.EndpointsListSchema,
  },
  {
    group: "discovery.k8s.io",
    version: "v1",
    kind: "EndpointSlice",
    resource: "endpointslices",
    namespaced: true,
    schema: discovery.EndpointSliceSchema,
    listSchema: discovery.EndpointSliceListSchema,
  },
  {
    group: "networking.k8s.io",
    version: "v1",
    kind: "ServiceCIDR",
    resource: "servicecidrs",
    namespaced: false,
    schema: net.ServiceCIDRSchema,
    listSchema: net.ServiceCIDRListSchema,
    subresources: ["status"],
  },
  { group: "networking.k8s.io", version: "v1", kind: "IPAddress", resource: "ipaddresses", namespaced: false, schema: net.IPAddressSchema },
  {
    group: "networking.k8s.io",
    version: "v1beta1",
    kind: "ServiceCIDR",
    resource: "servicecidrs",
    namespaced: false,
    schema: netbeta.ServiceCIDRSchema,
    listSchema: netbeta.ServiceCIDRListSchema,
  },
];

const docs = buildOpenAPI(resources);
const v3 = (gv: string): S => docs.v3.get(gv) as S;
const schemas = (gv: string): S => v3(gv).components.schemas;
const core1 = "io.k8s.api.core.v1.";

describe("buildOpenAPI v3", () => {
  it("publishes each group version's resource list (GET /api/v1/) as APIResourceList, and Status, under their unversioned v1 kinds", () => {
    const get = v3("apis/networking.k8s.io/v1").paths["/apis/networking.k8s.io/v1/"].get;
    expect(get.operationId).toBe("getNetworkingV1APIResources");
    expect(get.tags).toEqual(["networking_v1"]);
    expect(get.responses["200"].content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.APIResourceList",
    });
    expect(v3("api/v1").paths["/api/v1/"].get.operationId).toBe("getCoreV1APIResources");
    const meta = "io.k8s.apimachinery.pkg.apis.meta.v1.";
    expect(schemas("api/v1")[`${meta}APIResourceList`]["x-kubernetes-group-version-kind"]).toEqual([
      { group: "", kind: "APIResourceList", version: "v1" },
    ]);
    expect(schemas("api/v1")[`${meta}APIResource`].required).toEqual(["name", "singularName", "namespaced", "kind", "verbs"]);
    expect(schemas("api/v1")[`${meta}Status`]["x-kubernetes-group-version-kind"]).toEqual([{ group: "", kind: "Status", version: "v1" }]);
    const v2: S = docs.v2;
    expect(v2.paths["/apis/discovery.k8s.io/v1/"].get.operationId).toBe("getDiscoveryV1APIResources");
  });

  it("publishes a create-only subresource's POST with the kind it takes (pods/binding: createCoreV1NamespacedPodBinding, v1 Binding)", () => {
    const item = v3("api/v1").paths["/api/v1/namespaces/{namespace}/pods/{name}/binding"];
    expect(Object.keys(item).sort()).toEqual(["parameters", "post"]);
    expect(item.post.operationId).toBe("createCoreV1NamespacedPodBinding");
    expect(item.post["x-kubernetes-action"]).toBe("post");
    expect(item.post["x-kubernetes-group-version-kind"]).toEqual({ group: "", kind: "Binding", version: "v1" });
    expect(item.post.requestBody.content["application/json"].schema).toEqual({ $ref: `#/components/schemas/${core1}Binding` });
    expect(item.parameters[1].description).toBe("name of the Binding");
    expect(schemas("api/v1")[`${core1}Binding`]["x-kubernetes-group-version-kind"]).toEqual([
      { group: "", kind: "Binding", version: "v1" },
    ]);
  });

  it("has one document per group version", () => {
    expect([...docs.v3.keys()]).toEqual([
      "api/v1",
      "apis/discovery.k8s.io/v1",
      "apis/networking.k8s.io/v1",
      "apis/networking.k8s.io/v1beta1",
    ]);
  });

  it.each<[string, string, { group: string; kind: string; version: string }]>([
    ["api/v1", `${core1}Service`, { group: "", kind: "Service", version: "v1" }],
    ["api/v1", `${core1}ServiceList`, { group: "", kind: "ServiceList", version: "v1" }],
    ["api/v1", `${core1}Pod`, { group: "", kind: "Pod", version: "v1" }],
    [
      "apis/discovery.k8s.io/v1",
      "io.k8s.api.discovery.v1.EndpointSlice",
      { group: "discovery.k8s.io", kind: "EndpointSlice", version: "v1" },
    ],
    [
      "apis/networking.k8s.io/v1",
      "io.k8s.api.networking.v1.ServiceCIDR",
      { group: "networking.k8s.io", kind: "ServiceCIDR", version: "v1" },
    ],
    [
      "apis/networking.k8s.io/v1",
      "io.k8s.api.networking.v1.IPAddressList",
      { group: "networking.k8s.io", kind: "IPAddressList", version: "v1" },
    ],
    [
      "apis/networking.k8s.io/v1beta1",
      "io.k8s.api.networking.v1beta1.ServiceCIDR",
      { group: "networking.k8s.io", kind: "ServiceCIDR", version: "v1beta1" },
    ],
  ])("%s %s carries x-kubernetes-group-version-kind", (gv, def, gvk) => {
    expect(schemas(gv)[def]["x-kubernetes-group-version-kind"]).toEqual([gvk]);
  });

  it.each<[string, string, string, S]>([
    [
      "api/v1",
      `${core1}ServiceSpec`,
      "ports",
      {
        "x-kubernetes-list-type": "map",
        "x-kubernetes-list-map-keys": ["port", "protocol"],
        "x-kubernetes-patch-merge-key": "port",
        "x-kubernetes-patch-strategy": "merge",
      },
    ],
    ["api/v1", `${core1}ServiceSpec`, "clusterIPs", { "x-kubernetes-list-type": "atomic" }],
    ["api/v1", `${core1}ServiceSpec`, "ipFamilies", { "x-kubernetes-list-type": "atomic" }],
    ["api/v1", `${core1}ServiceSpec`, "selector", { "x-kubernetes-map-type": "atomic" }],
    ["api/v1", `${core1}PodSpec`, "containers", { "x-kubernetes-patch-merge-key": "name", "x-kubernetes-list-map-keys": ["name"] }],
    [
      "api/v1",
      `${core1}Container`,
      "ports",
      { "x-kubernetes-patch-merge-key": "containerPort", "x-kubernetes-list-map-keys": ["containerPort", "protocol"] },
    ],
    ["api/v1", `${core1}PodStatus`, "podIPs", { "x-kubernetes-patch-merge-key": "ip", "x-kubernetes-list-type": "map" }],
    ["api/v1", `${core1}NodeStatus`, "addresses", { "x-kubernetes-patch-merge-key": "type", "x-kubernetes-list-type": "atomic" }],
    ["api/v1", `${core1}EndpointsList`, "items", { type: "array" }],
    [
      "api/v1",
      "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta",
      "finalizers",
      { "x-kubernetes-list-type": "set", "x-kubernetes-patch-strategy": "merge" },
    ],
    ["api/v1", "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta", "ownerReferences", { "x-kubernetes-patch-merge-key": "uid" }],
    ["apis/discovery.k8s.io/v1", "io.k8s.api.discovery.v1.EndpointSlice", "endpoints", { "x-kubernetes-list-type": "atomic" }],
    [
      "apis/networking.k8s.io/v1",
      "io.k8s.api.networking.v1.ServiceCIDRStatus",
      "conditions",
      { "x-kubernetes-list-type": "map", "x-kubernetes-patch-merge-key": "type" },
    ],
  ])("%s %s.%s has the merge extensions", (gv, def, field, want) => {
    expect(schemas(gv)[def].properties[field]).toMatchObject(want);
  });

  it("keeps list extensions off the list items", () => {
    expect(schemas("api/v1")[`${core1}ServiceSpec`].properties.ports.items).toEqual({ $ref: `#/components/schemas/${core1}ServicePort` });
  });

  it("gives ipFamilyPolicy its enum and upstream's description", () => {
    const p = schemas("api/v1")[`${core1}ServiceSpec`].properties.ipFamilyPolicy;
    expect(p.type).toBe("string");
    expect(p.enum).toEqual(["PreferDualStack", "RequireDualStack", "SingleStack"]);
    expect(p.description).toMatch(/^IPFamilyPolicy represents the dual-stack-ness requested or required by this Service\./);
    expect(p.description).toContain('Possible enum values:\n - `"PreferDualStack"` indicates');
  });

  it("names nested types and references them, IntOrString included", () => {
    const port = schemas("api/v1")[`${core1}ServicePort`];
    expect(port.required).toEqual(["port"]);
    expect(port.properties.targetPort.allOf).toEqual([{ $ref: "#/components/schemas/io.k8s.apimachinery.pkg.util.intstr.IntOrString" }]);
    expect(schemas("api/v1")["io.k8s.apimachinery.pkg.util.intstr.IntOrString"]).toMatchObject({ type: "string", format: "int-or-string" });
    expect(schemas("apis/discovery.k8s.io/v1")["io.k8s.api.discovery.v1.Endpoint"]).toBeDefined();
  });

  it.each([...docs.v3.keys()])("every $ref of %s resolves inside the document", (gv) => {
    const refs = JSON.stringify(v3(gv)).match(/"\$ref":"[^"]+"/g) ?? [];
    for (const r of refs) expect(schemas(gv)).toHaveProperty([r.slice(8, -1).replace("#/components/schemas/", "")]);
  });

  it("publishes PATCH with fieldValidation, dryRun and force and the GVK kubectl looks for", () => {
    const patch = v3("api/v1").paths["/api/v1/namespaces/{namespace}/services/{name}"].patch;
    expect(patch["x-kubernetes-group-version-kind"]).toEqual({ group: "", kind: "Service", version: "v1" });
    expect(patch["x-kubernetes-action"]).toBe("patch");
    expect(patch.operationId).toBe("patchCoreV1NamespacedService");
    expect(patch.parameters.map((p: S) => `${p.in}:${p.name}`)).toEqual([
      "query:dryRun",
      "query:fieldManager",
      "query:fieldValidation",
      "query:force",
    ]);
    expect(Object.keys(patch.requestBody.content)).toContain("application/apply-patch+yaml");
    expect(v3("apis/networking.k8s.io/v1").paths["/apis/networking.k8s.io/v1/servicecidrs/{name}/status"].put.operationId).toBe(
      "replaceNetworkingV1ServiceCIDRStatus",
    );
    expect(v3("api/v1").paths["/api/v1/services"].get.operationId).toBe("listCoreV1ServiceForAllNamespaces");
  });
});

describe("buildOpenAPI v2", () => {
  const v2: S = docs.v2;
  it("is swagger 2.0 with every definition and #/definitions refs only", () => {
    expect(v2.swagger).toBe("2.0");
    const text = JSON.stringify(v2);
    expect(text).not.toContain("#/components/");
    expect(text).not.toContain('"allOf"');
    expect(Object.keys(v2.definitions)).toEqual(
      expect.arrayContaining([`${core1}Service`, "io.k8s.api.networking.v1beta1.ServiceCIDR", "io.k8s.api.discovery.v1.EndpointSlice"]),
    );
  });

  it("folds the description next to the $ref as kube-openapi v2 does", () => {
    expect(v2.definitions[`${core1}Service`].properties.spec).toEqual({
      $ref: `#/definitions/${core1}ServiceSpec`,
      description: expect.stringContaining("Spec defines the behavior of a service."),
    });
  });

  it("uses a body parameter for writes", () => {
    const put = v2.paths["/api/v1/namespaces/{namespace}/services/{name}"].put;
    expect(put.parameters[0]).toEqual({ name: "body", in: "body", required: true, schema: { $ref: `#/definitions/${core1}Service` } });
  });
});
