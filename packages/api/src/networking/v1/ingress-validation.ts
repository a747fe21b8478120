/**
 * Ingress validation (pkg/apis/networking/validation/validation.go, 1.33): ValidateIngressCreate,
 * ValidateIngressUpdate, ValidateIngressStatusUpdate, with upstream's field paths and messages.
 */
import { field, GoValue, path, type FieldErrorList } from "../../errors/index.ts";
import { isValidIP, parseIPSloppy } from "../../net/index.ts";
import {
  isDNS1123Subdomain,
  isValidPortName,
  isValidPortNum,
  isWildcardDNS1123Subdomain,
  nameIsDNS1035Label,
  nameIsDNSSubdomain,
  validateObjectMeta,
  validateObjectMetaUpdate,
} from "../../meta/v1/index.ts";
import { validateTypedLocalObjectReference } from "./ingress-class-validation.ts";
import { annotationIngressClass, type HTTPIngressPath, type Ingress, type IngressBackend, type IngressRule } from "./ingress-types.ts";

/** IngressValidationOptions: the leniencies an update keeps for data stored by older releases. */
export interface IngressValidationOptions {
  /** spec.tls[*].secretName values that are not valid Secret names are allowed. */
  allowInvalidSecretName?: boolean;
  /** Rules with a wildcard host are not validated further. */
  allowInvalidWildcardHostRule?: boolean;
}

const invalidPathSequences = ["//", "/./", "/../", "%2f", "%2F"];
const invalidPathSuffixes = ["/..", "/."];
const supportedPathTypes = ["Exact", "ImplementationSpecific", "Prefix"];

/** ValidateIngressCreate: the object, then the class annotation must agree with spec.ingressClassName. */
export function validateIngressCreate(ing: Ingress): FieldErrorList {
  const errs = validateIngress(ing, {});
  const annotation = ing.metadata.annotations?.[annotationIngressClass];
  const className = ing.spec.ingressClassName;
  if (annotation !== undefined && className !== undefined && annotation !== className) {
    errs.push(field.invalid(`annotations.${annotationIngressClass}`, annotation, "must match `ingressClassName` when both are specified"));
  }
  return errs;
}

/** ValidateIngressUpdate: metadata update rules, then the object with the leniencies `old` earns. */
export function validateIngressUpdate(ing: Ingress, old: Ingress): FieldErrorList {
  const opts = { allowInvalidSecretName: allowInvalidSecretName(old), allowInvalidWildcardHostRule: allowInvalidWildcardHostRule(old) };
  return [...validateObjectMetaUpdate(ing.metadata, old.metadata), ...validateIngress(ing, opts)];
}

/** ValidateIngressStatusUpdate: metadata update rules and status.loadBalancer. */
export function validateIngressStatusUpdate(ing: Ingress, old: Ingress): FieldErrorList {
  return [...validateObjectMetaUpdate(ing.metadata, old.metadata), ...validateIngressLoadBalancerStatus(ing)];
}

function validateIngress(ing: Ingress, opts: IngressValidationOptions): FieldErrorList {
  const errs = validateObjectMeta(ing.metadata, { namespaced: true, nameValidator: nameIsDNSSubdomain });
  return [...errs, ...validateIngressSpec(ing, opts)];
}

/** ValidateIngressSpec: a default backend or rules, each backend, rules, TLS and the class name. */
function validateIngressSpec(ing: Ingress, opts: IngressValidationOptions): FieldErrorList {
  const spec = ing.spec;
  const errs: FieldErrorList = [];
  const rules = spec.rules ?? [];
  if (rules.length === 0 && spec.defaultBackend === undefined) {
    // The bad value is the rules slice, printed with Go's %#v (a typed nil slice is not "null").
    const bad = new GoValue(spec.rules === undefined ? "[]networking.IngressRule(nil)" : "[]networking.IngressRule{}");
    errs.push(field.invalid("spec", bad, "either `defaultBackend` or `rules` must be specified"));
  }
  if (spec.defaultBackend !== undefined) errs.push(...validateIngressBackend(spec.defaultBackend, "spec.defaultBackend"));
  rules.forEach((r, i) => errs.push(...validateIngressRule(r, `spec.rules[${i}]`, opts)));
  (spec.tls ?? []).forEach((tls, ti) => {
    (tls.hosts ?? []).forEach((host, i) => {
      const msgs = host.includes("*") ? isWildcardDNS1123Subdomain(host) : isDNS1123Subdomain(host);
      for (const m of msgs) errs.push(field.invalid(`spec.tls[${ti}].hosts[${i}]`, host, m));
    });
    if (!opts.allowInvalidSecretName) {
      for (const m of validateTLSSecretName(tls.secretName)) errs.push(field.invalid(`spec.tls[${ti}].secretName`, tls.secretName, m));
    }
  });
  if (spec.ingressClassName !== undefined) {
    for (const m of nameIsDNSSubdomain(spec.ingressClassName, false)) {
      errs.push(field.invalid("spec.ingressClassName", spec.ingressClassName, m));
    }
  }
  return errs;
}

