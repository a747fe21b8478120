/**
 * ServiceCIDR and IPAddress validation (pkg/apis/networking/validation),
 * shared by v1 and v1beta1: the functions take the structural shape both
 * versions decode to.
 */
import { field, type FieldErrorList } from "../../errors/index.ts";
import { isDualStackCIDRStrings, validateCanonicalCIDR, validateCanonicalIP } from "../../net/index.ts";
import {
  fieldImmutableErrorMsg,
  isDNS1123Subdomain,
  isValidPathSegmentName,
  nameIsDNSSubdomain,
  validateImmutableField,
  validateObjectMeta,
  validateObjectMetaUpdate,
  type NameValidator,
  type ObjectMeta,
} from "../../meta/v1/index.ts";
import type { ParentReference } from "./types.ts";

/** What ServiceCIDR validation reads; both API versions satisfy it. */
export interface ServiceCIDRShape {
  readonly metadata: ObjectMeta;
  readonly spec: { readonly cidrs?: string[] | undefined };
}

/** What IPAddress validation reads; both API versions satisfy it. */
export interface IPAddressShape {
  readonly metadata: ObjectMeta;
  readonly spec: { readonly parentRef?: ParentReference | undefined };
}

/** `ValidateServiceCIDRName`: a DNS-1123 subdomain. */
export const validateServiceCIDRName: NameValidator = nameIsDNSSubdomain;

/** `ValidateIPAddressName`: the strict, canonical IP (no generateName prefix is considered). */
export const validateIPAddressName: NameValidator = (name) => validateCanonicalIP("", name).map((e) => e.detail);

/**
 * `ValidateServiceCIDR`: metadata, then the spec (see `validateServiceCIDRSpec`).
 * Prefix length and overlap with other ServiceCIDRs are deliberately not checked.
 */
export function validateServiceCIDR(obj: ServiceCIDRShape): FieldErrorList {
  const errs = validateObjectMeta(obj.metadata, { namespaced: false, nameValidator: validateServiceCIDRName });
  return [...errs, ...validateServiceCIDRSpec(obj.spec)];
}

/**
 * `validateServiceCIDRSpec` (1.33): 1-2 CIDRs (the count checks stop early),
 * each strict and canonical at `spec.cidrs[i]`, and then, for two, one per
 * family; invalid CIDRs are reported before the family error.
 */
function validateServiceCIDRSpec(spec: ServiceCIDRShape["spec"]): FieldErrorList {
  const cidrs = spec.cidrs ?? [];
  const p = "spec.cidrs";
  if (cidrs.length === 0) return [field.required(p, "at least one CIDR required")];
  if (cidrs.length > 2) return [field.invalid(p, spec, "may only hold up to 2 values")];
  const errs: FieldErrorList = [];
  cidrs.forEach((c, i) => errs.push(...validateCanonicalCIDR(`${p}[${i}]`, c)));
  if (cidrs.length === 2 && !isDualStackCIDRStrings(cidrs)) {
    errs.push(field.invalid(p, spec, "may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64"));
  }
  return errs;
}

/**
 * `ValidateServiceCIDRUpdate` (1.33): metadata update rules; spec.cidrs
 * immutable except that a single-CIDR object may gain a second CIDR (issue
 * #131261) as long as the first one is unchanged, and only then is the spec
 * validated again. The registry strategy runs nothing else on update, so an
 * immutable-field error never comes with create-time errors.
 */
export function validateServiceCIDRUpdate(update: ServiceCIDRShape, old: ServiceCIDRShape): FieldErrorList {
  const errs = validateObjectMetaUpdate(update.metadata, old.metadata);
  const next = update.spec.cidrs ?? [];
  const prev = old.spec.cidrs ?? [];
  if (next.length === prev.length) {
    prev.forEach((c, i) => {
      if (next[i] !== c) errs.push(field.invalid(`spec.cidrs[${i}]`, next[i], fieldImmutableErrorMsg));
    });
  } else if (prev.length === 1 && next.length === 2) {
    if (next[0] !== prev[0]) errs.push(field.invalid("spec.cidrs[0]", next[0], fieldImmutableErrorMsg));
    errs.push(...validateServiceCIDRSpec(update.spec));
  } else {
    errs.push(field.invalid("spec.cidrs", next, fieldImmutableErrorMsg));
  }
  return errs;
}

/** `ValidateServiceCIDRStatusUpdate`: metadata update rules only. */
export function validateServiceCIDRStatusUpdate(update: ServiceCIDRShape, old: ServiceCIDRShape): FieldErrorList {
  return validateObjectMetaUpdate(update.metadata, old.metadata);
}

/** `validateIPAddressParentReference`. */
function validateParentReference(ref: ParentReference | undefined): FieldErrorList {
  if (ref === undefined) return [field.required("spec.parentRef")];
  const p = "spec.parentRef";
  const errs: FieldErrorList = [];
  // group is required but the core group used by Services is "", so it can not be enforced
  if (ref.group) for (const m of isDNS1123Subdomain(ref.group)) errs.push(field.invalid(`${p}.group`, ref.group, m));
  for (const key of ["resource", "name"] as const) {
    const v = ref[key];
    if (!v) errs.push(field.required(`${p}.${key}`));
    else for (const m of isValidPathSegmentName(v)) errs.push(field.invalid(`${p}.${key}`, v, m));
  }
  if (ref.namespace) for (const m of isValidPathSegmentName(ref.namespace)) errs.push(field.invalid(`${p}.namespace`, ref.namespace, m));
  return errs;
}

/**
 * `ValidateIPAddress`: the name is a canonical IP (no rejection of network,
 * broadcast or link-local addresses at the API level) and parentRef is required.
 */
export function validateIPAddress(obj: IPAddressShape): FieldErrorList {
  return [
    ...validateObjectMeta(obj.metadata, { namespaced: false, nameValidator: validateIPAddressName }),
    ...validateParentReference(obj.spec.parentRef),
  ];
}

/**
 * `ValidateIPAddressUpdate`: metadata update rules and an immutable parentRef.
 * The strategy also runs `validateIPAddress(new)`.
 */
export function validateIPAddressUpdate(update: IPAddressShape, old: IPAddressShape): FieldErrorList {
  return [
    ...validateObjectMetaUpdate(update.metadata, old.metadata),
    ...validateImmutableField(update.spec.parentRef, old.spec.parentRef, "spec.parentRef"),
  ];
}
