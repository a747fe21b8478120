/**
 * networking.k8s.io/v1 defaulting (pkg/apis/networking/v1/defaults.go). Ingress has none in v1:
 * pathType is required, not defaulted (v1beta1 defaulted it to ImplementationSpecific).
 */
import type { IngressClass } from "./ingress-types.ts";
import type { NetworkPolicy, NetworkPolicyPort } from "./network-policy-types.ts";

/** SetDefaults_NetworkPolicyPort: an unset protocol is TCP. */
function setDefaultsNetworkPolicyPort(p: NetworkPolicyPort): void {
  p.protocol ??= "TCP";
}

/**
 * SetDefaults_NetworkPolicy (with the generated port defaulting of every rule): policyTypes
 * defaults to [Ingress], plus Egress when egress rules are present.
 */
export function setDefaultsNetworkPolicy(np: NetworkPolicy): void {
  for (const r of np.spec.ingress ?? []) for (const p of r.ports ?? []) setDefaultsNetworkPolicyPort(p);
  for (const r of np.spec.egress ?? []) for (const p of r.ports ?? []) setDefaultsNetworkPolicyPort(p);
  if ((np.spec.policyTypes ?? []).length === 0) {
    np.spec.policyTypes = (np.spec.egress ?? []).length !== 0 ? ["Ingress", "Egress"] : ["Ingress"];
  }
}

/** SetDefaults_IngressClass: parameters without a scope are cluster-scoped. */
export function setDefaultsIngressClass(ic: IngressClass): void {
  if (ic.spec.parameters !== undefined && ic.spec.parameters.scope === undefined) ic.spec.parameters.scope = "Cluster";
}