/** validateIngressRules for one rule: the host (no IP, wildcard rules), then its HTTP paths. */
function validateIngressRule(r: IngressRule, p: string, opts: IngressValidationOptions): FieldErrorList {
  const errs: FieldErrorList = [];
  let wildcardHost = false;
  const host = r.host ?? "";
  if (host.length > 0) {
    if (parseIPSloppy(host) !== null) errs.push(field.invalid(`${p}.host`, host, "must be a DNS name, not an IP address"));
    wildcardHost = host.includes("*");
    const msgs = wildcardHost ? isWildcardDNS1123Subdomain(host) : isDNS1123Subdomain(host);
    for (const m of msgs) errs.push(field.invalid(`${p}.host`, host, m));
  }
  if (!wildcardHost || !opts.allowInvalidWildcardHostRule) errs.push(...validateIngressRuleValue(r, p));
  return errs;
}

/** validateIngressRuleValue + validateHTTPIngressRuleValue. */
function validateIngressRuleValue(r: IngressRule, p: string): FieldErrorList {
  if (r.http === undefined) return [];
  const paths = r.http.paths ?? [];
  const errs: FieldErrorList = paths.length === 0 ? [field.required(`${p}.http.paths`)] : [];
  paths.forEach((hp, i) => errs.push(...validateHTTPIngressPath(hp, `${p}.http.paths[${i}]`)));
  return errs;
}

/** validateHTTPIngressPath: pathType is required; the path rules depend on it. */
function validateHTTPIngressPath(hp: HTTPIngressPath, p: string): FieldErrorList {
  if (hp.pathType === undefined) return [field.required(`${p}.pathType`, "pathType must be specified")];
  const errs: FieldErrorList = [];
  const value = hp.path ?? "";
  if (hp.pathType === "Exact" || hp.pathType === "Prefix") {
    if (!value.startsWith("/")) errs.push(field.invalid(`${p}.path`, value, "must be an absolute path"));
    if (value.length > 0) {
      for (const seq of invalidPathSequences) {
        if (value.includes(seq)) errs.push(field.invalid(`${p}.path`, value, `must not contain '${seq}'`));
      }
      for (const suffix of invalidPathSuffixes) {
        if (value.endsWith(suffix)) errs.push(field.invalid(`${p}.path`, value, `cannot end with '${suffix}'`));
      }
    }
  } else if (hp.pathType === "ImplementationSpecific") {
    if (value.length > 0 && !value.startsWith("/")) errs.push(field.invalid(`${p}.path`, value, "must be an absolute path"));
  } else {
    errs.push(field.notSupported(`${p}.pathType`, hp.pathType, supportedPathTypes));
  }
  return [...errs, ...validateIngressBackend(hp.backend, `${p}.backend`)];
}

/** validateIngressBackend: a resource xor a Service with a valid name and one port. */
export function validateIngressBackend(b: IngressBackend, p: string): FieldErrorList {
  if (b.resource !== undefined && b.service !== undefined) {
    return [field.invalid(p, "", "cannot set both resource and service backends")];
  }
  if (b.resource !== undefined) return validateTypedLocalObjectReference(b.resource, `${p}.resource`);
  if (b.service === undefined) return [field.invalid(p, "", "resource or service backend is required")];
  const errs: FieldErrorList = [];
  const svc = b.service;
  if (svc.name.length === 0) errs.push(field.required(path(p, "service", "name")));
  else for (const m of nameIsDNS1035Label(svc.name, false)) errs.push(field.invalid(path(p, "service", "name"), svc.name, m));
  const portName = svc.port?.name ?? "";
  const portNumber = svc.port?.number ?? 0;
  if (portName.length > 0 && portNumber !== 0) {
    errs.push(field.invalid(p, "", "cannot set both port name & port number"));
  } else if (portName.length > 0) {
    for (const m of isValidPortName(portName)) errs.push(field.invalid(path(p, "service", "port", "name"), portName, m));
  } else if (portNumber !== 0) {
    for (const m of isValidPortNum(portNumber)) errs.push(field.invalid(path(p, "service", "port", "number"), portNumber, m));
  } else {
    errs.push(field.required(p, "port name or number is required"));
  }
  return errs;
}

/** ValidateIngressLoadBalancerStatus: IPs (an IP the old status had is kept) and DNS hostnames. */
function validateIngressLoadBalancerStatus(ing: Ingress): FieldErrorList {
  const errs: FieldErrorList = [];
  (ing.status?.loadBalancer?.ingress ?? []).forEach((lb, i) => {
    const p = `status.loadBalancer.ingress[${i}]`;
    if (lb.ip) errs.push(...isValidIP(`${p}.ip`, lb.ip));
    if (lb.hostname) {
      for (const m of isDNS1123Subdomain(lb.hostname)) errs.push(field.invalid(`${p}.hostname`, lb.hostname, m));
      if (parseIPSloppy(lb.hostname) !== null)
        errs.push(field.invalid(`${p}.hostname`, lb.hostname, "must be a DNS name, not an IP address"));
    }
  });
  return errs;
}

/** validateTLSSecretName: empty is allowed; otherwise a Secret name (a DNS-1123 subdomain). */
function validateTLSSecretName(name: string | undefined): string[] {
  return name ? nameIsDNSSubdomain(name, false) : [];
}

function allowInvalidSecretName(old: Ingress): boolean {
  return (old.spec.tls ?? []).some((t) => validateTLSSecretName(t.secretName).length > 0);
}

function allowInvalidWildcardHostRule(old: Ingress): boolean {
  return (old.spec.rules ?? []).some((r) => (r.host ?? "").includes("*") && validateIngressRuleValue(r, "").length > 0);
}
