/**
 * `initIPFamilyFields` (upstream storage/alloc.go), split into named steps in
 * the exact upstream order. It
 * defaults ipFamilyPolicy and ipFamilies for the cluster's configured
 * families and rejects combinations the cluster cannot serve, before any IP
 * is allocated.
 */
import { clusterIPNone, field, type FieldError, ipFamilyPolicies, path, type Service, serviceTypes, StatusError } from "@servicenet/api";
import {
  familyOf,
  getIPFamilyPolicy,
  hasEmptySelector,
  isMatchingPreferDualStackClusterIPFields,
  reducedClusterIPs,
  reducedIPFamilies,
  sameClusterIPs,
  sameIPFamilies,
} from "./helpers.ts";
import { nameOf, otherFamily, specOf } from "./service-view.ts";

/** What the steps need to know about the cluster. */
export interface IPFamilyContext {
  /** The configured families (keys of `serviceIPAllocatorsByFamily`). */
  readonly configuredFamilies: ReadonlySet<string>;
  /** `--service-cluster-ip-range[0]`'s family. */
  readonly defaultFamily: string;
  /** `ValidateServiceClusterIPsRelatedFields` from @servicenet/api. */
  readonly validateClusterIPsRelatedFields: (svc: Service) => FieldError[];
}

const serviceKind = { group: "", kind: "Service" } as const;

function invalid(svc: Service, errs: FieldError[]): StatusError {
  return StatusError.invalid(serviceKind, nameOf(svc), errs);
}

/** Step 3: an unset policy is inherited on update, RequireDualStack for headless selectorless, else SingleStack. */
export function defaultIPFamilyPolicy(svc: Service, old: Service | null): void {
  const spec = specOf(svc);
  if (spec.ipFamilyPolicy !== undefined) return;
  if (old !== null && old.spec?.ipFamilyPolicy !== undefined) {
    spec.ipFamilyPolicy = old.spec.ipFamilyPolicy;
  } else if (spec.clusterIP === clusterIPNone && hasEmptySelector(svc)) {
    spec.ipFamilyPolicy = ipFamilyPolicies.RequireDualStack;
  } else {
    spec.ipFamilyPolicy = ipFamilyPolicies.SingleStack;
  }
}

/** Step 5 (update only): SingleStack trims unchanged dual lists; other policies may not shrink them. */
export function prepareUpdateFamilies(svc: Service, old: Service, el: FieldError[]): void {
  const spec = specOf(svc);
  if (getIPFamilyPolicy(svc) === ipFamilyPolicies.SingleStack) {
    // ClusterIPs[0] is immutable, so keeping it is safe; unchanged lists plus SingleStack is clear intent.
    if (sameClusterIPs(old, svc) && (spec.clusterIPs?.length ?? 0) > 1) spec.clusterIPs = spec.clusterIPs!.slice(0, 1);
    if (sameIPFamilies(old, svc) && (spec.ipFamilies?.length ?? 0) > 1) spec.ipFamilies = spec.ipFamilies!.slice(0, 1);
    return;
  }
  if (reducedClusterIPs(svc, old)) {
    el.push(field.invalid("spec.ipFamilyPolicy", spec.ipFamilyPolicy, "must be 'SingleStack' to release the secondary cluster IP"));
  }
  if (reducedIPFamilies(svc, old)) {
    el.push(field.invalid("spec.ipFamilyPolicy", spec.ipFamilyPolicy, "must be 'SingleStack' to release the secondary IP family"));
  }
}

/** Step 6: SingleStack with two IPs or two families. */
export function checkSingleStackLists(svc: Service, el: FieldError[]): void {
  const spec = specOf(svc);
  if (getIPFamilyPolicy(svc) !== ipFamilyPolicies.SingleStack) return;
  if (spec.clusterIPs?.length === 2) {
    el.push(
      field.invalid(
        "spec.ipFamilyPolicy",
        spec.ipFamilyPolicy,
        "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified",
      ),
    );
  }
  if (spec.ipFamilies?.length === 2) {
    el.push(
      field.invalid(
        "spec.ipFamilyPolicy",
        spec.ipFamilyPolicy,
        "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified",
      ),
    );
  }
}

