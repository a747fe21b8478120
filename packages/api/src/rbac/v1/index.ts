/** rbac.authorization.k8s.io/v1: Role, ClusterRole, RoleBinding, ClusterRoleBinding. */
export * from "./types.ts";
export * from "./defaults.ts";
export * from "./validation.ts";
