/** Well-known names of discovery.k8s.io/v1 EndpointSlices. */

export const discoveryV1APIVersion = "discovery.k8s.io/v1";

/** addressType values; "IP" is the deprecated v1beta1 type, accepted only on update of old objects. */
export const endpointSliceAddressTypes = ["IPv4", "IPv6", "FQDN"] as const;
export type EndpointSliceAddressType = (typeof endpointSliceAddressTypes)[number];
export const deprecatedEndpointSliceAddressTypes = ["IP"] as const;

/** Port protocols an EndpointPort may carry. */
export const endpointPortProtocols = ["SCTP", "TCP", "UDP"] as const;

/** Label naming the Service a slice belongs to. */
export const endpointSliceServiceNameLabel = "kubernetes.io/service-name";
/** Label naming the controller that manages a slice. */
export const endpointSliceManagedByLabel = "endpointslice.kubernetes.io/managed-by";
/** Value of the managed-by label for the EndpointSlice controller. */
export const endpointSliceControllerName = "endpointslice-controller.k8s.io";
/** Value of the managed-by label for the EndpointSlice mirroring controller. */
export const endpointSliceMirroringControllerName = "endpointslicemirroring-controller.k8s.io";
/** Label on Endpoints that the mirroring controller must skip. */
export const endpointSliceSkipMirrorLabel = "endpointslice.kubernetes.io/skip-mirror";
/** Default --max-endpoints-per-slice of the controller. */
export const defaultMaxEndpointsPerSlice = 100;

/** Upstream validation limits (pkg/apis/discovery/validation). */
export const endpointSliceLimits = {
  maxTopologyLabels: 16,
  maxAddresses: 100,
  maxPorts: 20000,
  maxEndpoints: 1000,
  maxZoneHints: 8,
  maxNodeHints: 8,
} as const;
