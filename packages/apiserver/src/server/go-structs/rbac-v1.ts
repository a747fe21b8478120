/** rbac/v1 as k8s.io/api/rbac/v1/types.go (v1.33) declares it; see types.ts for the notation. */
import type { GoStructs } from "./types.ts";

export const rbacV1: GoStructs = {
  AggregationRule: { clusterRoleSelectors: "[]meta/v1.LabelSelector,omitempty" },
  ClusterRole: {
    kind: "string,omitempty",
    apiVersion: "string,omitempty",
    metadata: "meta/v1.ObjectMeta,omitempty",
    rules: "[]rbac/v1.PolicyRule",
    aggregationRule: "*rbac/v1.AggregationRule,omitempty",
  },
  ClusterRoleBinding: {
    kind: "string,omitempty",
    apiVersion: "string,omitempty",
    metadata: "meta/v1.ObjectMeta,omitempty",
    subjects: "[]rbac/v1.Subject,omitempty",
    roleRef: "rbac/v1.RoleRef",
  },
  PolicyRule: {
    verbs: "[]string",
    apiGroups: "[]string,omitempty",
    resources: "[]string,omitempty",
    resourceNames: "[]string,omitempty",
    nonResourceURLs: "[]string,omitempty",
  },
  Role: {
    kind: "string,omitempty",
    apiVersion: "string,omitempty",
    metadata: "meta/v1.ObjectMeta,omitempty",
    rules: "[]rbac/v1.PolicyRule",
  },
  RoleBinding: {
    kind: "string,omitempty",
    apiVersion: "string,omitempty",
    metadata: "meta/v1.ObjectMeta,omitempty",
    subjects: "[]rbac/v1.Subject,omitempty",
    roleRef: "rbac/v1.RoleRef",
  },
  RoleRef: { apiGroup: "string", kind: "string", name: "string" },
  Subject: { kind: "string", apiGroup: "string,omitempty", name: "string", namespace: "string,omitempty" },
};
