/** Session affinity, traffic policies, healthCheckNodePort and loadBalancerClass rules of Services. */
import { field, type FieldErrorList } from "../../../errors/index.ts";
import { fieldImmutableErrorMsg } from "../../../meta/v1/validation/immutable.ts";
import { isValidPortNum } from "../../../meta/v1/validation/name.ts";
import { validateQualifiedName } from "../../../meta/v1/validation/labels.ts";
import { maxClientIPServiceAffinitySeconds, serviceAffinities, serviceTrafficDistributionPreferClose, serviceTypes } from "../constants.ts";
import { externallyAccessible, needsHealthCheck } from "../defaults.ts";
import type { Service } from "../service.ts";

/** Sorted, as upstream's `sets.List` prints them. */
export const supportedSessionAffinityTypes = ["ClientIP", "None"] as const;
export const supportedExternalTrafficPolicies = ["Cluster", "Local"] as const;
export const supportedInternalTrafficPolicies = ["Cluster", "Local"] as const;

const whenClientIP = `when session affinity type is ${serviceAffinities.ClientIP}`;

/** `sessionAffinity` required and supported; ClientIP needs a timeout in (0, 86400]; None forbids a config. */
export function validateSessionAffinity(svc: Service): FieldErrorList {
  const spec = svc.spec;
  const p = "spec.sessionAffinityConfig";
  if (!spec.sessionAffinity) return [field.required("spec.sessionAffinity")];
  if (!(supportedSessionAffinityTypes as readonly string[]).includes(spec.sessionAffinity)) {
    return [field.notSupported("spec.sessionAffinity", spec.sessionAffinity, supportedSessionAffinityTypes)];
  }
  if (spec.sessionAffinity === serviceAffinities.None) {
    return spec.sessionAffinityConfig !== undefined
      ? [field.forbidden(p, `must not be set when session affinity is ${serviceAffinities.None}`)]
      : [];
  }
  const cfg = spec.sessionAffinityConfig;
  if (cfg === undefined) return [field.required(p, whenClientIP)];
  if (cfg.clientIP === undefined) return [field.required(`${p}.clientIP`, whenClientIP)];
  const t = cfg.clientIP.timeoutSeconds;
  if (t === undefined) return [field.required(`${p}.clientIP.timeoutSeconds`, whenClientIP)];
  if (t <= 0 || t > maxClientIPServiceAffinitySeconds) {
    return [field.invalid(`${p}.clientIP.timeoutSeconds`, t, `must be greater than 0 and less than ${maxClientIPServiceAffinitySeconds}`)];
  }
  return [];
}

/** externalTrafficPolicy only (and then always) on externally accessible Services; HCNP only for LB+Local. */
export function validateServiceExternalTrafficPolicy(svc: Service): FieldErrorList {
  const spec = svc.spec;
  const errs: FieldErrorList = [];
  const etp = spec.externalTrafficPolicy ?? "";
  if (!externallyAccessible(spec)) {
    if (etp !== "") errs.push(field.invalid("spec.externalTrafficPolicy", etp, "may only be set for externally-accessible services"));
  } else if (etp === "") {
    errs.push(field.required("spec.externalTrafficPolicy"));
  } else if (!(supportedExternalTrafficPolicies as readonly string[]).includes(etp)) {
    errs.push(field.notSupported("spec.externalTrafficPolicy", etp, supportedExternalTrafficPolicies));
  }
  const hcnp = spec.healthCheckNodePort ?? 0;
  if (!needsHealthCheck(spec)) {
    if (hcnp !== 0)
      errs.push(
        field.invalid(
          "spec.healthCheckNodePort",
          hcnp,
          "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'",
        ),
      );
  } else if (hcnp === 0) {
    errs.push(field.required("spec.healthCheckNodePort"));
  } else {
    errs.push(...isValidPortNum(hcnp).map((m) => field.invalid("spec.healthCheckNodePort", hcnp, m)));
  }
  return errs;
}

/** healthCheckNodePort is immutable while both old and new need a health check. */
export function validateServiceExternalTrafficFieldsUpdate(before: Service, after: Service): FieldErrorList {
  if (
    needsHealthCheck(before.spec) &&
    needsHealthCheck(after.spec) &&
    (after.spec.healthCheckNodePort ?? 0) !== (before.spec.healthCheckNodePort ?? 0)
  ) {
    return [field.forbidden("spec.healthCheckNodePort", fieldImmutableErrorMsg)];
  }
  return [];
}

/** internalTrafficPolicy required for ClusterIP/NodePort/LoadBalancer (tolerated elsewhere, for history), and supported. */
export function validateServiceInternalTrafficFieldsValue(svc: Service): FieldErrorList {
  const itp = svc.spec.internalTrafficPolicy;
  const t = svc.spec.type;
  if (itp === undefined) {
    return t === serviceTypes.NodePort || t === serviceTypes.LoadBalancer || t === serviceTypes.ClusterIP
      ? [field.required("spec.internalTrafficPolicy")]
      : [];
  }
  return (supportedInternalTrafficPolicies as readonly string[]).includes(itp)
    ? []
    : [field.notSupported("spec.internalTrafficPolicy", itp, supportedInternalTrafficPolicies)];
}

/** trafficDistribution, when set, must be PreferClose. */
export function validateServiceTrafficDistribution(svc: Service): FieldErrorList {
  const td = svc.spec.trafficDistribution;
  if (td === undefined || td === serviceTrafficDistributionPreferClose) return [];
  return [field.notSupported("spec.trafficDistribution", td, [serviceTrafficDistributionPreferClose])];
}

/** loadBalancerClass: a qualified name, only on LoadBalancer, and immutable while LB stays LB. */
export function validateLoadBalancerClassField(oldSvc: Service | undefined, svc: Service): FieldErrorList {
  const errs: FieldErrorList = [];
  const isLB = svc.spec.type === serviceTypes.LoadBalancer;
  const cls = svc.spec.loadBalancerClass;
  if (oldSvc !== undefined && oldSvc.spec.type === serviceTypes.LoadBalancer && isLB && oldSvc.spec.loadBalancerClass !== cls) {
    errs.push(field.invalid("spec.loadBalancerClass", cls, "may not change once set"));
  }
  if (isLB) {
    if (cls !== undefined) errs.push(...validateQualifiedName(cls, "spec.loadBalancerClass"));
  } else if (cls !== undefined) {
    errs.push(field.forbidden("spec.loadBalancerClass", "may only be used when `type` is 'LoadBalancer'"));
  }
  return errs;
}
