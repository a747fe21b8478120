/**
 * The feature gates bootstrappolicy branches on (policy.go and controller_policy.go read
 * `utilfeature.DefaultFeatureGate`; here they are passed in). Most name features servicenet does
 * not serve: they only decide which rules the bootstrap roles carry, so a cluster built with the
 * defaults holds the same roles as a kube-apiserver 1.33 with its defaults.
 */

/** The gates the bootstrap policy reads (pkg/features/kube_features.go and component-base/zpages/features). */
export interface PolicyFeatureGates {
  /** kube-proxy watches ServiceCIDRs; the service-cidrs-controller role exists. GA (on) in 1.33. */
  MultiCIDRServiceAllocator: boolean;
  /** Dynamic resource allocation: resource.k8s.io rules and the resource-claim controllers. Beta, off in 1.33. */
  DynamicResourceAllocation: boolean;
  /** DeviceTaintRule reads for the scheduler. Alpha, off in 1.33. */
  DRADeviceTaintRules: boolean;
  /** ClusterTrustBundle reads for kubelets and service accounts. Beta, off in 1.33. */
  ClusterTrustBundle: boolean;
  /** Kubelets read ServiceAccounts for credential providers. Alpha, off in 1.33. */
  KubeletServiceAccountTokenForCredentialProviders: boolean;
  /** `/flagz` for system:monitoring. Alpha, off in 1.33. */
  ComponentFlagz: boolean;
  /** `/statusz` for system:monitoring. Alpha, off in 1.33. */
  ComponentStatusz: boolean;
  /** nodes/pods, nodes/healthz, nodes/configz for system:kubelet-api-admin. Beta, on in 1.33. */
  KubeletFineGrainedAuthz: boolean;
  /** The volumeattributesclass-protection-controller role. Beta, off in 1.33. */
  VolumeAttributesClass: boolean;
  /** The selinux-warning-controller role. Beta, on in 1.33. */
  SELinuxChangePolicy: boolean;
  /** With APIServerIdentity, the storage-version-garbage-collector role. Alpha, off in 1.33. */
  StorageVersionAPI: boolean;
  /** Beta, on in 1.33. */
  APIServerIdentity: boolean;
  /** The storage-version-migrator-controller role. Alpha, off in 1.33. */
  StorageVersionMigrator: boolean;
}

/** Kubernetes 1.33's defaults. */
export const defaultPolicyFeatureGates: Readonly<PolicyFeatureGates> = Object.freeze({
  MultiCIDRServiceAllocator: true,
  DynamicResourceAllocation: false,
  DRADeviceTaintRules: false,
  ClusterTrustBundle: false,
  KubeletServiceAccountTokenForCredentialProviders: false,
  ComponentFlagz: false,
  ComponentStatusz: false,
  KubeletFineGrainedAuthz: true,
  VolumeAttributesClass: false,
  SELinuxChangePolicy: true,
  StorageVersionAPI: false,
  APIServerIdentity: true,
  StorageVersionMigrator: false,
});

/** Every gate on, as policy_test.go's `*-featuregates.yaml` fixtures are built. */
export const allPolicyFeatureGates: Readonly<PolicyFeatureGates> = Object.freeze(
  Object.fromEntries(Object.keys(defaultPolicyFeatureGates).map((k) => [k, true])) as unknown as PolicyFeatureGates,
);

/** The defaults with `overrides` applied. */
export function policyFeatureGates(overrides: Partial<PolicyFeatureGates> = {}): PolicyFeatureGates {
  return { ...defaultPolicyFeatureGates, ...overrides };
}
