/** core/v1 enumerations and well-known values, as `as const` objects (no TS enums). */

/** `spec.clusterIP: None` marks a headless Service. */
export const clusterIPNone = "None";

export const serviceTypes = {
  ClusterIP: "ClusterIP",
  NodePort: "NodePort",
  LoadBalancer: "LoadBalancer",
  ExternalName: "ExternalName",
} as const;
export type ServiceType = (typeof serviceTypes)[keyof typeof serviceTypes];

export const ipFamilyPolicies = {
  SingleStack: "SingleStack",
  PreferDualStack: "PreferDualStack",
  RequireDualStack: "RequireDualStack",
} as const;
export type IPFamilyPolicy = (typeof ipFamilyPolicies)[keyof typeof ipFamilyPolicies];

export const protocols = { TCP: "TCP", UDP: "UDP", SCTP: "SCTP" } as const;
export type Protocol = (typeof protocols)[keyof typeof protocols];

export const serviceAffinities = { ClientIP: "ClientIP", None: "None" } as const;
export type ServiceAffinity = (typeof serviceAffinities)[keyof typeof serviceAffinities];

/** Default and maximum `sessionAffinityConfig.clientIP.timeoutSeconds` (3 hours, 1 day). */
export const defaultClientIPServiceAffinitySeconds = 10800;
export const maxClientIPServiceAffinitySeconds = 86400;

export const serviceExternalTrafficPolicies = { Cluster: "Cluster", Local: "Local" } as const;
export type ServiceExternalTrafficPolicy = (typeof serviceExternalTrafficPolicies)[keyof typeof serviceExternalTrafficPolicies];

export const serviceInternalTrafficPolicies = { Cluster: "Cluster", Local: "Local" } as const;
export type ServiceInternalTrafficPolicy = (typeof serviceInternalTrafficPolicies)[keyof typeof serviceInternalTrafficPolicies];

/** The one `spec.trafficDistribution` value the validation we port accepts. */
export const serviceTrafficDistributionPreferClose = "PreferClose";

export const loadBalancerIPModes = { VIP: "VIP", Proxy: "Proxy" } as const;
export type LoadBalancerIPMode = (typeof loadBalancerIPModes)[keyof typeof loadBalancerIPModes];

export const podPhases = { Pending: "Pending", Running: "Running", Succeeded: "Succeeded", Failed: "Failed", Unknown: "Unknown" } as const;
export type PodPhase = (typeof podPhases)[keyof typeof podPhases];

export const namespacePhases = { Active: "Active", Terminating: "Terminating" } as const;
export type NamespacePhase = (typeof namespacePhases)[keyof typeof namespacePhases];

/** The finalizer the namespace controller owns (`spec.finalizers`). */
export const finalizerKubernetes = "kubernetes";

/** Namespace condition types the namespace controller maintains while a namespace terminates. */
export const namespaceConditionTypes = {
  DeletionDiscoveryFailure: "NamespaceDeletionDiscoveryFailure",
  DeletionGVParsingFailure: "NamespaceDeletionGroupVersionParsingFailure",
  DeletionContentFailure: "NamespaceDeletionContentFailure",
  ContentRemaining: "NamespaceContentRemaining",
  FinalizersRemaining: "NamespaceFinalizersRemaining",
} as const;
export type NamespaceConditionType = (typeof namespaceConditionTypes)[keyof typeof namespaceConditionTypes];

/** The StatusCause type NamespaceLifecycle admission adds when it refuses content in a terminating namespace. */
export const namespaceTerminatingCause = "NamespaceTerminating";

export const nodeAddressTypes = {
  Hostname: "Hostname",
  InternalIP: "InternalIP",
  ExternalIP: "ExternalIP",
  InternalDNS: "InternalDNS",
  ExternalDNS: "ExternalDNS",
} as const;
export type NodeAddressType = (typeof nodeAddressTypes)[keyof typeof nodeAddressTypes];

export const eventTypes = { Normal: "Normal", Warning: "Warning" } as const;
export type EventType = (typeof eventTypes)[keyof typeof eventTypes];

/** Label the Endpoints/EndpointSlice controllers put on objects of headless Services. */
export const labelServiceHeadless = "service.kubernetes.io/headless";
/** Annotation that holds LoadBalancer source ranges when the field is unset. */
export const annotationLoadBalancerSourceRanges = "service.beta.kubernetes.io/load-balancer-source-ranges";
/** Topology annotations that ValidateService requires to agree. */
export const annotationTopologyMode = "service.kubernetes.io/topology-mode";
export const deprecatedAnnotationTopologyAwareHints = "service.kubernetes.io/topology-aware-hints";
/** Port of the kubelet; upstream once forbade it on LoadBalancer ports. */
export const kubeletPort = 10250;
