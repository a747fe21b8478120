/**
 * RBAC validation (pkg/apis/rbac/validation/validation.go): names are path segments, rules name
 * verbs and either resources or non-resource URLs, bindings reference a role of this group and
 * never change that reference. Messages and field paths are upstream's.
 */
import { field, GoValue, path, type FieldErrorList } from "../../errors/index.ts";
import type { ObjectMeta } from "../../meta/v1/object-meta.ts";
import { validateLabelSelector, type LabelSelectorValidationOptions } from "../../meta/v1/validation/label-selector.ts";
import { isValidPathSegmentName, nameIsDNSSubdomain } from "../../meta/v1/validation/name.ts";
import { validateObjectMeta, validateObjectMetaUpdate } from "../../meta/v1/validation/object-meta.ts";
import {
  groupKind,
  rbacGroupName,
  serviceAccountKind,
  userKind,
  type AggregationRule,
  type PolicyRule,
  type RoleRef,
  type Subject,
} from "./types.ts";

/** What validation reads of a Role or ClusterRole (decoded objects may lack optional parts). */
export interface RoleShape {
  metadata: ObjectMeta;
  rules?: readonly PolicyRule[] | null;
  aggregationRule?: AggregationRule | null;
}

/** What validation reads of a RoleBinding or ClusterRoleBinding. */
export interface RoleBindingShape {
  metadata: ObjectMeta;
  subjects?: readonly Subject[] | null;
  roleRef?: Partial<RoleRef> | null;
}

/** ValidateRBACName: minimal name rules for roles and bindings (a valid REST path segment). */
export function validateRBACName(name: string, _prefix = false): string[] {
  return isValidPathSegmentName(name);
}

const meta = (m: ObjectMeta, namespaced: boolean) => validateObjectMeta(m, { namespaced, nameValidator: validateRBACName });

function validateRules(rules: readonly PolicyRule[] | null | undefined, namespaced: boolean): FieldErrorList {
  const errs: FieldErrorList = [];
  (rules ?? []).forEach((rule, i) => errs.push(...validatePolicyRule(rule, namespaced, path("rules", i))));
  return errs;
}

/** ValidateRole. */
export function validateRole(role: RoleShape): FieldErrorList {
  return [...meta(role.metadata, true), ...validateRules(role.rules, true)];
}

/** ValidateRoleUpdate: ValidateRole plus the metadata update rules. */
export function validateRoleUpdate(role: RoleShape, old: RoleShape): FieldErrorList {
  return [...validateRole(role), ...validateObjectMetaUpdate(role.metadata, old.metadata)];
}

/** ClusterRoleValidationOptions. */
export interface ClusterRoleValidationOptions {
  /** Accept invalid label values in aggregation selectors (an update of a role already stored with them). */
  allowInvalidLabelValueInSelector?: boolean;
}

function validateAggregationRule(rule: AggregationRule, opts: LabelSelectorValidationOptions): FieldErrorList {
  const errs: FieldErrorList = [];
  const selectors = rule.clusterRoleSelectors ?? [];
  if (selectors.length === 0)
    errs.push(
      field.required("aggregationRule.clusterRoleSelectors", "at least one clusterRoleSelector required if aggregationRule is non-nil"),
    );
  selectors.forEach((selector, i) => {
    const p = path("aggregationRule.clusterRoleSelectors", i);
    errs.push(...validateLabelSelector(selector, opts, p));
    // metav1.LabelSelectorAsSelector rejects what strict selector validation rejects; upstream
    // reports its (nil) result, which field.Error prints as "null".
    if (validateLabelSelector(selector, {}, p).length > 0) errs.push(field.invalid(p, "null", "invalid label selector."));
  });
  return errs;
}

/** ValidateClusterRole: metadata, rules (non-resource URLs allowed) and the aggregation rule's selectors. */
export function validateClusterRole(role: RoleShape, opts: ClusterRoleValidationOptions = {}): FieldErrorList {
  const errs = [...meta(role.metadata, false), ...validateRules(role.rules, false)];
  if (role.aggregationRule !== undefined && role.aggregationRule !== null)
    errs.push(
      ...validateAggregationRule(role.aggregationRule, {
        allowInvalidLabelValueInSelector: opts.allowInvalidLabelValueInSelector ?? false,
      }),
    );
  return errs;
}

/** ValidateClusterRoleUpdate. */
export function validateClusterRoleUpdate(role: RoleShape, old: RoleShape, opts: ClusterRoleValidationOptions = {}): FieldErrorList {
  return [...validateClusterRole(role, opts), ...validateObjectMetaUpdate(role.metadata, old.metadata)];
}

/** ValidatePolicyRule: at least one verb; non-resource URLs (cluster roles only) or api groups and resources. */
export function validatePolicyRule(rule: PolicyRule, isNamespaced: boolean, fldPath: string): FieldErrorList {
  const errs: FieldErrorList = [];
  const len = (a: readonly string[] | null | undefined) => a?.length ?? 0;
  if (len(rule.verbs) === 0) errs.push(field.required(path(fldPath, "verbs"), "verbs must contain at least one value"));
  if (len(rule.nonResourceURLs) > 0) {
    if (isNamespaced)
      errs.push(
        field.invalid(path(fldPath, "nonResourceURLs"), rule.nonResourceURLs, "namespaced rules cannot apply to non-resource URLs"),
      );
    if (len(rule.apiGroups) > 0 || len(rule.resources) > 0 || len(rule.resourceNames) > 0)
      errs.push(
        field.invalid(
          path(fldPath, "nonResourceURLs"),
          rule.nonResourceURLs,
          "rules cannot apply to both regular resources and non-resource URLs",
        ),
      );
    return errs;
  }
  if (len(rule.apiGroups) === 0) errs.push(field.required(path(fldPath, "apiGroups"), "resource rules must supply at least one api group"));
  if (len(rule.resources) === 0) errs.push(field.required(path(fldPath, "resources"), "resource rules must supply at least one resource"));
  return errs;
}

