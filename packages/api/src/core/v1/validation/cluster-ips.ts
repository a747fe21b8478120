/**
 * Cluster-IP, IP-family and policy validation of Services
 * (`ValidateServiceClusterIPsRelatedFields`, `validateUpgradeDowngradeClusterIPs`,
 * `validateUpgradeDowngradeIPFamilies` of pkg/apis/core/validation/validation.go, as
 * ValidateService and ValidateServiceUpdate call them).
 */
import { field, type FieldErrorList } from "../../../errors/index.ts";
import { isDualStackIPStrings, isIPv6String, isValidIP } from "../../../net/index.ts";
import { clusterIPNone, ipFamilyPolicies, serviceTypes } from "../constants.ts";
import type { Service } from "../service.ts";

/** Sorted, as upstream's `sets.List` prints them. */
export const supportedServiceIPFamilies = ["IPv4", "IPv6"] as const;
export const supportedServiceIPFamilyPolicies = ["PreferDualStack", "RequireDualStack", "SingleStack"] as const;

/** Headless means exactly `clusterIPs: ["None"]` (upstream `isHeadlessService`). */
export function isHeadlessService(svc: Service | undefined): boolean {
  const ips = svc?.spec.clusterIPs;
  return ips !== undefined && ips.length === 1 && ips[0] === clusterIPNone;
}

function validateClusterIPSync(clusterIP: string, clusterIPs: readonly string[]): FieldErrorList {
  if (clusterIP.length !== 0) {
    if (clusterIPs.length === 0) return [field.required("spec.clusterIPs")];
    if (clusterIPs[0] !== clusterIP) return [field.invalid("spec.clusterIPs", clusterIPs, "first value must match `clusterIP`")];
    return [];
  }
  return clusterIPs.length !== 0 ? [field.invalid("spec.clusterIPs", clusterIPs, "must be empty when `clusterIP` is not specified")] : [];
}

function validateFamiliesAndPolicy(svc: Service): FieldErrorList {
  const errs: FieldErrorList = [];
  const seen = new Set<string>();
  (svc.spec.ipFamilies ?? []).forEach((fam, i) => {
    if (!(supportedServiceIPFamilies as readonly string[]).includes(fam))
      errs.push(field.notSupported(`spec.ipFamilies[${i}]`, fam, supportedServiceIPFamilies));
    // No duplicates also means at most one of each family, in any order.
    if (seen.has(fam)) errs.push(field.duplicate(`spec.ipFamilies[${i}]`, fam));
    seen.add(fam);
  });
  const policy = svc.spec.ipFamilyPolicy;
  if (policy !== undefined && !(supportedServiceIPFamilyPolicies as readonly string[]).includes(policy)) {
    errs.push(field.notSupported("spec.ipFamilyPolicy", policy, supportedServiceIPFamilyPolicies));
  }
  return errs;
}

/**
 * Validates clusterIP/clusterIPs/ipFamilies/ipFamilyPolicy on their own (no
 * cluster configuration involved). Nothing for ExternalName (those fields are
 * checked by `validateService`). A nil policy is fine: the registry defaults it.
 */
export function validateServiceClusterIPsRelatedFields(svc: Service): FieldErrorList {
  if (svc.spec.type === serviceTypes.ExternalName) return [];
  const clusterIPs = svc.spec.clusterIPs ?? [];
  const errs = [...validateClusterIPSync(svc.spec.clusterIP ?? "", clusterIPs), ...validateFamiliesAndPolicy(svc)];
  let hasInvalidIPs = false;
  clusterIPs.forEach((ip, i) => {
    if (i === 0 && ip === clusterIPNone) {
      if (clusterIPs.length > 1) {
        hasInvalidIPs = true;
        errs.push(field.invalid("spec.clusterIPs", clusterIPs, "'None' must be the first and only value"));
      }
      return;
    }
    const ipErrs = isValidIP(`spec.clusterIPs[${i}]`, ip);
    if (ipErrs.length > 0) hasInvalidIPs = true;
    errs.push(...ipErrs);
  });
  if (clusterIPs.length > 2) errs.push(field.invalid("spec.clusterIPs", clusterIPs, "may only hold up to 2 values"));
  // Bad IPs or a misplaced None would skew the family checks below.
  if (hasInvalidIPs) return errs;
  if (clusterIPs.length > 1 && !isDualStackIPStrings(clusterIPs)) {
    errs.push(field.invalid("spec.clusterIPs", clusterIPs, "may specify no more than one IP for each IP family"));
  }
  const families = svc.spec.ipFamilies ?? [];
  if (!isHeadlessService(svc) && clusterIPs.length > 0 && families.length > 0) {
    clusterIPs.slice(0, families.length).forEach((ip, i) => {
      if (families[i] === "IPv4" && isIPv6String(ip)) {
        errs.push(field.invalid(`spec.clusterIPs[${i}]`, ip, `expected an IPv4 value as indicated by \`ipFamilies[${i}]\``));
      }
      if (families[i] === "IPv6" && !isIPv6String(ip)) {
        errs.push(field.invalid(`spec.clusterIPs[${i}]`, ip, `expected an IPv6 value as indicated by \`ipFamilies[${i}]\``));
      }
    });
  }
  return errs;
}

