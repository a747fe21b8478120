/**
 * kube-apiserver's audit flags (staging/src/k8s.io/apiserver/pkg/server/options/audit.go
 * AuditOptions.ApplyTo): Events need both `--audit-policy-file` and `--audit-log-path` (without a
 * policy nothing is recorded); a bad policy file fails the start with the reader's error.
 */
import { newLogBackend } from "../plugin/pkg/audit/log/backend.ts";
import type { AuditConfig } from "./audit-request.ts";
import { newPolicyRuleEvaluator } from "./policy/checker.ts";
import { loadPolicyFromFile } from "./policy/reader.ts";

/** The audit configuration of the two flags; undefined when either is absent. */
export function auditConfigFromFlags(policyFile: string | undefined, logPath: string | undefined): AuditConfig | undefined {
  if (policyFile === undefined || logPath === undefined) return undefined;
  return { evaluator: newPolicyRuleEvaluator(loadPolicyFromFile(policyFile)), backend: newLogBackend(logPath) };
}
