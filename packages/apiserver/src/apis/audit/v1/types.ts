/**
 * The audit.k8s.io/v1 Policy (staging/src/k8s.io/apiserver/pkg/apis/audit/v1/types.go): which
 * requests are recorded at which level, read from `--audit-policy-file`. Levels and stages are
 * plain strings here so that ValidatePolicy can refuse a bad one with upstream's message.
 */
import { z } from "zod";

/** The levels of an audit record, least to most (audit.Level). */
export const auditLevels = ["None", "Metadata", "Request", "RequestResponse"] as const;
export type AuditLevel = (typeof auditLevels)[number];

/** The stages of a request an audit event is written at (audit.Stage). */
export const auditStages = ["RequestReceived", "ResponseStarted", "ResponseComplete", "Panic"] as const;
export type AuditStage = (typeof auditStages)[number];

const strings = z.array(z.string()).optional();

export const groupResourcesSchema = z.object({
  group: z.string().optional(),
  resources: strings,
  resourceNames: strings,
});

export const policyRuleSchema = z.object({
  level: z.string().optional(),
  users: strings,
  userGroups: strings,
  verbs: strings,
  resources: z.array(groupResourcesSchema).optional(),
  namespaces: strings,
  nonResourceURLs: strings,
  omitStages: strings,
  omitManagedFields: z.boolean().optional(),
});
export type PolicyRule = z.infer<typeof policyRuleSchema>;

export const policySchema = z.object({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  rules: z.array(policyRuleSchema).optional(),
  omitStages: strings,
  omitManagedFields: z.boolean().optional(),
});
export type Policy = z.infer<typeof policySchema>;

/** The level order of audit.Level.Less. */
export function levelLess(a: AuditLevel, b: AuditLevel): boolean {
  return auditLevels.indexOf(a) < auditLevels.indexOf(b);
}
