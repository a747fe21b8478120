/**
 * Validation of match rules and match resources (pkg/apis/admissionregistration/validation/validation.go
 * validateRuleWithOperations, validateRule, validateResources, validateMatchResources).
 */
import { field, GoValue, path, type FieldErrorList } from "../../errors/index.ts";
import { isValidPathSegmentName } from "../../meta/v1/validation/name.ts";
import { validateLabelSelector } from "../../meta/v1/validation/label-selector.ts";
import type { MatchResources, NamedRuleWithOperations } from "./types.ts";

const supportedOperations = ["*", "CONNECT", "CREATE", "DELETE", "UPDATE"];
const supportedScopes = ["*", "Cluster", "Namespaced"];
const supportedMatchPolicies = ["Equivalent", "Exact"];

const hasWildcard = (items: readonly string[]): boolean => items.includes("*");

/** A slice of a named string type as Go's %#v prints it in a field error. */
export function goTypedSlice(type: string, items: readonly string[]): GoValue {
  return new GoValue(`[]${type}{${items.map((i) => JSON.stringify(i)).join(", ")}}`);
}

/** validateResources: the star forms may not be mixed with what they already cover. */
function validateResources(resources: readonly string[], fld: string): FieldErrorList {
  const errs: FieldErrorList = [];
  if (resources.length === 0) errs.push(field.required(fld));
  const withWildcardSub = new Set<string>();
  const subWithWildcardRes = new Set<string>();
  let hasDoubleWildcard = false;
  let hasSingleWildcard = false;
  let hasResourceWithoutSubresource = false;
  resources.forEach((resSub, i) => {
    if (resSub === "") return void errs.push(field.required(path(fld, i)));
    if (resSub === "*/*") hasDoubleWildcard = true;
    if (resSub === "*") hasSingleWildcard = true;
    const slash = resSub.indexOf("/");
    if (slash === -1) return void (hasResourceWithoutSubresource = resSub !== "*");
    const [res, sub] = [resSub.slice(0, slash), resSub.slice(slash + 1)];
    if (withWildcardSub.has(res)) errs.push(field.invalid(path(fld, i), resSub, `if '${res}/*' is present, must not specify ${resSub}`));
    if (subWithWildcardRes.has(sub)) errs.push(field.invalid(path(fld, i), resSub, `if '*/${sub}' is present, must not specify ${resSub}`));
    if (sub === "*") withWildcardSub.add(res);
    if (res === "*") subWithWildcardRes.add(sub);
  });
  if (resources.length > 1 && hasDoubleWildcard)
    errs.push(field.invalid(fld, resources, "if '*/*' is present, must not specify other resources"));
  if (hasSingleWildcard && hasResourceWithoutSubresource)
    errs.push(field.invalid(fld, resources, "if '*' is present, must not specify other resources without subresources"));
  return errs;
}

/** validateRuleWithOperations and validateRule with subresources allowed. */
export function validateRuleWithOperations(r: NamedRuleWithOperations, fld: string): FieldErrorList {
  const errs: FieldErrorList = [];
  const ops = r.operations ?? [];
  if (ops.length === 0) errs.push(field.required(path(fld, "operations")));
  if (ops.length > 1 && hasWildcard(ops))
    errs.push(
      field.invalid(
        path(fld, "operations"),
        goTypedSlice("admissionregistration.OperationType", ops),
        "if '*' is present, must not specify other operations",
      ),
    );
  ops.forEach((op, i) => {
    if (!supportedOperations.includes(op)) errs.push(field.notSupported(path(fld, "operations", i), op, supportedOperations));
  });
  const groups = r.apiGroups ?? [];
  if (groups.length === 0) errs.push(field.required(path(fld, "apiGroups")));
  if (groups.length > 1 && hasWildcard(groups))
    errs.push(field.invalid(path(fld, "apiGroups"), groups, "if '*' is present, must not specify other API groups"));
  const versions = r.apiVersions ?? [];
  if (versions.length === 0) errs.push(field.required(path(fld, "apiVersions")));
  if (versions.length > 1 && hasWildcard(versions))
    errs.push(field.invalid(path(fld, "apiVersions"), versions, "if '*' is present, must not specify other API versions"));
  versions.forEach((v, i) => {
    if (v === "") errs.push(field.required(path(fld, "apiVersions", i)));
  });
  errs.push(...validateResources(r.resources ?? [], path(fld, "resources")));
  if (r.scope !== undefined && !supportedScopes.includes(r.scope))
    errs.push(field.notSupported(path(fld, "scope"), r.scope, supportedScopes));
  return errs;
}

/** validateNamedRuleWithOperations: resource names are path segments, without duplicates. */
export function validateNamedRuleWithOperations(r: NamedRuleWithOperations, fld: string): FieldErrorList {
  const errs: FieldErrorList = [];
  const seen = new Set<string>();
  (r.resourceNames ?? []).forEach((name, i) => {
    for (const msg of isValidPathSegmentName(name)) errs.push(field.invalid(path(fld, "resourceNames", i), name, msg));
    if (seen.has(name)) errs.push(field.duplicate(path(fld, "resourceNames", i), name));
    seen.add(name);
  });
  return [...errs, ...validateRuleWithOperations(r, fld)];
}

/** validateMatchResources (on the defaulted object: matchPolicy and both selectors are required). */
export function validateMatchResources(m: MatchResources | undefined, fld: string): FieldErrorList {
  if (m === undefined) return [];
  const errs: FieldErrorList = [];
  if (m.matchPolicy === undefined) errs.push(field.required(path(fld, "matchPolicy")));
  else if (!supportedMatchPolicies.includes(m.matchPolicy))
    errs.push(field.notSupported(path(fld, "matchPolicy"), m.matchPolicy, supportedMatchPolicies));
  for (const sel of ["namespaceSelector", "objectSelector"] as const) {
    if (m[sel] === undefined) errs.push(field.required(path(fld, sel)));
    else errs.push(...validateLabelSelector(m[sel], {}, path(fld, sel)));
  }
  (m.resourceRules ?? []).forEach((r, i) => errs.push(...validateNamedRuleWithOperations(r, path(fld, "resourceRules", i))));
  (m.excludeResourceRules ?? []).forEach((r, i) => errs.push(...validateNamedRuleWithOperations(r, path(fld, "excludeResourceRules", i))));
  return errs;
}
