/**
 * pkg/registry/rbac/escalation_check.go: who may write RBAC objects granting rights beyond their
 * own. Members of system:masters always may (the apiserver's loopback identity); others need the
 * `escalate` verb on roles/clusterroles, or the `bind` verb on the role a binding references.
 */
import type { RoleRef } from "@servicenet/api";
import { systemPrivilegedGroup, type UserInfo } from "../../authentication/user/user.ts";
import { attributes, type Authorizer } from "../../authorization/authorizer/interfaces.ts";

/** EscalationAllowed: a member of system:masters can do anything. */
export function escalationAllowed(user: UserInfo): boolean {
  return user.groups.includes(systemPrivilegedGroup);
}

/** The request a RoleEscalationAuthorized check is about (upstream reads it from RequestInfo). */
export interface RoleRequest {
  apiGroup: string;
  /** `roles` or `clusterroles`; other resources are never escalation-authorized. */
  resource: string;
  name: string;
  namespace: string;
}

const roleResources = new Set(["rbac.authorization.k8s.io/roles", "rbac.authorization.k8s.io/clusterroles"]);

/** RoleEscalationAuthorized: the user may `escalate` the role resource of the request. */
export async function roleEscalationAuthorized(user: UserInfo, a: Authorizer | undefined, req: RoleRequest): Promise<boolean> {
  if (a === undefined || !roleResources.has(`${req.apiGroup}/${req.resource}`)) return false;
  const r = await a.authorize(
    attributes({
      user,
      verb: "escalate",
      apiGroup: req.apiGroup,
      apiVersion: "*",
      resource: req.resource,
      name: req.name,
      namespace: req.namespace,
      resourceRequest: true,
    }),
  );
  return r.decision === "Allow";
}

/**
 * BindingAuthorized: the user may `bind` the referenced role, checked in the binding's namespace
 * ("" for ClusterRoleBindings) so that binding rights can be delegated per namespace.
 */
export async function bindingAuthorized(
  user: UserInfo,
  roleRef: Partial<RoleRef>,
  bindingNamespace: string,
  a: Authorizer | undefined,
): Promise<boolean> {
  if (a === undefined) return false;
  const resource = roleRef.kind === "ClusterRole" ? "clusterroles" : roleRef.kind === "Role" ? "roles" : undefined;
  if (resource === undefined) return false;
  const r = await a.authorize(
    attributes({
      user,
      verb: "bind",
      namespace: bindingNamespace,
      apiGroup: roleRef.apiGroup ?? "",
      resource,
      name: roleRef.name ?? "",
      resourceRequest: true,
    }),
  );
  return r.decision === "Allow";
}
