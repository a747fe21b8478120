/**
 * test/integration/apiserver/cel/typeresolution_test.go over HTTP: TestTypeResolver and
 * TestBuiltinResolution with the ClientDiscoveryResolver reading this server's /openapi/v3
 * (openapi/resolver/discovery-testing.ts). Upstream's second resolver, NewDefinitionsSchemaResolver, reads
 * the Go definitions compiled into the test binary; the in-process resolver over the same
 * documents is resolver.ts (resolver.test.ts).
 */
import { eventually } from "@servicenet/testing";
import type { JSONSchemaProps } from "@servicenet/api/apiextensions/v1";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { schemaDeclType, type ObjectTypes } from "../../apiextensions/apiserver/schema/cel/model/schemas.ts";
import { startTestServer, type TestServer } from "../../server/testing.ts";
import { CELEnvironment, type CompilationResult } from "./environment.ts";
import { ClientDiscoveryResolver } from "./openapi/resolver/discovery-testing.ts";
import type { GroupVersionKind } from "./openapi/resolver/resolver.ts";
import { fromCEL } from "./values.ts";

/** simpleCompileCEL: `expression` compiled with `self` declared as the schema's type. */
function simpleCompileCEL(schema: JSONSchemaProps, expression: string): CompilationResult {
  const types: ObjectTypes = {};
  const selfType = schemaDeclType(schema, types, "selfType");
  // Field types name nested object types: those are declared first.
  const objectTypes = Object.fromEntries(Object.entries(types).reverse());
  return new CELEnvironment({ objectTypes, variables: { self: selfType } }).compile(expression);
}

/** sampleReplicatedDeployment: a Deployment with 2 replicas, as runtime.DefaultUnstructuredConverter writes it. */
const sampleReplicatedDeployment = () => ({
  kind: "Deployment",
  apiVersion: "apps/v1",
  metadata: { name: "demo-deployment", creationTimestamp: null },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: "demo" } },
    template: {
      metadata: { labels: { app: "demo" }, creationTimestamp: null },
      spec: { containers: [{ name: "web", image: "nginx", ports: [{ name: "http", protocol: "TCP", containerPort: 80 }], resources: {} }] },
    },
    strategy: {},
  },
  status: {},
});

/** A Deployment whose rolling update's maxSurge is `maxSurge`. */
const deploymentWithMaxSurge = (maxSurge: number | string) => ({
  kind: "Deployment",
  apiVersion: "apps/v1",
  metadata: { creationTimestamp: null },
  spec: {
    selector: null,
    template: { metadata: { creationTimestamp: null }, spec: { containers: null } },
    strategy: { type: "RollingUpdate", rollingUpdate: { maxSurge } },
  },
  status: {},
});

const cronTab = {
  kind: "CronTab",
  apiVersion: "apis.example.com/v1beta1",
  spec: { cronSpec: "* * * * *", image: "foo-image", replicas: 2 },
};

/** installCRD: the CronTab of the custom resources task page, unknown fields preserved at the root. */
const crontabCRD = {
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: "crontabs.apis.example.com" },
  spec: {
    group: "apis.example.com",
    scope: "Namespaced",
    names: { plural: "crontabs", singular: "crontab", kind: "CronTab", listKind: "CronTabList" },
    versions: [
      {
        name: "v1beta1",
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            "x-kubernetes-preserve-unknown-fields": true,
            type: "object",
            properties: {
              spec: {
                type: "object",
                properties: { cronSpec: { type: "string" }, image: { type: "string" }, replicas: { type: "integer" } },
              },
            },
          },
        },
      },
    ],
  },
};

const gvkOf = (obj: { apiVersion: string; kind: string }): GroupVersionKind => {
  const slash = obj.apiVersion.indexOf("/");
  return slash === -1
    ? { group: "", version: obj.apiVersion, kind: obj.kind }
    : { group: obj.apiVersion.slice(0, slash), version: obj.apiVersion.slice(slash + 1), kind: obj.kind };
};

let s: TestServer;
let resolver: ClientDiscoveryResolver;
beforeAll(async () => {
  s = await startTestServer();
  resolver = new ClientDiscoveryResolver(async (path) => {
    const r = await s.request(path);
    if (r.status !== 200) throw new Error(`GET ${path}: ${r.status} ${r.text}`);
    return r.json();
  });
});
afterAll(async () => {
  await s?.close();
});

