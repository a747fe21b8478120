/** discovery.k8s.io/v1: EndpointSlice. */
export * from "./constants.ts";
export {
  EndpointSliceConditionsSchema,
  EndpointSliceHintsSchema,
  EndpointSliceEndpointSchema,
  EndpointSlicePortSchema,
  EndpointSliceSchema,
  EndpointSliceListSchema,
} from "./types.ts";
export { setDefaultsEndpointSlice } from "./defaults.ts";
export type {
  EndpointSliceConditions,
  EndpointSliceHints,
  EndpointSliceEndpoint,
  EndpointSlicePort,
  EndpointSlice,
  EndpointSliceList,
} from "./types.ts";
export { validateEndpointSliceName, validateEndpointSlice, validateEndpointSliceUpdate } from "./validation.ts";
