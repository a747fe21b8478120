/**
 * Defaulting of ValidatingAdmissionPolicy and its binding (pkg/apis/admissionregistration/v1/defaults.go):
 * failurePolicy Fail, matchPolicy Equivalent, empty namespace and object selectors, rule scope "*".
 */
import type { MatchResources, ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from "./types.ts";

function defaultMatchResources(m: MatchResources): void {
  m.matchPolicy ??= "Equivalent";
  m.namespaceSelector ??= {};
  m.objectSelector ??= {};
  for (const r of [...(m.resourceRules ?? []), ...(m.excludeResourceRules ?? [])]) r.scope ??= "*";
}

/** SetDefaults_ValidatingAdmissionPolicySpec and SetDefaults_MatchResources. */
export function setDefaultsValidatingAdmissionPolicy(p: ValidatingAdmissionPolicy): void {
  p.spec.failurePolicy ??= "Fail";
  if (p.spec.matchConstraints) defaultMatchResources(p.spec.matchConstraints);
}

/** SetDefaults_MatchResources on a binding's matchResources. */
export function setDefaultsValidatingAdmissionPolicyBinding(b: ValidatingAdmissionPolicyBinding): void {
  if (b.spec.matchResources) defaultMatchResources(b.spec.matchResources);
}
