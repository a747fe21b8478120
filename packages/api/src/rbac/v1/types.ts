/**
 * rbac.authorization.k8s.io/v1 (k8s.io/api/rbac/v1 types.go): Role, ClusterRole, RoleBinding and
 * ClusterRoleBinding. The shapes the apiserver's RBAC storage, the authorizer, the bootstrap
 * policy and the ClusterRole aggregation controller share.
 */
import { z } from "zod";
import { LabelSelectorSchema } from "../../meta/v1/label-selector.ts";
import { listSchemaOf, ObjectMetaSchema } from "../../meta/v1/object-meta.ts";

/** The API group of every RBAC kind. */
export const rbacGroupName = "rbac.authorization.k8s.io";

// Wildcards and the kinds a Subject names (rbac/v1 types.go).
export const verbAll = "*";
export const apiGroupAll = "*";
export const resourceAll = "*";
export const nonResourceAll = "*";
export const groupKind = "Group";
export const serviceAccountKind = "ServiceAccount";
export const userKind = "User";
/** The annotation that lets start-up reconciliation overwrite a bootstrap role or binding (default "true"). */
export const autoUpdateAnnotationKey = "rbac.authorization.kubernetes.io/autoupdate";

// Fields Go decodes as zero values when absent default here too, so that a missing one is
// validation's 422 (`rules[0].verbs: Required value`), not a decoding error.
export const PolicyRuleSchema = z.object({
  verbs: z.array(z.string()).default([]),
  apiGroups: z.array(z.string()).optional(),
  resources: z.array(z.string()).optional(),
  resourceNames: z.array(z.string()).optional(),
  nonResourceURLs: z.array(z.string()).optional(),
});
export type PolicyRule = z.infer<typeof PolicyRuleSchema>;

export const SubjectSchema = z.object({
  kind: z.string().default(""),
  apiGroup: z.string().optional(),
  name: z.string().default(""),
  namespace: z.string().optional(),
});
export type Subject = z.infer<typeof SubjectSchema>;

export const RoleRefSchema = z.object({
  apiGroup: z.string().default(""),
  kind: z.string().default(""),
  name: z.string().default(""),
});
export type RoleRef = z.infer<typeof RoleRefSchema>;

export const AggregationRuleSchema = z.object({
  clusterRoleSelectors: z.array(LabelSelectorSchema).optional(),
});
export type AggregationRule = z.infer<typeof AggregationRuleSchema>;

export const RoleSchema = z.object({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema.default({}),
  rules: z.array(PolicyRuleSchema).nullish(),
});
export type Role = z.infer<typeof RoleSchema>;

export const ClusterRoleSchema = z.object({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema.default({}),
  rules: z.array(PolicyRuleSchema).nullish(),
  aggregationRule: AggregationRuleSchema.optional(),
});
export type ClusterRole = z.infer<typeof ClusterRoleSchema>;

export const RoleBindingSchema = z.object({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema.default({}),
  subjects: z.array(SubjectSchema).nullish(),
  roleRef: RoleRefSchema.default({ apiGroup: "", kind: "", name: "" }),
});
export type RoleBinding = z.infer<typeof RoleBindingSchema>;

export const ClusterRoleBindingSchema = z.object({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema.default({}),
  subjects: z.array(SubjectSchema).nullish(),
  roleRef: RoleRefSchema.default({ apiGroup: "", kind: "", name: "" }),
});
export type ClusterRoleBinding = z.infer<typeof ClusterRoleBindingSchema>;

export const RoleListSchema = listSchemaOf(RoleSchema);
export type RoleList = z.infer<typeof RoleListSchema>;
export const ClusterRoleListSchema = listSchemaOf(ClusterRoleSchema);
export type ClusterRoleList = z.infer<typeof ClusterRoleListSchema>;
export const RoleBindingListSchema = listSchemaOf(RoleBindingSchema);
export type RoleBindingList = z.infer<typeof RoleBindingListSchema>;
export const ClusterRoleBindingListSchema = listSchemaOf(ClusterRoleBindingSchema);
export type ClusterRoleBindingList = z.infer<typeof ClusterRoleBindingListSchema>;
