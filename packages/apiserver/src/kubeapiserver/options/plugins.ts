/**
 * kube-apiserver's admission plugins by name (pkg/kubeapiserver/options/plugins.go
 * AllOrderedPlugins, DefaultOffAdmissionPlugins, as of 1.33) and the `--enable-admission-plugins`
 * / `--disable-admission-plugins` rules (k8s.io/apiserver/pkg/server/options/admission.go
 * Validate and enabledPluginNames).
 */

/** Every plugin kube-apiserver 1.33 registers, in the order they run. */
export const allOrderedPlugins: readonly string[] = [
  "AlwaysAdmit",
  "NamespaceAutoProvision",
  "NamespaceLifecycle",
  "NamespaceExists",
  "LimitPodHardAntiAffinityTopology",
  "LimitRanger",
  "ServiceAccount",
  "NodeRestriction",
  "TaintNodesByCondition",
  "AlwaysPullImages",
  "ImagePolicyWebhook",
  "PodSecurity",
  "PodNodeSelector",
  "Priority",
  "DefaultTolerationSeconds",
  "PodTolerationRestriction",
  "EventRateLimit",
  "ExtendedResourceToleration",
  "DefaultStorageClass",
  "StorageObjectInUseProtection",
  "OwnerReferencesPermissionEnforcement",
  "PersistentVolumeClaimResize",
  "RuntimeClass",
  "CertificateApproval",
  "CertificateSigning",
  "ClusterTrustBundleAttest",
  "CertificateSubjectRestriction",
  "DefaultIngressClass",
  "DenyServiceExternalIPs",
  "PodTopologyLabels",
  // webhook, resourcequota and deny plugins go at the end
  "MutatingAdmissionPolicy",
  "MutatingAdmissionWebhook",
  "ValidatingAdmissionPolicy",
  "ValidatingAdmissionWebhook",
  "ResourceQuota",
  "AlwaysDeny",
];

const defaultOnPlugins: ReadonlySet<string> = new Set([
  "NamespaceLifecycle",
  "LimitRanger",
  "ServiceAccount",
  "DefaultStorageClass",
  "PersistentVolumeClaimResize",
  "DefaultTolerationSeconds",
  "MutatingAdmissionWebhook",
  "ValidatingAdmissionWebhook",
  "ResourceQuota",
  "StorageObjectInUseProtection",
  "Priority",
  "TaintNodesByCondition",
  "RuntimeClass",
  "CertificateApproval",
  "CertificateSigning",
  "ClusterTrustBundleAttest",
  "CertificateSubjectRestriction",
  "DefaultIngressClass",
  "PodSecurity",
  "PodTopologyLabels",
  "MutatingAdmissionPolicy",
  "ValidatingAdmissionPolicy",
]);

/** The flags as given (empty lists when absent). */
export interface AdmissionPluginFlags {
  enable?: readonly string[];
  disable?: readonly string[];
}

/** AdmissionOptions.Validate: unknown names and overlaps, in upstream's words. */
export function validateAdmissionPluginFlags(f: AdmissionPluginFlags): string[] {
  const known = new Set(allOrderedPlugins);
  const errs: string[] = [];
  for (const n of f.enable ?? []) if (!known.has(n)) errs.push(`enable-admission-plugins plugin "${n}" is unknown`);
  for (const n of f.disable ?? []) if (!known.has(n)) errs.push(`disable-admission-plugins plugin "${n}" is unknown`);
  const disable = new Set(f.disable ?? []);
  const both = [...new Set(f.enable ?? [])].filter((n) => disable.has(n)).sort();
  // Go's %v of a []string: [a b].
  if (both.length > 0) errs.push(`[${both.join(" ")}] in enable-admission-plugins and disable-admission-plugins overlapped`);
  return errs;
}

/** enabledPluginNames: the default-on plugins plus `enable`, minus `disable`, in the recommended order. */
export function enabledAdmissionPlugins(f: AdmissionPluginFlags = {}): string[] {
  const enable = new Set(f.enable ?? []);
  const off = new Set([...allOrderedPlugins.filter((n) => !defaultOnPlugins.has(n)), ...(f.disable ?? [])].filter((n) => !enable.has(n)));
  return allOrderedPlugins.filter((n) => !off.has(n));
}