describe("TestTypeResolver", () => {
  beforeAll(async () => {
    expect((await s.send("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crontabCRD)).status).toBe(201);
    // wait until the CRD schema is published at the OpenAPI v3 endpoint
    await eventually(async () => {
      const paths = ((await s.request("/openapi/v3")).json() as { paths: Record<string, unknown> }).paths;
      return "apis/apis.example.com/v1beta1" in paths;
    });
  });
  afterAll(async () => {
    expect(
      (await s.request("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/crontabs.apis.example.com", { method: "DELETE" })).status,
    ).toBe(200);
  });

  interface Case {
    name: string;
    obj: { apiVersion: string; kind: string };
    expression?: string;
    expectResolutionErr?: boolean;
    expectCompileErr?: boolean;
    expectedResult?: unknown;
  }
  const cases: Case[] = [
    { name: "unknown type", obj: { kind: "Bad", apiVersion: "bad.example.com/v1" }, expectResolutionErr: true },
    // expect a boolean, which is `true`.
    { name: "deployment", obj: sampleReplicatedDeployment(), expression: "self.spec.replicas > 1", expectedResult: true },
    { name: "missing field", obj: sampleReplicatedDeployment(), expression: "self.spec.missing > 1", expectCompileErr: true },
    { name: "mistyped expression", obj: sampleReplicatedDeployment(), expression: "self.spec.replicas == '1'", expectCompileErr: true },
    { name: "crd valid", obj: cronTab, expression: "self.spec.replicas > 1", expectedResult: true },
    { name: "crd missing field", obj: cronTab, expression: "self.spec.missing > 1", expectCompileErr: true },
    { name: "crd mistyped", obj: cronTab, expression: "self.spec.replica == '1'", expectCompileErr: true },
    {
      name: "items population",
      obj: sampleReplicatedDeployment(),
      // `containers` is an array whose items are of `Container` type, `ports` an array of `ContainerPort`
      expression:
        "size(self.spec.template.spec.containers) > 0 &&" +
        "self.spec.template.spec.containers.all(c, c.ports.all(p, p.containerPort < 1024))",
      expectedResult: true,
    },
    {
      name: "int-or-string int",
      obj: deploymentWithMaxSurge(5),
      expression:
        "has(self.spec.strategy.rollingUpdate) &&" +
        "type(self.spec.strategy.rollingUpdate.maxSurge) == int &&" +
        "self.spec.strategy.rollingUpdate.maxSurge > 1",
      expectedResult: true,
    },
    {
      name: "int-or-string string",
      obj: deploymentWithMaxSurge("10%"),
      expression:
        "has(self.spec.strategy.rollingUpdate) &&" +
        "type(self.spec.strategy.rollingUpdate.maxSurge) == string &&" +
        "self.spec.strategy.rollingUpdate.maxSurge == '10%'",
      expectedResult: true,
    },
  ];

  it.each(cases)("$name", async (tc) => {
    const resolved = resolver.resolveSchema(gvkOf(tc.obj));
    if (tc.expectResolutionErr) {
      await expect(resolved).rejects.toThrow(/: schema not found$/);
      return;
    }
    const schema = await resolved;
    const compiled = simpleCompileCEL(schema, tc.expression!);
    if (tc.expectCompileErr) {
      expect(compiled.error?.detail).toMatch(/^compilation failed: /);
      return;
    }
    expect(compiled.error).toBeUndefined();
    expect(fromCEL(compiled.program!.evaluate({ self: tc.obj }).value)).toEqual(tc.expectedResult);
  });

  it("unknown type: the group version's error is upstream's", async () => {
    await expect(resolver.resolveSchema({ group: "bad.example.com", version: "v1", kind: "Bad" })).rejects.toThrow(
      'cannot resolve group version "bad.example.com/v1": schema not found',
    );
    await expect(resolver.resolveSchema({ group: "apps", version: "v1", kind: "Bad" })).rejects.toThrow(
      'cannot resolve group version kind "apps/v1, Kind=Bad": schema not found',
    );
  });
});

/** With each kind its List kind, as the types.go of the group versions declare them. */
const withLists = (...kinds: string[]): string[] => kinds.flatMap((k) => [k, `${k}List`]);

/**
 * buildTestScheme: the kinds of the hand-picked schemes upstream's test resolves (k8s.io/api's
 * register.go of core/v1, apps/v1, admissionregistration/v1, networking/v1, node/v1 and
 * storage/v1, and apiextensions.k8s.io/v1), with metav1.AddToGroupVersion's unversioned
 * Status and APIResourceList; the kinds the test skips (`*Options`, `*Event`, List,
 * SerializedReference, RangeAllocation, PodStatusResult, APIGroup, APIGroupList, APIVersions,
 * ConversionReview, apiextensions.k8s.io/v1beta1) are left out.
 */
const testScheme: Record<string, string[]> = {
  v1: [
    ...withLists("Pod", "PodTemplate", "ReplicationController", "Service", "Endpoints", "Node", "LimitRange", "ResourceQuota"),
    ...withLists("Namespace", "Secret", "ServiceAccount", "PersistentVolume", "PersistentVolumeClaim", "ComponentStatus", "ConfigMap"),
    ...["NodeConfigSource", "Binding", "EventList", "Status", "APIResourceList"],
  ],
  "apps/v1": withLists("Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "ControllerRevision"),
  "admissionregistration.k8s.io/v1": withLists(
    "ValidatingWebhookConfiguration",
    "MutatingWebhookConfiguration",
    "ValidatingAdmissionPolicy",
    "ValidatingAdmissionPolicyBinding",
  ),
  "networking.k8s.io/v1": withLists("Ingress", "NetworkPolicy", "IngressClass", "IPAddress", "ServiceCIDR"),
  "node.k8s.io/v1": withLists("RuntimeClass"),
  "storage.k8s.io/v1": withLists("StorageClass", "VolumeAttachment", "CSINode", "CSIDriver", "CSIStorageCapacity"),
  "apiextensions.k8s.io/v1": withLists("CustomResourceDefinition"),
};

/**
 * The kinds of the test scheme this server does not publish, each with why: the resources it does
 * not serve (discovery lists none of them, checked below), and NodeConfigSource, which only the
 * deprecated Node `spec.configSource` and `status.config` reference, fields this server's Node
 * schema does not have.
 */
const notPublished: Record<string, string> = {
  ...Object.fromEntries(
    [
      ...withLists("PodTemplate", "ReplicationController", "LimitRange", "ResourceQuota"),
      ...withLists("PersistentVolume", "PersistentVolumeClaim", "ComponentStatus"),
    ].map((k) => [`v1, Kind=${k}`, "not served"]),
  ),
  ...Object.fromEntries(withLists("RuntimeClass").map((k) => [`node.k8s.io/v1, Kind=${k}`, "not served"])),
  ...Object.fromEntries(
    withLists("StorageClass", "VolumeAttachment", "CSINode", "CSIDriver", "CSIStorageCapacity").map((k) => [
      `storage.k8s.io/v1, Kind=${k}`,
      "not served",
    ]),
  ),
  "v1, Kind=NodeConfigSource": "Node has no configSource here",
};

/** The kinds discovery lists for `apiVersion` (404: none). */
async function servedKinds(apiVersion: string): Promise<Set<string>> {
  const r = await s.request(apiVersion.includes("/") ? `/apis/${apiVersion}` : `/api/${apiVersion}`);
  if (r.status === 404) return new Set();
  return new Set((r.json() as { resources: { kind: string }[] }).resources.map((x) => x.kind));
}

describe("TestBuiltinResolution", () => {
  it("discovery: resolves the built-in kinds", async () => {
    const failed: Record<string, string> = {};
    for (const [apiVersion, kinds] of Object.entries(testScheme)) {
      for (const kind of kinds) {
        try {
          await resolver.resolveSchema(gvkOf({ apiVersion, kind }));
        } catch {
          failed[`${apiVersion}, Kind=${kind}`] = notPublished[`${apiVersion}, Kind=${kind}`] ?? "resolver cannot resolve it";
        }
      }
    }
    expect(failed).toEqual(notPublished);
  });

  it("the kinds it does not publish are the resources it does not serve", async () => {
    for (const [key, why] of Object.entries(notPublished)) {
      if (why !== "not served") continue;
      const [apiVersion, kind] = key.split(", Kind=") as [string, string];
      expect(await servedKinds(apiVersion), key).not.toContain(kind.replace(/List$/, ""));
    }
  });
});
