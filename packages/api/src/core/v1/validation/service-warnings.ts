/**
 * Warnings returned when a Service is created or updated (upstream pkg/api/service/warnings.go
 * `GetWarningsForService`, the 1.33 set: the deprecated topology annotation, IP/CIDR fields in
 * non-standard forms that validation still accepts for legacy fields (KEP-4858), and fields an
 * ExternalName Service ignores or only it uses). The headless-Service and trafficDistribution
 * warnings came in 1.34.
 */
import { getWarningsForCIDR, getWarningsForIP } from "../../../net/index.ts";
import { annotationTopologyMode, clusterIPNone, deprecatedAnnotationTopologyAwareHints, serviceTypes } from "../constants.ts";
import type { Service } from "../service.ts";

/** The warnings for `svc` (upstream passes the old object too, and ignores it). */
export function getWarningsForService(svc: Service | null | undefined): string[] {
  if (!svc) return [];
  const warnings: string[] = [];
  if (svc.metadata?.annotations?.[deprecatedAnnotationTopologyAwareHints] !== undefined) {
    warnings.push(`annotation ${deprecatedAnnotationTopologyAwareHints} is deprecated, please use ${annotationTopologyMode} instead`);
  }
  const spec = svc.spec ?? {};
  // helper.IsServiceIPSet: clusterIP set and not "None".
  if (spec.clusterIP !== undefined && spec.clusterIP !== "" && spec.clusterIP !== clusterIPNone) {
    (spec.clusterIPs ?? []).forEach((ip, i) => warnings.push(...getWarningsForIP(`spec.clusterIPs[${i}]`, ip)));
  }
  (spec.externalIPs ?? []).forEach((ip, i) => warnings.push(...getWarningsForIP(`spec.externalIPs[${i}]`, ip)));
  if (spec.loadBalancerIP) warnings.push(...getWarningsForIP("spec.loadBalancerIP", spec.loadBalancerIP));
  (spec.loadBalancerSourceRanges ?? []).forEach((cidr, i) =>
    warnings.push(...getWarningsForCIDR(`spec.loadBalancerSourceRanges[${i}]`, cidr)),
  );
  if (spec.type === serviceTypes.ExternalName && (spec.externalIPs?.length ?? 0) > 0) {
    warnings.push(`spec.externalIPs is ignored when spec.type is "${serviceTypes.ExternalName}"`);
  }
  if (spec.type !== serviceTypes.ExternalName && spec.externalName) {
    warnings.push(`spec.externalName is ignored when spec.type is not "${serviceTypes.ExternalName}"`);
  }
  return warnings;
}
