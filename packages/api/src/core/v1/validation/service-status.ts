/** `ValidateLoadBalancerStatus` (Service status updates), with gates passed in. */
import { field, type FieldErrorList } from "../../../errors/index.ts";
import { isValidIP, parseIPSloppy } from "../../../net/index.ts";
import { isDNS1123Subdomain } from "../../../meta/v1/validation/name.ts";
import { serviceTypes } from "../constants.ts";
import type { Service } from "../service.ts";

export const supportedLoadBalancerIPModes = ["Proxy", "VIP"] as const;

export interface LoadBalancerStatusGates {
  /** LoadBalancerIPMode (GA): `ipMode` required when `ip` is set. Default true. */
  loadBalancerIPMode?: boolean;
  /** AllowServiceLBStatusOnNonLB: tolerate ingress on non-LB Services. Default false. */
  allowServiceLBStatusOnNonLB?: boolean;
}

/** Validates `status.loadBalancer` of a Service against its spec. */
export function validateLoadBalancerStatus(svc: Service, path: string, gates: LoadBalancerStatusGates = {}): FieldErrorList {
  const ingress = svc.status?.loadBalancer?.ingress ?? [];
  const ingPath = `${path}.ingress`;
  if (!(gates.allowServiceLBStatusOnNonLB ?? false) && svc.spec.type !== serviceTypes.LoadBalancer && ingress.length !== 0) {
    return [field.forbidden(ingPath, "may only be used when `spec.type` is 'LoadBalancer'")];
  }
  const errs: FieldErrorList = [];
  ingress.forEach((ing, i) => {
    const p = `${ingPath}[${i}]`;
    const ip = ing.ip ?? "";
    if (ip.length > 0) errs.push(...isValidIP(`${p}.ip`, ip));
    if ((gates.loadBalancerIPMode ?? true) && ing.ipMode === undefined) {
      if (ip.length > 0) errs.push(field.required(`${p}.ipMode`, "must be specified when `ip` is set"));
    } else if (ing.ipMode !== undefined && ip.length === 0) {
      errs.push(field.forbidden(`${p}.ipMode`, "may not be specified when `ip` is not set"));
    } else if (ing.ipMode !== undefined && !(supportedLoadBalancerIPModes as readonly string[]).includes(ing.ipMode)) {
      errs.push(field.notSupported(`${p}.ipMode`, ing.ipMode, supportedLoadBalancerIPModes));
    }
    const host = ing.hostname ?? "";
    if (host.length > 0) {
      errs.push(...isDNS1123Subdomain(host).map((m) => field.invalid(`${p}.hostname`, host, m)));
      if (parseIPSloppy(host) !== null) errs.push(field.invalid(`${p}.hostname`, host, "must be a DNS name, not an IP address"));
    }
  });
  return errs;
}
