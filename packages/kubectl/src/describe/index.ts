/** Describers whose output is byte-identical to kubectl 1.33's. */
export { describeService, formatEndpointSlices, buildIngressString } from "./service.ts";
export { describeEndpoints, describeEndpointSlice } from "./endpoints.ts";
export { describeServiceCIDR, describeIPAddress } from "./networking.ts";
export { describeEvents, printLabelsMultiline, printAnnotationsMultiline } from "./common.ts";
export type { DescribeOptions } from "./common.ts";
export { tabbedString, LEVEL_0, LEVEL_1, LEVEL_2, LEVEL_3 } from "./prefix-writer.ts";
export type { PrefixWriter } from "./prefix-writer.ts";
export { describeRole, describeClusterRole, describeRoleBinding, describeClusterRoleBinding, combineResourceGroup } from "./rbac.ts";
export { describePodDisruptionBudget } from "./policy.ts";
export { describeIngress, describeIngressClass, describeNetworkPolicy, ingressBackendServices } from "./ingress.ts";
export type { BackendService } from "./ingress.ts";
