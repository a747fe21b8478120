import { describe, expect, it } from "vitest";
import { documentsSchemaResolver } from "./resolver.ts";

const ref = (n: string) => ({ $ref: `#/components/schemas/${n}` });
const documents = new Map([
  [
    "apis/apps/v1",
    {
      components: {
        schemas: {
          "io.k8s.api.apps.v1.Deployment": {
            type: "object",
            "x-kubernetes-group-version-kind": [{ group: "apps", version: "v1", kind: "Deployment" }],
            properties: { metadata: { allOf: [ref("meta.ObjectMeta")], description: "m" }, spec: ref("io.k8s.api.apps.v1.DeploymentSpec") },
          },
          "io.k8s.api.apps.v1.DeploymentSpec": {
            type: "object",
            properties: { replicas: { type: "integer" }, self: ref("io.k8s.api.apps.v1.DeploymentSpec") },
          },
          "meta.ObjectMeta": { type: "object", properties: { name: { type: "string" } } },
        },
      },
    },
  ],
]);

describe("documentsSchemaResolver", () => {
  const resolver = documentsSchemaResolver(() => documents);

  it("finds the kind by x-kubernetes-group-version-kind and populates references", () => {
    const s = resolver.resolveSchema({ group: "apps", version: "v1", kind: "Deployment" });
    expect(s?.properties?.["metadata"]).toEqual({ type: "object", properties: { name: { type: "string" } }, description: "m" });
    expect(s?.properties?.["spec"]?.properties?.["replicas"]).toEqual({ type: "integer" });
    // A reference back into a definition being resolved stays untyped.
    expect(s?.properties?.["spec"]?.properties?.["self"]).toEqual({});
  });

  it("knows no schema for an unknown kind or group version", () => {
    expect(resolver.resolveSchema({ group: "apps", version: "v1", kind: "StatefulSet" })).toBeUndefined();
    expect(resolver.resolveSchema({ group: "", version: "v1", kind: "Pod" })).toBeUndefined();
  });
});
