/**
 * Registry-side fix-ups of upstream storage/storage.go that run before
 * allocation (normalizeClusterIPs, patchAllocatedValues) and on read
 * (defaultOnReadService, for objects stored before dual-stack fields existed).
 */
import { clusterIPNone, ipFamilyPolicies, isIPv6String, type Service, serviceTypes } from "@servicenet/api";
import { hasEmptySelector, needsClusterIP, needsHealthCheck, needsNodePort, sameClusterIPs } from "./helpers.ts";
import { otherFamily, specOf } from "./service-view.ts";

/**
 * Keeps clusterIP and clusterIPs in sync: old clients send only the singular
 * field. Create: clusterIPs = [clusterIP] when only the singular is set.
 * Update: restore omitted plural values, clear or replace the plural when the
 * singular was cleared or changed and the plural left as it was. Validation
 * judges whatever remains.
 */
export function normalizeClusterIPs(after: Service, before: Service | null): void {
  const spec = specOf(after);
  const clusterIP = spec.clusterIP ?? "";
  if (before === null) {
    if (clusterIP !== "" && (spec.clusterIPs?.length ?? 0) === 0) spec.clusterIPs = [clusterIP];
    return;
  }
  const old = specOf(before);
  const oldClusterIP = old.clusterIP ?? "";
  if ((old.clusterIPs?.length ?? 0) > 0 && (spec.clusterIPs?.length ?? 0) === 0 && oldClusterIP === clusterIP) {
    spec.clusterIPs = old.clusterIPs;
  }
  if (oldClusterIP !== clusterIP) {
    if (oldClusterIP !== "" && clusterIP === "") {
      if (sameClusterIPs(before, after)) delete spec.clusterIPs;
    } else if (sameClusterIPs(before, after)) {
      spec.clusterIPs = [clusterIP];
    }
  }
}

/**
 * Lets clients resubmit an object without the values the server allocated
 * (clusterIP(s), nodePorts by port name, healthCheckNodePort). ipFamilies and
 * ipFamilyPolicy are deliberately not patched: initIPFamilyFields infers them.
 */
export function patchAllocatedValues(after: Service, before: Service): void {
  const spec = specOf(after);
  const old = specOf(before);
  if (needsClusterIP(before) && needsClusterIP(after)) {
    if ((spec.clusterIP ?? "") === "") spec.clusterIP = old.clusterIP;
    if ((spec.clusterIPs?.length ?? 0) === 0 && (old.clusterIPs?.length ?? 0) > 0) spec.clusterIPs = old.clusterIPs;
  }
  if (needsNodePort(before) && needsNodePort(after)) {
    const usedBy = (s: Service) => new Set((s.spec?.ports ?? []).map((p) => p.nodePort ?? 0).filter((n) => n !== 0));
    const oldUsed = usedBy(before);
    const used = new Set([...usedBy(after)].filter((n) => oldUsed.has(n)));
    const byName = new Map<string, number>();
    for (const p of old.ports ?? []) byName.set(p.name ?? "", p.nodePort ?? 0);
    for (const p of spec.ports ?? []) {
      if ((p.nodePort ?? 0) !== 0) continue;
      const oldVal = byName.get(p.name ?? "") ?? 0;
      if (!used.has(oldVal)) p.nodePort = oldVal;
    }
  }
  if (needsHealthCheck(before) && needsHealthCheck(after) && (spec.healthCheckNodePort ?? 0) === 0) {
    spec.healthCheckNodePort = old.healthCheckNodePort;
  }
}

/**
 * `defaultOnReadIPFamilies`: fills ipFamilies/ipFamilyPolicy of objects stored
 * without them. Headless selectorless: RequireDualStack [primary, other];
 * headless with selector: SingleStack [primary]; headful: families from the IPs.
 */
export function defaultOnReadIPFamilies(svc: Service, primaryIPFamily: string): void {
  if (!needsClusterIP(svc)) return;
  const spec = specOf(svc);
  if ((spec.ipFamilies?.length ?? 0) > 0) return;
  if (spec.clusterIP === clusterIPNone) {
    if (hasEmptySelector(svc)) {
      spec.ipFamilyPolicy = ipFamilyPolicies.RequireDualStack;
      spec.ipFamilies = [primaryIPFamily, otherFamily(primaryIPFamily)];
    } else {
      spec.ipFamilyPolicy = ipFamilyPolicies.SingleStack;
      spec.ipFamilies = [primaryIPFamily];
    }
    return;
  }
  const ips = spec.clusterIPs ?? [];
  spec.ipFamilies = ips.map((ip) => (isIPv6String(ip) ? "IPv6" : "IPv4"));
  if (ips.length === 1) spec.ipFamilyPolicy = ipFamilyPolicies.SingleStack;
  else if (ips.length === 2) spec.ipFamilyPolicy = ipFamilyPolicies.RequireDualStack;
}

/** Read-time defaulting of one stored Service (Get/List/Watch decorator, and `old` in BeginUpdate). */
export function defaultOnReadService(svc: Service | null | undefined, primaryIPFamily: string): void {
  if (!svc) return;
  normalizeClusterIPs(svc, null);
  defaultOnReadIPFamilies(svc, primaryIPFamily);
  // internalTrafficPolicy was once defaulted for ExternalName by mistake; hide it on read.
  const spec = svc.spec as (Service["spec"] & { internalTrafficPolicy?: unknown }) | undefined;
  if (spec?.type === serviceTypes.ExternalName && spec.internalTrafficPolicy !== undefined) delete spec.internalTrafficPolicy;
}
