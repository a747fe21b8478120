/**
 * IngressClass validation (pkg/apis/networking/validation/validation.go, 1.33): ValidateIngressClass,
 * ValidateIngressClassUpdate and the parameters reference rules.
 */
import { field, type FieldErrorList } from "../../errors/index.ts";
import type { TypedLocalObjectReference } from "../../core/v1/object-reference.ts";
import {
  isDNS1123Subdomain,
  isDomainPrefixedPath,
  isValidPathSegmentName,
  nameIsDNSLabel,
  nameIsDNSSubdomain,
  validateImmutableField,
  validateObjectMeta,
  validateObjectMetaUpdate,
} from "../../meta/v1/index.ts";
import type { IngressClass, IngressClassParametersReference } from "./ingress-types.ts";

const maxLenIngressClassController = 250;
const supportedScopes = ["Cluster", "Namespace"];

/** ValidateIngressClass: a DNS-1123 subdomain name (cluster-scoped) and the spec. */
export function validateIngressClass(ic: IngressClass): FieldErrorList {
  const errs = validateObjectMeta(ic.metadata, { namespaced: false, nameValidator: nameIsDNSSubdomain });
  const controller = ic.spec.controller ?? "";
  if (controller.length === 0) {
    errs.push(field.required("spec.controller"));
  } else {
    if (controller.length > maxLenIngressClassController) errs.push(field.tooLong("spec.controller", "", maxLenIngressClassController));
    errs.push(...isDomainPrefixedPath("spec.controller", controller));
  }
  return [...errs, ...validateIngressClassParametersReference(ic.spec.parameters, "spec.parameters")];
}

/** ValidateIngressClassUpdate: metadata update rules, an immutable controller, then the whole object. */
export function validateIngressClassUpdate(ic: IngressClass, old: IngressClass): FieldErrorList {
  return [
    ...validateObjectMetaUpdate(ic.metadata, old.metadata),
    ...validateImmutableField(ic.spec.controller ?? "", old.spec.controller ?? "", "spec.controller"),
    ...validateIngressClass(ic),
  ];
}

/** apiGroup a DNS subdomain; kind and name required path segments. */
function validateGroupKindName(ref: { apiGroup?: string | undefined; kind: string; name: string }, p: string): FieldErrorList {
  const errs: FieldErrorList = [];
  if (ref.apiGroup !== undefined)
    for (const m of isDNS1123Subdomain(ref.apiGroup)) errs.push(field.invalid(`${p}.apiGroup`, ref.apiGroup, m));
  for (const key of ["kind", "name"] as const) {
    const v = ref[key];
    if (v === "") errs.push(field.required(`${p}.${key}`));
    else for (const m of isValidPathSegmentName(v)) errs.push(field.invalid(`${p}.${key}`, v, m));
  }
  return errs;
}

/** validateIngressTypedLocalObjectReference: an Ingress backend's `resource`. */
export function validateTypedLocalObjectReference(ref: TypedLocalObjectReference, p: string): FieldErrorList {
  return validateGroupKindName(ref, p);
}

/** validateIngressClassParametersReference: the reference, then the scope's namespace rules. */
function validateIngressClassParametersReference(ref: IngressClassParametersReference | undefined, p: string): FieldErrorList {
  if (ref === undefined) return [];
  const errs = validateGroupKindName(ref, p);
  if (ref.scope === undefined) return [...errs, field.required(`${p}.scope`)];
  if (!supportedScopes.includes(ref.scope)) return [...errs, field.notSupported(`${p}.scope`, ref.scope, supportedScopes)];
  if (ref.scope === "Namespace") {
    if (ref.namespace === undefined) errs.push(field.required(`${p}.namespace`, "`parameters.scope` is set to 'Namespace'"));
    else for (const m of nameIsDNSLabel(ref.namespace, false)) errs.push(field.invalid(`${p}.namespace`, ref.namespace, m));
  }
  if (ref.scope === "Cluster" && ref.namespace !== undefined) {
    errs.push(field.forbidden(`${p}.namespace`, "`parameters.scope` is set to 'Cluster'"));
  }
  return errs;
}
