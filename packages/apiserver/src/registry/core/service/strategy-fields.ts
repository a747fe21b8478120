/**
 * The allocation-related parts of upstream pkg/registry/core/service/strategy.go
 * (PrepareForUpdate's dropTypeDependentFields and
 * trimFieldsForDualStackDowngrade), kept here so the strategy can call them.
 */
import { externallyAccessible, ipFamilyPolicies, type Service } from "@servicenet/api";
import { needsClusterIP, needsHealthCheck, needsNodePort, sameIPFamilies } from "./storage/helpers.ts";
import { specOf } from "./storage/service-view.ts";

function sameStrings(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  const x = a ?? [];
  const y = b ?? [];
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

/** strategy.go `sameClusterIPs`: singular and plural both unchanged. */
function sameClusterIPFields(old: Service, svc: Service): boolean {
  return (old.spec?.clusterIP ?? "") === (svc.spec?.clusterIP ?? "") && sameStrings(old.spec?.clusterIPs, svc.spec?.clusterIPs);
}

/** Users may add, remove or change ports as long as no net-new nodePort appears. */
function sameNodePorts(old: Service, svc: Service): boolean {
  const all = (s: Service) => new Set((s.spec?.ports ?? []).map((p) => p.nodePort ?? 0).filter((n) => n !== 0));
  const oldPorts = all(old);
  return [...all(svc)].every((n) => oldPorts.has(n));
}

/**
 * Update only: when the type change makes allocated fields meaningless, wipe
 * them, but only if the user left them unchanged (a changed value must reach
 * validation and fail). The allocator releases the wiped values on commit.
 */
export function dropTypeDependentFields(svc: Service, old: Service | null): void {
  if (old === null) return;
  const spec = specOf(svc);
  if (needsClusterIP(old) && !needsClusterIP(svc)) {
    if (sameClusterIPFields(old, svc)) {
      // Go's "" clusterIP is omitted from JSON (omitempty): absent, not "".
      delete spec.clusterIP;
      delete spec.clusterIPs;
    }
    if (sameIPFamilies(old, svc)) delete spec.ipFamilies;
    if ((old.spec?.ipFamilyPolicy ?? "") === (spec.ipFamilyPolicy ?? "")) delete spec.ipFamilyPolicy;
  }
  if (needsNodePort(old) && !needsNodePort(svc) && sameNodePorts(old, svc)) {
    for (const p of spec.ports ?? []) delete p.nodePort;
  }
  if (needsHealthCheck(old) && !needsHealthCheck(svc) && (old.spec?.healthCheckNodePort ?? 0) === (spec.healthCheckNodePort ?? 0)) {
    delete spec.healthCheckNodePort;
  }
  dropUnneededLoadBalancerFields(svc, old);
  // Leaving NodePort/LoadBalancer (or dropping externalIPs): an unchanged policy would fail validation.
  if (
    externallyAccessible(old.spec ?? {}) &&
    !externallyAccessible(spec) &&
    old.spec?.externalTrafficPolicy === spec.externalTrafficPolicy
  ) {
    delete spec.externalTrafficPolicy;
  }
}

/** Leaving LoadBalancer: unchanged allocateLoadBalancerNodePorts and loadBalancerClass are dropped. */
function dropUnneededLoadBalancerFields(svc: Service, old: Service): void {
  const spec = specOf(svc);
  if (old.spec?.type !== "LoadBalancer" || spec.type === "LoadBalancer") return;
  const oldAlloc = old.spec.allocateLoadBalancerNodePorts;
  if (oldAlloc !== undefined && spec.allocateLoadBalancerNodePorts === oldAlloc) delete spec.allocateLoadBalancerNodePorts;
  if ((old.spec.loadBalancerClass ?? null) === (spec.loadBalancerClass ?? null)) delete spec.loadBalancerClass;
}

/** Update only: dual -> SingleStack drops the secondary clusterIP and family automatically. */
export function trimFieldsForDualStackDowngrade(svc: Service, old: Service | null): void {
  if (old === null) return;
  const oldPolicy = old.spec?.ipFamilyPolicy;
  const oldIsDual = oldPolicy === ipFamilyPolicies.RequireDualStack || oldPolicy === ipFamilyPolicies.PreferDualStack;
  const spec = specOf(svc);
  if (!oldIsDual || spec.ipFamilyPolicy !== ipFamilyPolicies.SingleStack) return;
  if ((spec.clusterIPs?.length ?? 0) > 1) spec.clusterIPs = spec.clusterIPs!.slice(0, 1);
  if ((spec.ipFamilies?.length ?? 0) > 1) spec.ipFamilies = spec.ipFamilies!.slice(0, 1);
}
