/** The EndpointSlice mirroring controller (upstream pkg/controller/endpointslicemirroring). */
export {
  EndpointSliceMirroringController,
  shouldMirror,
  type EndpointSliceMirroringControllerDeps,
} from "./endpointslicemirroring-controller.ts";
export { reconcile as reconcileMirroring, type MirrorPlan } from "./reconciler.ts";
export { defaultMirroringMaxEndpointsPerSubset } from "./utils.ts";
