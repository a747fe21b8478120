/**
 * plugin/pkg/auth/authorizer/rbac/bootstrappolicy/controller_policy.go: one `system:controller:<name>`
 * cluster role per controller, bound to the `<name>` service account in kube-system (the identity a
 * controller runs as with `--use-service-account-credentials`), for the controllers servicenet runs.
 */
import type { ClusterRole, ClusterRoleBinding, PolicyRule } from "@servicenet/api";
import { newClusterBinding, newRule } from "./helpers.ts";
import { addDefaultMetadata, eventsRule, Read } from "./policy.ts";

/** The prefix of controller role names (saRolePrefix). */
export const saRolePrefix = "system:controller:";
const legacyGroup = "";
const discoveryGroup = "discovery.k8s.io";
const networkingGroup = "networking.k8s.io";
const rbacGroup = "rbac.authorization.k8s.io";

function buildControllerRoles(): { roles: ClusterRole[]; bindings: ClusterRoleBinding[] } {
  const roles: ClusterRole[] = [];
  const bindings: ClusterRoleBinding[] = [];
  const addControllerRole = (name: string, rules: PolicyRule[]): void => {
    const roleName = saRolePrefix + name;
    roles.push(
      addDefaultMetadata({ apiVersion: "rbac.authorization.k8s.io/v1", kind: "ClusterRole", metadata: { name: roleName }, rules }),
    );
    bindings.push(addDefaultMetadata(newClusterBinding(roleName).sas("kube-system", name).binding()));
  };

  addControllerRole("clusterrole-aggregation-controller", [
    // this controller must have full permissions on clusterroles to allow it to mutate them in any way
    newRule("escalate", "get", "list", "watch", "update", "patch").groups(rbacGroup).resources("clusterroles").rule(),
  ]);
  addControllerRole("endpoint-controller", [
    newRule("get", "list", "watch").groups(legacyGroup).resources("services", "pods").rule(),
    newRule("get", "list", "watch", "create", "update", "delete").groups(legacyGroup).resources("endpoints").rule(),
    newRule("create").groups(legacyGroup).resources("endpoints/restricted").rule(),
    eventsRule(),
  ]);
  addControllerRole("endpointslice-controller", [
    newRule("get", "list", "watch").groups(legacyGroup).resources("services", "pods", "nodes").rule(),
    // The controller needs to be able to set a service's finalizers to be able to create an EndpointSlice
    // resource that is owned by the service and sets blockOwnerDeletion=true in its ownerRef.
    newRule("update").groups(legacyGroup).resources("services/finalizers").rule(),
    newRule("get", "list", "watch", "create", "update", "delete").groups(discoveryGroup).resources("endpointslices").rule(),
    eventsRule(),
  ]);
  addControllerRole("endpointslicemirroring-controller", [
    newRule("get", "list", "watch").groups(legacyGroup).resources("services", "endpoints").rule(),
    // The controller needs to be able to set a service's finalizers to be able to create an EndpointSlice
    // resource that is owned by the service and sets blockOwnerDeletion=true in its ownerRef.
    newRule("update").groups(legacyGroup).resources("services/finalizers").rule(),
    // The controller needs to be able to set a service's finalizers to be able to create an EndpointSlice
    // resource that is owned by the endpoints and sets blockOwnerDeletion=true in its ownerRef.
    // see https://github.com/openshift/kubernetes/blob/8691466059314c3f7d6dcffcbb76d14596ca716c/pkg/controller/endpointslicemirroring/utils.go#L87-L88
    newRule("update").groups(legacyGroup).resources("endpoints/finalizers").rule(),
    newRule("get", "list", "watch", "create", "update", "delete").groups(discoveryGroup).resources("endpointslices").rule(),
    eventsRule(),
  ]);
  addControllerRole("generic-garbage-collector", [
    // the GC controller needs to run list/watches, selective gets, and updates against any resource
    newRule("get", "list", "watch", "patch", "update", "delete").groups("*").resources("*").rule(),
    eventsRule(),
  ]);
  addControllerRole("namespace-controller", [
    newRule("get", "list", "watch", "delete").groups(legacyGroup).resources("namespaces").rule(),
    newRule("update").groups(legacyGroup).resources("namespaces/finalize", "namespaces/status").rule(),
    newRule("get", "list", "watch", "delete", "deletecollection").groups("*").resources("*").rule(),
  ]);
  addControllerRole("node-controller", [
    newRule("get", "list", "update", "delete", "patch").groups(legacyGroup).resources("nodes").rule(),
    newRule("patch", "update").groups(legacyGroup).resources("nodes/status").rule(),
    // used for pod deletion
    newRule("patch", "update").groups(legacyGroup).resources("pods/status").rule(),
    newRule("list", "get", "delete").groups(legacyGroup).resources("pods").rule(),
    eventsRule(),
  ]);
  addControllerRole("service-cidrs-controller", [
    newRule("get", "list", "watch", "patch", "update").groups(networkingGroup).resources("servicecidrs").rule(),
    newRule("patch", "update").groups(networkingGroup).resources("servicecidrs/finalizers").rule(),
    newRule("patch", "update").groups(networkingGroup).resources("servicecidrs/status").rule(),
    newRule(...Read)
      .groups(networkingGroup)
      .resources("ipaddresses")
      .rule(),
    eventsRule(),
  ]);
  return { roles, bindings };
}

/** ControllerRoles: the controller roles servicenet ships. */
export function controllerRoles(): ClusterRole[] {
  return buildControllerRoles().roles;
}

/** ControllerRoleBindings: their bindings to kube-system service accounts. */
export function controllerRoleBindings(): ClusterRoleBinding[] {
  return buildControllerRoles().bindings;
}
