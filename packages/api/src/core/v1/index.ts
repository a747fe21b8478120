/** core/v1: Service, Endpoints, Pod, Node, Namespace, Event, ConfigMap, Secret, ServiceAccount; defaulting and validation. */
export * from "./constants.ts";
export * from "./object-reference.ts";
export * from "./service.ts";
export * from "./endpoints.ts";
export * from "./endpoints-util.ts";
export * from "./pod.ts";
export * from "./binding.ts";
export * from "./node.ts";
export * from "./well-known-taints.ts";
export * from "./namespace.ts";
export * from "./event.ts";
export * from "./config-map.ts";
export * from "./secret.ts";
export * from "./service-account.ts";
export * from "./defaults.ts";
export * from "./pod-defaults.ts";
export * from "./validation/index.ts";
