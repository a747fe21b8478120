/**
 * policy.go ClusterRoleBindings and ClusterRoleBindingsToSplit: the default bindings of the
 * bootstrap cluster roles.
 */
import type { ClusterRoleBinding } from "@servicenet/api";
import {
  allAuthenticated,
  allUnauthenticated,
  kubeControllerManager,
  kubeProxy,
  kubeScheduler,
  monitoringGroup,
  systemPrivilegedGroup,
} from "../../../../../../authentication/user/user.ts";
import { newClusterBinding } from "./helpers.ts";
import { addDefaultMetadata } from "./policy-base.ts";
import type { PolicyFeatureGates } from "./policy-gates.ts";
import { systemNodeRoleName } from "./policy.ts";

/** serviceaccount.AllServiceAccountsGroup. */
const allServiceAccountsGroup = "system:serviceaccounts";

/** ClusterRoleBindings: the default bindings of the default roles. */
export function clusterRoleBindings(gates: PolicyFeatureGates): ClusterRoleBinding[] {
  const bindings = [
    newClusterBinding("cluster-admin").groups(systemPrivilegedGroup).binding(),
    newClusterBinding("system:monitoring").groups(monitoringGroup).binding(),
    newClusterBinding("system:discovery").groups(allAuthenticated).binding(),
    newClusterBinding("system:basic-user").groups(allAuthenticated).binding(),
    newClusterBinding("system:public-info-viewer").groups(allAuthenticated, allUnauthenticated).binding(),
    newClusterBinding("system:node-proxier").users(kubeProxy).binding(),
    newClusterBinding("system:kube-controller-manager").users(kubeControllerManager).binding(),
    newClusterBinding("system:kube-dns").sas("kube-system", "kube-dns").binding(),
    newClusterBinding("system:kube-scheduler").users(kubeScheduler).binding(),
    newClusterBinding("system:volume-scheduler").users(kubeScheduler).binding(),
    // The system:nodes group's binding is deprecated since the Node authorizer (1.7): it stays with
    // no subjects, so that tightening reconciliation can remove the subject.
    systemNodeBinding(),
    // Every service account may read the OIDC discovery endpoints.
    newClusterBinding("system:service-account-issuer-discovery").groups(allServiceAccountsGroup).binding(),
  ];
  // Service accounts can read ClusterTrustBundle objects.
  if (gates.ClusterTrustBundle)
    bindings.push(newClusterBinding("system:cluster-trust-bundle-discovery").groups(allServiceAccountsGroup).binding());
  return bindings.map(addDefaultMetadata);
}

function systemNodeBinding(): ClusterRoleBinding {
  return {
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: "ClusterRoleBinding",
    metadata: { name: systemNodeRoleName },
    roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: systemNodeRoleName },
  };
}

/**
 * ClusterRoleBindingsToSplit: source binding name → the template of a binding that takes the
 * source's subjects (system:discovery's were split into system:public-info-viewer in 1.14).
 */
export function clusterRoleBindingsToSplit(gates: PolicyFeatureGates): Record<string, ClusterRoleBinding> {
  const out: Record<string, ClusterRoleBinding> = {};
  for (const b of clusterRoleBindings(gates)) if (b.metadata.name === "system:public-info-viewer") out["system:discovery"] = b;
  return out;
}
