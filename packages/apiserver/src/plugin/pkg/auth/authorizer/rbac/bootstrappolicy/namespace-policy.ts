/**
 * plugin/pkg/auth/authorizer/rbac/bootstrappolicy/namespace_policy.go: the Roles and RoleBindings
 * bootstrapped into kube-system and kube-public (extension-apiserver-authentication-reader, the
 * leader-locking roles of the controller manager and the scheduler, bootstrap-signer,
 * cloud-provider and token-cleaner).
 */
import type { Role, RoleBinding } from "@servicenet/api";
import { kubeControllerManager, kubeScheduler } from "../../../../../../authentication/user/user.ts";
import { saRolePrefix } from "./controller-policy.ts";
import { newRoleBinding, newRule } from "./helpers.ts";
import { addDefaultMetadata, coordinationGroup, eventsRule, legacyGroup } from "./policy-base.ts";

const namespaceSystem = "kube-system";
const namespacePublic = "kube-public";

function role(namespace: string, name: string, rules: Role["rules"]): Role {
  return addDefaultMetadata({ apiVersion: "rbac.authorization.k8s.io/v1", kind: "Role", metadata: { name, namespace }, rules });
}

/** The leader-locking roles: leases and lease candidates (coordinated leader election). */
function leaderLocking(component: string): Role {
  return role(namespaceSystem, `system::leader-locking-${component}`, [
    newRule("get", "watch", "list", "create", "update").groups(coordinationGroup).resources("leases").rule(),
    newRule("get", "watch", "list", "create", "update").groups(coordinationGroup).resources("leasecandidates").rule(),
  ]);
}

/** NamespaceRoles: namespace → its roles, in the order namespace_policy.go adds them. */
export function namespaceRoles(): Record<string, Role[]> {
  return {
    [namespaceSystem]: [
      // role for finding authentication config info for starting a server
      role(namespaceSystem, "extension-apiserver-authentication-reader", [
        // this particular config map is exposed and contains authentication configuration information
        newRule("get", "list", "watch").groups(legacyGroup).resources("configmaps").names("extension-apiserver-authentication").rule(),
      ]),
      // role for the bootstrap signer to be able to inspect kube-system secrets
      role(namespaceSystem, saRolePrefix + "bootstrap-signer", [
        newRule("get", "list", "watch").groups(legacyGroup).resources("secrets").rule(),
      ]),
      // role for the cloud providers to access/create kube-system configmaps
      // Deprecated starting Kubernetes 1.10 and will be deleted according to GA deprecation policy.
      role(namespaceSystem, saRolePrefix + "cloud-provider", [
        newRule("create", "get", "list", "watch").groups(legacyGroup).resources("configmaps").rule(),
      ]),
      // role for the token-cleaner to be able to remove secrets, but only in kube-system
      role(namespaceSystem, saRolePrefix + "token-cleaner", [
        newRule("get", "list", "watch", "delete").groups(legacyGroup).resources("secrets").rule(),
        eventsRule(),
      ]),
      leaderLocking("kube-controller-manager"),
      leaderLocking("kube-scheduler"),
    ],
    [namespacePublic]: [
      // role for the bootstrap signer to be able to write its configmap
      role(namespacePublic, saRolePrefix + "bootstrap-signer", [
        newRule("get", "list", "watch").groups(legacyGroup).resources("configmaps").rule(),
        newRule("update").groups(legacyGroup).resources("configmaps").names("cluster-info").rule(),
        eventsRule(),
      ]),
    ],
  };
}

/** NamespaceRoleBindings: namespace → its role bindings. */
export function namespaceRoleBindings(): Record<string, RoleBinding[]> {
  const delegatedAuth = newRoleBinding("extension-apiserver-authentication-reader", namespaceSystem)
    .users(kubeControllerManager, kubeScheduler)
    .binding();
  delegatedAuth.metadata.name = "system::extension-apiserver-authentication-reader";
  const sys = (roleName: string) => newRoleBinding(roleName, namespaceSystem);
  return {
    [namespaceSystem]: [
      delegatedAuth,
      sys("system::leader-locking-kube-controller-manager")
        .users(kubeControllerManager)
        .sas(namespaceSystem, "kube-controller-manager", "leader-election-controller")
        .binding(),
      sys("system::leader-locking-kube-scheduler").users(kubeScheduler).sas(namespaceSystem, "kube-scheduler").binding(),
      sys(saRolePrefix + "bootstrap-signer")
        .sas(namespaceSystem, "bootstrap-signer")
        .binding(),
      // cloud-provider is deprecated starting Kubernetes 1.10 and will be deleted according to GA deprecation policy.
      sys(saRolePrefix + "cloud-provider")
        .sas(namespaceSystem, "cloud-provider")
        .binding(),
      sys(saRolePrefix + "token-cleaner")
        .sas(namespaceSystem, "token-cleaner")
        .binding(),
    ].map(addDefaultMetadata),
    [namespacePublic]: [
      newRoleBinding(saRolePrefix + "bootstrap-signer", namespacePublic)
        .sas(namespaceSystem, "bootstrap-signer")
        .binding(),
    ].map(addDefaultMetadata),
  };
}
