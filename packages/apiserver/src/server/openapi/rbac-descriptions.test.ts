/** The rbac.authorization.k8s.io/v1 OpenAPI definitions: upstream's names, docs and required fields. */
import * as rbac from "@servicenet/api/rbac/v1";
import { describe, expect, it } from "vitest";
import { buildOpenAPI } from "./documents.ts";
import type { OpenAPIResource } from "./resource.ts";

type S = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const r = (kind: string, resource: string, namespaced: boolean, schema: unknown, listSchema: unknown): OpenAPIResource => ({
  group: "rbac.authorization.k8s.io",
  version: "v1",
  kind,
  resource,
  namespaced,
  schema,
  listSchema,
});

const docs = buildOpenAPI([
  r("ClusterRoleBinding", "clusterrolebindings", false, rbac.ClusterRoleBindingSchema, rbac.ClusterRoleBindingListSchema),
  r("ClusterRole", "clusterroles", false, rbac.ClusterRoleSchema, rbac.ClusterRoleListSchema),
  r("RoleBinding", "rolebindings", true, rbac.RoleBindingSchema, rbac.RoleBindingListSchema),
  r("Role", "roles", true, rbac.RoleSchema, rbac.RoleListSchema),
]);
const schemas = (docs.v3.get("apis/rbac.authorization.k8s.io/v1") as S).components.schemas as S;
const p = "io.k8s.api.rbac.v1.";

describe("rbac/v1 OpenAPI", () => {
  it("names the definitions as kube-openapi does", () => {
    expect(
      Object.keys(schemas)
        .filter((k) => k.startsWith(p))
        .sort(),
    ).toEqual(
      [
        "AggregationRule",
        "ClusterRole",
        "ClusterRoleBinding",
        "ClusterRoleBindingList",
        "ClusterRoleList",
        "PolicyRule",
        "Role",
        "RoleBinding",
        "RoleBindingList",
        "RoleList",
        "RoleRef",
        "Subject",
      ].map((n) => p + n),
    );
  });

  it.each([
    ["RoleBinding", ["roleRef"]],
    ["ClusterRoleBinding", ["roleRef"]],
    ["RoleRef", ["apiGroup", "kind", "name"]],
    ["Subject", ["kind", "name"]],
    ["PolicyRule", ["verbs"]],
  ])("%s requires %j, as Go's non-omitempty fields", (kind, required) => {
    expect(schemas[p + kind].required).toEqual(required);
  });

  it("documents the kinds and fields with upstream's text", () => {
    expect(schemas[`${p}Role`].description).toBe(
      "Role is a namespaced, logical grouping of PolicyRules that can be referenced as a unit by a RoleBinding.",
    );
    expect(schemas[`${p}Subject`].properties.apiGroup.description).toBe(
      'APIGroup holds the API group of the referenced subject. Defaults to "" for ServiceAccount subjects. Defaults to "rbac.authorization.k8s.io" for User and Group subjects.',
    );
  });
});