const isSingleStack = (svc: Service): boolean => svc.spec.ipFamilyPolicy === ipFamilyPolicies.SingleStack;

/**
 * Update rules for clusterIPs: the primary never changes, a secondary may be
 * added, and may be released only with policy SingleStack. Skipped when
 * either side is ExternalName or both are headless.
 */
export function validateUpgradeDowngradeClusterIPs(oldSvc: Service, svc: Service): FieldErrorList {
  if (svc.spec.type === serviceTypes.ExternalName || oldSvc.spec.type === serviceTypes.ExternalName) return [];
  if (isHeadlessService(oldSvc) && isHeadlessService(svc)) return [];
  const oldIPs = oldSvc.spec.clusterIPs ?? [];
  const newIPs = svc.spec.clusterIPs ?? [];
  const errs: FieldErrorList = [];
  const changed = (i: number): FieldErrorList => [field.invalid(`spec.clusterIPs[${i}]`, newIPs, "may not change once set")];
  if (oldIPs.length === newIPs.length) {
    oldIPs.forEach((ip, i) => ip !== newIPs[i] && errs.push(...changed(i)));
  } else if (oldIPs.length > newIPs.length) {
    if (newIPs.length === 0) errs.push(field.invalid("spec.clusterIPs[0]", newIPs, "primary clusterIP can not be unset"));
    if (oldIPs.length > 0 && newIPs.length > 0 && newIPs[0] !== oldIPs[0]) errs.push(...changed(0));
    if (newIPs.length === 1 && !isSingleStack(svc)) {
      errs.push(
        field.invalid(
          "spec.ipFamilyPolicy",
          svc.spec.ipFamilyPolicy,
          "must be set to 'SingleStack' when releasing the secondary clusterIP",
        ),
      );
    }
  } else if (oldIPs.length > 0 && newIPs[0] !== oldIPs[0]) {
    errs.push(...changed(0));
  }
  return errs;
}

/**
 * Update rules for ipFamilies, as for clusterIPs; every error is reported at
 * `spec.ipFamilies[0]` (as upstream). Headless services may change families
 * freely; a headless<->headful change is judged by the clusterIPs rules.
 */
export function validateUpgradeDowngradeIPFamilies(oldSvc: Service, svc: Service): FieldErrorList {
  if (svc.spec.type === serviceTypes.ExternalName || oldSvc.spec.type === serviceTypes.ExternalName) return [];
  if (isHeadlessService(oldSvc) !== isHeadlessService(svc) || isHeadlessService(svc)) return [];
  const oldFams = oldSvc.spec.ipFamilies ?? [];
  const newFams = svc.spec.ipFamilies ?? [];
  const newIPs = svc.spec.clusterIPs ?? [];
  const errs: FieldErrorList = [];
  if (oldFams.length === newFams.length) {
    oldFams.forEach((fam, i) => fam !== newFams[i] && errs.push(field.invalid("spec.ipFamilies[0]", newFams, "may not change once set")));
  } else if (oldFams.length > newFams.length) {
    if (newIPs.length === 0) errs.push(field.invalid("spec.ipFamilies[0]", newFams, "primary ipFamily can not be unset"));
    if (newFams.length > 0 && newFams[0] !== oldFams[0]) errs.push(field.invalid("spec.ipFamilies[0]", newIPs, "may not change once set"));
    if (newFams.length === 1 && !isSingleStack(svc)) {
      errs.push(
        field.invalid("spec.ipFamilyPolicy", svc.spec.ipFamilyPolicy, "must be set to 'SingleStack' when releasing the secondary ipFamily"),
      );
    }
  } else if (oldFams.length > 0 && newFams.length > 0 && newFams[0] !== oldFams[0]) {
    errs.push(field.invalid("spec.ipFamilies[0]", newIPs, "may not change once set"));
  }
  return errs;
}
