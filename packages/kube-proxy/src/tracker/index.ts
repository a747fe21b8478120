/** Service and EndpointSlice change trackers (pkg/proxy). */
export { ServiceChangeTracker, serviceToServiceMap, updateServicePortMap } from "./service-change-tracker.ts";
export type { ServicePortMap, UpdateServiceMapResult } from "./service-change-tracker.ts";
export { EndpointsChangeTracker, lastChangeTriggerTimeAnnotation, updateEndpointsMap } from "./endpoints-change-tracker.ts";
export type { EndpointsMap, UpdateEndpointsMapResult } from "./endpoints-change-tracker.ts";
export { endpointsFromSlices, endpointSliceKeys } from "./endpoint-slice-data.ts";