function validateRoleRef(ref: Partial<RoleRef> | null | undefined, kinds: readonly string[]): FieldErrorList {
  const errs: FieldErrorList = [];
  const apiGroup = ref?.apiGroup ?? "";
  const kind = ref?.kind ?? "";
  const name = ref?.name ?? "";
  if (apiGroup !== rbacGroupName) errs.push(field.notSupported("roleRef.apiGroup", apiGroup, [rbacGroupName]));
  if (!kinds.includes(kind)) errs.push(field.notSupported("roleRef.kind", kind, kinds));
  if (name.length === 0) errs.push(field.required("roleRef.name"));
  else errs.push(...validateRBACName(name).map((m) => field.invalid("roleRef.name", name, m)));
  return errs;
}

function validateBinding(b: RoleBindingShape, namespaced: boolean, kinds: readonly string[]): FieldErrorList {
  const errs = [...meta(b.metadata, namespaced), ...validateRoleRef(b.roleRef, kinds)];
  (b.subjects ?? []).forEach((s, i) => errs.push(...validateRoleBindingSubject(s, namespaced, path("subjects", i))));
  return errs;
}

/** ValidateRoleBinding: a Role or ClusterRole of this group, valid subjects. */
export function validateRoleBinding(b: RoleBindingShape): FieldErrorList {
  return validateBinding(b, true, ["Role", "ClusterRole"]);
}

/** ValidateClusterRoleBinding: a ClusterRole of this group, valid subjects (service accounts with a namespace). */
export function validateClusterRoleBinding(b: RoleBindingShape): FieldErrorList {
  return validateBinding(b, false, ["ClusterRole"]);
}

const sameRoleRef = (a: RoleBindingShape, b: RoleBindingShape): boolean =>
  (a.roleRef?.apiGroup ?? "") === (b.roleRef?.apiGroup ?? "") &&
  (a.roleRef?.kind ?? "") === (b.roleRef?.kind ?? "") &&
  (a.roleRef?.name ?? "") === (b.roleRef?.name ?? "");

function validateBindingUpdate(b: RoleBindingShape, old: RoleBindingShape, errs: FieldErrorList): FieldErrorList {
  errs.push(...validateObjectMetaUpdate(b.metadata, old.metadata));
  if (!sameRoleRef(b, old)) errs.push(field.invalid("roleRef", goRoleRef(b.roleRef), "cannot change roleRef"));
  return errs;
}

/** ValidateRoleBindingUpdate: ValidateRoleBinding, metadata update rules, and roleRef is immutable. */
export function validateRoleBindingUpdate(b: RoleBindingShape, old: RoleBindingShape): FieldErrorList {
  return validateBindingUpdate(b, old, validateRoleBinding(b));
}

/** ValidateClusterRoleBindingUpdate. */
export function validateClusterRoleBindingUpdate(b: RoleBindingShape, old: RoleBindingShape): FieldErrorList {
  return validateBindingUpdate(b, old, validateClusterRoleBinding(b));
}

/**
 * How field.Invalid prints an rbac.RoleRef (a struct without String(): `%#v`), so the message
 * reads as upstream's: `roleRef: Invalid value: rbac.RoleRef{APIGroup:"...", Kind:"...", Name:"..."}`.
 */
function goRoleRef(ref: Partial<RoleRef> | null | undefined): GoValue {
  const q = (s: string | undefined) => JSON.stringify(s ?? "");
  return new GoValue(`rbac.RoleRef{APIGroup:${q(ref?.apiGroup)}, Kind:${q(ref?.kind)}, Name:${q(ref?.name)}}`);
}

/** ValidateRoleBindingSubject: kind-specific name, apiGroup and namespace rules. */
export function validateRoleBindingSubject(subject: Subject, isNamespaced: boolean, fldPath: string): FieldErrorList {
  const errs: FieldErrorList = [];
  const name = subject.name ?? "";
  const apiGroup = subject.apiGroup ?? "";
  if (name.length === 0) errs.push(field.required(path(fldPath, "name")));
  switch (subject.kind) {
    case serviceAccountKind:
      if (name.length > 0) errs.push(...nameIsDNSSubdomain(name, false).map((m) => field.invalid(path(fldPath, "name"), name, m)));
      if (apiGroup.length > 0) errs.push(field.notSupported(path(fldPath, "apiGroup"), apiGroup, [""]));
      if (!isNamespaced && (subject.namespace ?? "").length === 0) errs.push(field.required(path(fldPath, "namespace")));
      break;
    case userKind:
    case groupKind:
      if (apiGroup !== rbacGroupName) errs.push(field.notSupported(path(fldPath, "apiGroup"), apiGroup, [rbacGroupName]));
      break;
    default:
      errs.push(field.notSupported(path(fldPath, "kind"), subject.kind ?? "", [serviceAccountKind, userKind, groupKind]));
  }
  return errs;
}