/** Step 7: families missing for given clusterIPs are inferred from the IPs, if configured. */
export function inferFamiliesFromClusterIPs(svc: Service, ctx: IPFamilyContext, el: FieldError[]): void {
  const spec = specOf(svc);
  const ips = spec.clusterIPs ?? [];
  for (let i = 0; i < ips.length; i++) {
    const ip = ips[i]!;
    if (ip === clusterIPNone) break;
    const fam = familyOf(ip);
    if (i < (spec.ipFamilies?.length ?? 0)) continue;
    if (!ctx.configuredFamilies.has(fam)) {
      el.push(field.invalid(path("spec", "clusterIPs", i), spec.clusterIPs, `${fam} is not configured on this cluster`));
    } else {
      spec.ipFamilies = [...(spec.ipFamilies ?? []), fam];
    }
  }
}

/** Step 9: headless selectorless services get [primary(, other)] with no configured-family checks. */
export function defaultHeadlessSelectorlessFamilies(svc: Service, ctx: IPFamilyContext): void {
  const spec = specOf(svc);
  if (!spec.ipFamilies || spec.ipFamilies.length === 0) spec.ipFamilies = [ctx.defaultFamily];
  if (spec.ipFamilies.length < 2 && spec.ipFamilyPolicy !== ipFamilyPolicies.SingleStack) {
    spec.ipFamilies = [...spec.ipFamilies, otherFamily(spec.ipFamilies[0]!)];
  }
}

/** Steps 10-11: RequireDualStack needs two families; every requested family must be configured. */
export function checkConfiguredFamilies(svc: Service, ctx: IPFamilyContext, el: FieldError[]): void {
  const spec = specOf(svc);
  if (getIPFamilyPolicy(svc) === ipFamilyPolicies.RequireDualStack && ctx.configuredFamilies.size < 2) {
    el.push(field.invalid("spec.ipFamilyPolicy", spec.ipFamilyPolicy, "this cluster is not configured for dual-stack services"));
  }
  (spec.ipFamilies ?? []).forEach((fam, i) => {
    if (!ctx.configuredFamilies.has(fam)) el.push(field.invalid(path("spec", "ipFamilies", i), fam, "not configured on this cluster"));
  });
}

/** Steps 12-13: no families gets the primary; a dual policy on a dual-stack cluster adds the other family. */
export function completeFamilies(svc: Service, ctx: IPFamilyContext): void {
  const spec = specOf(svc);
  if (!spec.ipFamilies || spec.ipFamilies.length === 0) spec.ipFamilies = [ctx.defaultFamily];
  if (spec.ipFamilyPolicy !== ipFamilyPolicies.SingleStack && spec.ipFamilies.length === 1 && ctx.configuredFamilies.size === 2) {
    const first = spec.ipFamilies[0];
    if (first === "IPv4" || first === "IPv6") spec.ipFamilies = [first, otherFamily(first)];
  }
}

/**
 * Defaults ipFamilyPolicy/ipFamilies of `svc` (mutated) for create (`old`
 * null) or update. Throws StatusError Invalid (422) on any inconsistency.
 */
export function initIPFamilyFields(ctx: IPFamilyContext, svc: Service, old: Service | null): void {
  const spec = specOf(svc);
  // 1. ExternalName: nothing to default.
  if (spec.type === serviceTypes.ExternalName) return;
  // 2. PreferDualStack stickiness.
  if (isMatchingPreferDualStackClusterIPFields(svc, old)) return;
  // 3. Policy.
  defaultIPFamilyPolicy(svc, old);
  // 4. Loose pre-validation, so that the steps below need not handle malformed input.
  const pre = ctx.validateClusterIPsRelatedFields(svc);
  if (pre.length > 0) throw invalid(svc, pre);
  const el: FieldError[] = [];
  // 5-7.
  if (old !== null) prepareUpdateFamilies(svc, old, el);
  checkSingleStackLists(svc, el);
  inferFamiliesFromClusterIPs(svc, ctx, el);
  // 8.
  if (el.length > 0) throw invalid(svc, el);
  // 9. Headless + selectorless allows what would otherwise be errors.
  if (spec.clusterIP === clusterIPNone && hasEmptySelector(svc)) {
    defaultHeadlessSelectorlessFamilies(svc, ctx);
    return;
  }
  // 10-11.
  checkConfiguredFamilies(svc, ctx, el);
  if (el.length > 0) throw invalid(svc, el);
  // 12-13.
  completeFamilies(svc, ctx);
}
