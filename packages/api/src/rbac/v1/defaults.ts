/**
 * RBAC defaulting (pkg/apis/rbac/v1/defaults.go): a binding's roleRef.apiGroup defaults to
 * rbac.authorization.k8s.io; a User or Group subject's apiGroup to rbac.authorization.k8s.io, a
 * ServiceAccount's to "" (which the omitempty field does not encode: it is left out here).
 */
import { groupKind, rbacGroupName, serviceAccountKind, userKind, type RoleRef, type Subject } from "./types.ts";

/** SetDefaults_Subject. */
export function setDefaultsSubject(s: Subject): void {
  if ((s.apiGroup ?? "").length !== 0) return;
  switch (s.kind) {
    case serviceAccountKind:
      delete s.apiGroup;
      break;
    case userKind:
    case groupKind:
      s.apiGroup = rbacGroupName;
      break;
  }
}

/** SetDefaults_RoleBinding and SetDefaults_ClusterRoleBinding: the roleRef's group, then each subject. */
export function setDefaultsRoleBinding(b: { roleRef?: Partial<RoleRef> | null; subjects?: Subject[] | null }): void {
  if (b.roleRef !== undefined && b.roleRef !== null && (b.roleRef.apiGroup ?? "").length === 0) b.roleRef.apiGroup = rbacGroupName;
  for (const s of b.subjects ?? []) setDefaultsSubject(s);
}
