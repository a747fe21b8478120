/** The kubernetes Service's endpoint reconcilers (upstream pkg/controlplane/reconcilers). */
export { LeaseEndpointReconciler, checkEndpointSubsetFormatWithLease, labelSkipMirror, type EndpointReconciler } from "./lease.ts";
export { StorageLeases, defaultEndpointReconcilerTTLMs, masterLeasesKey, type Leases } from "./leases.ts";
export { EndpointsAdapter, endpointSliceFromEndpoints, registryClient, semanticEqual, type ObjectClient } from "./endpoints-adapter.ts";
