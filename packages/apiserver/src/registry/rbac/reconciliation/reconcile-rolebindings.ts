/**
 * pkg/registry/rbac/reconciliation/reconcile_rolebindings.go: bring a stored ClusterRoleBinding or
 * RoleBinding up to an expected one. Missing subjects are added; a different roleRef (immutable) means delete and
 * create again; `rbac.authorization.kubernetes.io/autoupdate: "false"` leaves it alone.
 */
import { StatusError, type ClusterRoleBinding, type Subject } from "@servicenet/api";
import { autoUpdateAnnotationKey } from "@servicenet/api/rbac/v1";
import { mergeMetadata, same, type ReconcileOperation } from "./reconcile-role.ts";

/** ClusterRoleBindingModifier, RoleBindingModifier: `namespace` is undefined for ClusterRoleBindings. */
export interface RoleBindingModifier {
  get(name: string, namespace?: string): Promise<ClusterRoleBinding>;
  create(b: ClusterRoleBinding): Promise<ClusterRoleBinding>;
  update(b: ClusterRoleBinding): Promise<ClusterRoleBinding>;
  delete(name: string, uid: string, namespace?: string): Promise<void>;
}

/** ReconcileClusterRoleBindingResult. */
export interface ReconcileRoleBindingResult {
  roleBinding: ClusterRoleBinding;
  missingSubjects: Subject[];
  extraSubjects: Subject[];
  operation: ReconcileOperation;
  protected: boolean;
}

const subjectKey = (s: Subject): string => JSON.stringify([s.kind, s.apiGroup ?? "", s.name, s.namespace ?? ""]);

/** diffSubjectLists: subjects only in list1, subjects only in list2. */
export function diffSubjectLists(list1: readonly Subject[], list2: readonly Subject[]): [Subject[], Subject[]] {
  const k1 = new Set(list1.map(subjectKey));
  const k2 = new Set(list2.map(subjectKey));
  return [list1.filter((s) => !k2.has(subjectKey(s))), list2.filter((s) => !k1.has(subjectKey(s)))];
}

/** computeReconciledRoleBinding. */
export function computeReconciledRoleBinding(
  existing: ClusterRoleBinding,
  expected: ClusterRoleBinding,
  removeExtraSubjects: boolean,
): ReconcileRoleBindingResult {
  const isProtected = existing.metadata.annotations?.[autoUpdateAnnotationKey] === "false";
  // Reset the binding completely if the roleRef is different
  if (!same(expected.roleRef, existing.roleRef)) {
    return { roleBinding: expected, missingSubjects: [], extraSubjects: [], operation: "recreate", protected: isProtected };
  }
  const b: ClusterRoleBinding = structuredClone(existing);
  let operation: ReconcileOperation = mergeMetadata(b.metadata, expected.metadata, existing.metadata) ? "update" : "none";
  const [missingSubjects, extraSubjects] = diffSubjectLists(expected.subjects ?? [], existing.subjects ?? []);
  if (!removeExtraSubjects && missingSubjects.length > 0) {
    b.subjects = [...(b.subjects ?? []), ...missingSubjects];
    operation = "update";
  } else if (removeExtraSubjects && (missingSubjects.length > 0 || extraSubjects.length > 0)) {
    b.subjects = expected.subjects ?? null;
    operation = "update";
  }
  return { roleBinding: b, missingSubjects, extraSubjects, operation, protected: isProtected };
}

/** ReconcileRoleBindingOptions.Run. */
export async function reconcileRoleBinding(
  expected: ClusterRoleBinding,
  client: RoleBindingModifier,
  opts: { confirm: boolean; removeExtraSubjects?: boolean },
  attempts = 0,
): Promise<ReconcileRoleBindingResult> {
  let result: ReconcileRoleBindingResult;
  let existingUID = "";
  try {
    const existing = await client.get(expected.metadata.name ?? "", expected.metadata.namespace);
    existingUID = existing.metadata.uid ?? "";
    result = computeReconciledRoleBinding(existing, expected, opts.removeExtraSubjects ?? false);
  } catch (e) {
    if (!(e instanceof StatusError && e.reason === "NotFound")) throw e;
    result = { roleBinding: expected, missingSubjects: expected.subjects ?? [], extraSubjects: [], operation: "create", protected: false };
  }
  if (result.protected || !opts.confirm) return result;
  try {
    if (result.operation === "recreate") {
      await client.delete(expected.metadata.name ?? "", existingUID, expected.metadata.namespace);
      result.roleBinding = await client.create(result.roleBinding);
    } else if (result.operation === "create") result.roleBinding = await client.create(result.roleBinding);
    else if (result.operation === "update") result.roleBinding = await client.update(result.roleBinding);
  } catch (e) {
    const race = e instanceof StatusError && (e.reason === "AlreadyExists" || e.reason === "NotFound");
    if (!race) throw e;
    if (attempts > 3) throw new Error(`failed to reconcile ${expected.metadata.name ?? ""}: ${e.message}`, { cause: e });
    return reconcileRoleBinding(expected, client, opts, attempts + 1);
  }
  return result;
}
