/**
 * pkg/registry/rbac/reconciliation/reconcile_role.go: bring a stored ClusterRole or Role up to an
 * expected one. Missing rules and aggregation selectors are added (never removed unless asked),
 * expected labels and annotations merged in; a role annotated `rbac.authorization.kubernetes.io/autoupdate:
 * "false"` is reported and left alone.
 */
import { StatusError, type ClusterRole, type PolicyRule } from "@servicenet/api";
import { autoUpdateAnnotationKey } from "@servicenet/api/rbac/v1";
import type { LabelSelector } from "@servicenet/api";
import { covers } from "../validation/policy-comparator.ts";

export type ReconcileOperation = "none" | "create" | "update" | "recreate";

/**
 * The stored roles reconciliation reads and writes (ClusterRoleModifier, RoleModifier): `namespace`
 * is undefined for ClusterRoles; create and update take it from the object.
 */
export interface RoleModifier {
  get(name: string, namespace?: string): Promise<ClusterRole>;
  create(role: ClusterRole): Promise<ClusterRole>;
  update(role: ClusterRole): Promise<ClusterRole>;
}

/** ReconcileClusterRoleResult. */
export interface ReconcileRoleResult {
  role: ClusterRole;
  missingRules: PolicyRule[];
  extraRules: PolicyRule[];
  missingAggregationRuleSelectors: LabelSelector[];
  extraAggregationRuleSelectors: LabelSelector[];
  operation: ReconcileOperation;
  protected: boolean;
}

/** merge: later maps win; undefined when every map is. */
function merge(...maps: (Record<string, string> | undefined)[]): Record<string, string> | undefined {
  let out: Record<string, string> | undefined;
  for (const m of maps) if (m) out = { ...out, ...m };
  return out;
}

/** Deep equality of JSON data, undefined and null alike. */
export const same = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

type Meta = { annotations?: Record<string, string> | undefined; labels?: Record<string, string> | undefined };

/**
 * The expected annotations and labels merged under the existing ones onto `out` (a copy of
 * `existing`), as computeReconciledRole and computeReconciledRoleBinding do; true when that changed them.
 */
export function mergeMetadata(out: Meta, expected: Meta, existing: Meta): boolean {
  const annotations = merge(expected.annotations, out.annotations);
  if (annotations) out.annotations = annotations;
  const labels = merge(expected.labels, out.labels);
  if (labels) out.labels = labels;
  return !same(out.annotations, existing.annotations) || !same(out.labels, existing.labels);
}

/** aggregationRuleCovers: the expected selectors the existing rule lacks. */
function aggregationRuleCovers(owner: ClusterRole["aggregationRule"], servant: ClusterRole["aggregationRule"]): LabelSelector[] {
  const have = owner?.clusterRoleSelectors ?? [];
  return (servant?.clusterRoleSelectors ?? []).filter((s) => !have.some((o) => same(o, s)));
}

/** computeReconciledRole. */
export function computeReconciledRole(existing: ClusterRole, expected: ClusterRole, removeExtraPermissions: boolean): ReconcileRoleResult {
  const role: ClusterRole = structuredClone(existing);
  let operation: ReconcileOperation = mergeMetadata(role.metadata, expected.metadata, existing.metadata) ? "update" : "none";

  const expectedRules = expected.rules ?? [];
  const existingRules = existing.rules ?? [];
  // Don't compute extra permissions if expected and existing roles are both aggregated.
  const extraRules =
    expected.aggregationRule === undefined || existing.aggregationRule === undefined ? covers(expectedRules, existingRules).uncovered : [];
  const missingRules = covers(existingRules, expectedRules).uncovered;
  if (!removeExtraPermissions && missingRules.length > 0) {
    role.rules = [...(role.rules ?? []), ...missingRules];
    operation = "update";
  } else if (removeExtraPermissions && (missingRules.length > 0 || extraRules.length > 0)) {
    role.rules = expected.rules ?? null;
    operation = "update";
  }

  const extraSelectors = aggregationRuleCovers(expected.aggregationRule, existing.aggregationRule);
  const missingSelectors = aggregationRuleCovers(existing.aggregationRule, expected.aggregationRule);
  if (expected.aggregationRule === undefined && existing.aggregationRule !== undefined) {
    // we didn't expect this to be an aggregated role at all, remove the existing aggregation
    delete role.aggregationRule;
    operation = "update";
  } else if (!removeExtraPermissions && missingSelectors.length > 0) {
    role.aggregationRule = { clusterRoleSelectors: [...(role.aggregationRule?.clusterRoleSelectors ?? []), ...missingSelectors] };
    operation = "update";
  } else if (removeExtraPermissions && (missingSelectors.length > 0 || extraSelectors.length > 0)) {
    if (expected.aggregationRule) role.aggregationRule = expected.aggregationRule;
    operation = "update";
  }
  return {
    role,
    missingRules,
    extraRules,
    missingAggregationRuleSelectors: missingSelectors,
    extraAggregationRuleSelectors: extraSelectors,
    operation,
    protected: existing.metadata.annotations?.[autoUpdateAnnotationKey] === "false",
  };
}

/** ReconcileRoleOptions.Run: reads, computes, and (with `confirm`) writes; re-runs on a create or delete race. */
export async function reconcileRole(
  expected: ClusterRole,
  client: RoleModifier,
  opts: { confirm: boolean; removeExtraPermissions?: boolean },
  attempts = 0,
): Promise<ReconcileRoleResult> {
  let result: ReconcileRoleResult;
  try {
    const existing = await client.get(expected.metadata.name ?? "", expected.metadata.namespace);
    result = computeReconciledRole(existing, expected, opts.removeExtraPermissions ?? false);
  } catch (e) {
    if (!(e instanceof StatusError && e.reason === "NotFound")) throw e;
    result = {
      role: expected,
      missingRules: expected.rules ?? [],
      extraRules: [],
      missingAggregationRuleSelectors: expected.aggregationRule?.clusterRoleSelectors ?? [],
      extraAggregationRuleSelectors: [],
      operation: "create",
      protected: false,
    };
  }
  if (result.protected || !opts.confirm) return result;
  try {
    if (result.operation === "create") result.role = await client.create(result.role);
    else if (result.operation === "update") result.role = await client.update(result.role);
  } catch (e) {
    const race = e instanceof StatusError && (e.reason === "AlreadyExists" || e.reason === "NotFound");
    if (!race) throw e;
    if (attempts > 3) throw new Error(`failed to reconcile ${expected.metadata.name ?? ""}: ${e.message}`, { cause: e });
    return reconcileRole(expected, client, opts, attempts + 1);
  }
  return result;
}
