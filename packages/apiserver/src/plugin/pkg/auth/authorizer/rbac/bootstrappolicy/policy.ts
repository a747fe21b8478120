/**
 * plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go: the cluster roles and bindings every
 * kube-apiserver starts with: all of them, including those of components servicenet does not run
 * (kubelet, scheduler, kube-dns, heapster, CSR approvers...), so that a client or an operator sees
 * the roles a real 1.33 cluster has. Rules are built as upstream builds them for the gates passed in.
 */
import type { ClusterRole, PolicyRule } from "@servicenet/api";
import { adminRules, editRules, viewRules } from "./aggregated-rules.ts";
import { kubeletAPIAdminRules, kubeSchedulerRules, monitoringRules, nodeProxierRules, nodeRules } from "./component-rules.ts";
import { newRule } from "./helpers.ts";
import {
  addDefaultMetadata,
  authenticationGroup,
  authorizationGroup,
  certificatesGroup,
  coordinationGroup,
  eventsRule,
  extensionsGroup,
  legacyGroup,
  Read,
  ReadUpdate,
  storageGroup,
} from "./policy-base.ts";
import type { PolicyFeatureGates } from "./policy-gates.ts";

const aggregateToAdmin = "rbac.authorization.k8s.io/aggregate-to-admin";
const aggregateToEdit = "rbac.authorization.k8s.io/aggregate-to-edit";
const aggregateToView = "rbac.authorization.k8s.io/aggregate-to-view";
/** The name of the role kubelets use (systemNodeRoleName). */
export const systemNodeRoleName = "system:node";

function clusterRole(
  name: string,
  rules: PolicyRule[] | null,
  extra: Pick<ClusterRole, "aggregationRule"> & { labels?: Record<string, string> } = {},
): ClusterRole {
  const { labels, ...rest } = extra;
  return {
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: "ClusterRole",
    metadata: { name, ...(labels ? { labels } : {}) },
    rules,
    ...rest,
  };
}

const selectLabel = (label: string): ClusterRole["aggregationRule"] => ({ clusterRoleSelectors: [{ matchLabels: { [label]: "true" } }] });
const approver = (name: string, signer: string): ClusterRole =>
  clusterRole(`system:certificates.k8s.io:${name}`, [
    newRule("approve").groups(certificatesGroup).resources("signers").names(signer).rule(),
  ]);

/** ClusterRoles: the cluster roles to bootstrap an API server with, in upstream's order. */
export function clusterRoles(gates: PolicyFeatureGates): ClusterRole[] {
  const roles: ClusterRole[] = [
    // a "root" role which can do absolutely anything
    clusterRole("cluster-admin", [newRule("*").groups("*").resources("*").rule(), newRule("*").urls("*").rule()]),
    // a role which provides just enough power to determine if the server is ready and discover API versions for negotiation
    clusterRole("system:discovery", [
      newRule("get")
        .urls("/livez", "/readyz", "/healthz", "/version", "/version/", "/openapi", "/openapi/*", "/api", "/api/*", "/apis", "/apis/*")
        .rule(),
    ]),
    // a role which provides minimal read access to the monitoring endpoints
    clusterRole("system:monitoring", monitoringRules(gates)),
    // a role which provides minimal resource access to allow a "normal" user to learn information about themselves
    clusterRole("system:basic-user", [
      newRule("create").groups(authorizationGroup).resources("selfsubjectaccessreviews", "selfsubjectrulesreviews").rule(),
      newRule("create").groups(authenticationGroup).resources("selfsubjectreviews").rule(),
    ]),
    // a role which provides just enough power read insensitive cluster information
    clusterRole("system:public-info-viewer", [newRule("get").urls("/livez", "/readyz", "/healthz", "/version", "/version/").rule()]),
    // a role for a namespace level admin.  It is `edit` plus the power to grant permissions to other users.
    clusterRole("admin", null, { aggregationRule: selectLabel(aggregateToAdmin) }),
    // a role for a namespace level editor.  It grants access to all user level actions in a namespace.
    clusterRole("edit", null, { labels: { [aggregateToAdmin]: "true" }, aggregationRule: selectLabel(aggregateToEdit) }),
    // a role for namespace level viewing.  It grants Read-only access to non-escalating resources in a namespace.
    clusterRole("view", null, { labels: { [aggregateToEdit]: "true" }, aggregationRule: selectLabel(aggregateToView) }),
    clusterRole("system:aggregate-to-admin", adminRules(), { labels: { [aggregateToAdmin]: "true" } }),
    clusterRole("system:aggregate-to-edit", editRules(gates), { labels: { [aggregateToEdit]: "true" } }),
    clusterRole("system:aggregate-to-view", viewRules(gates), { labels: { [aggregateToView]: "true" } }),
    // a role to use for heapster's connections back to the API server
    clusterRole("system:heapster", [
      newRule(...Read)
        .groups(legacyGroup)
        .resources("events", "pods", "nodes", "namespaces")
        .rule(),
      newRule(...Read)
        .groups(extensionsGroup)
        .resources("deployments")
        .rule(),
    ]),
    // a role for nodes to use to have the access they need for running pods
    clusterRole(systemNodeRoleName, nodeRules(gates)),
    // a role to use for node-problem-detector access.  It does not get bound to default location since
    // deployment locations can reasonably vary.
    clusterRole("system:node-problem-detector", [
      newRule("get").groups(legacyGroup).resources("nodes").rule(),
      newRule("patch").groups(legacyGroup).resources("nodes/status").rule(),
      eventsRule(),
    ]),
    // a role to use for bootstrapping a node's client certificates
    clusterRole("system:node-bootstrapper", [
      newRule("create", "get", "list", "watch").groups(certificatesGroup).resources("certificatesigningrequests").rule(),
    ]),
    // a role to use for allowing authentication and authorization delegation
    clusterRole("system:auth-delegator", [
      newRule("create").groups(authenticationGroup).resources("tokenreviews").rule(),
      newRule("create").groups(authorizationGroup).resources("subjectaccessreviews").rule(),
    ]),
    // a role to use for the API registry, summarization, and proxy handling
    clusterRole("system:kube-aggregator", [
      newRule(...Read)
        .groups(legacyGroup)
        .resources("services", "endpoints")
        .rule(),
    ]),
    // a role to use for bootstrapping the kube-controller-manager so it can create the shared informers
    // service accounts, and secrets that we need to create separate identities for other controllers
    clusterRole("system:kube-controller-manager", [
      eventsRule(),
      // Needed for leader election.
      newRule("create").groups(coordinationGroup).resources("leases").rule(),
      newRule("get", "update").groups(coordinationGroup).resources("leases").names("kube-controller-manager").rule(),
      // Fundamental resources.
      newRule("create").groups(legacyGroup).resources("secrets", "serviceaccounts").rule(),
      newRule("delete").groups(legacyGroup).resources("secrets").rule(),
      newRule("get").groups(legacyGroup).resources("namespaces", "secrets", "serviceaccounts", "configmaps").rule(),
      newRule("update").groups(legacyGroup).resources("secrets", "serviceaccounts").rule(),
      // Needed to check API access.  These creates are non-mutating
      newRule("create").groups(authenticationGroup).resources("tokenreviews").rule(),
      newRule("create").groups(authorizationGroup).resources("subjectaccessreviews").rule(),
      // Needed for all shared informers
      newRule("list", "watch").groups("*").resources("*").rule(),
      newRule("create").groups(legacyGroup).resources("serviceaccounts/token").rule(),
    ]),
    // a role to use for the kube-dns pod
    clusterRole("system:kube-dns", [newRule("list", "watch").groups(legacyGroup).resources("endpoints", "services").rule()]),
    // a role for an external/out-of-tree persistent volume provisioner
    clusterRole("system:persistent-volume-provisioner", [
      newRule("get", "list", "watch", "create", "delete").groups(legacyGroup).resources("persistentvolumes").rule(),
      // update is needed in addition to read access for setting lock annotations on PVCs
      newRule("get", "list", "watch", "update").groups(legacyGroup).resources("persistentvolumeclaims").rule(),
      newRule(...Read)
        .groups(storageGroup)
        .resources("storageclasses")
        .rule(),
      // Needed for watching provisioning success and failure events
      newRule("watch").groups(legacyGroup).resources("events").rule(),
      eventsRule(),
    ]),
    // a role making the csrapprover controller approve a node client CSR
    clusterRole("system:certificates.k8s.io:certificatesigningrequests:nodeclient", [
      newRule("create").groups(certificatesGroup).resources("certificatesigningrequests/nodeclient").rule(),
    ]),
    // a role making the csrapprover controller approve a node client CSR requested by the node itself
    clusterRole("system:certificates.k8s.io:certificatesigningrequests:selfnodeclient", [
      newRule("create").groups(certificatesGroup).resources("certificatesigningrequests/selfnodeclient").rule(),
    ]),
    clusterRole("system:volume-scheduler", [
      newRule(...ReadUpdate)
        .groups(legacyGroup)
        .resources("persistentvolumes")
        .rule(),
      newRule(...Read)
        .groups(storageGroup)
        .resources("storageclasses")
        .rule(),
      newRule(...ReadUpdate)
        .groups(legacyGroup)
        .resources("persistentvolumeclaims")
        .rule(),
    ]),
    approver("legacy-unknown-approver", "kubernetes.io/legacy-unknown"),
    approver("kubelet-serving-approver", "kubernetes.io/kubelet-serving"),
    approver("kube-apiserver-client-approver", "kubernetes.io/kube-apiserver-client"),
    approver("kube-apiserver-client-kubelet-approver", "kubernetes.io/kube-apiserver-client-kubelet"),
    // Also allow slash-ended URLs for clients generated from published openapi docs prior to fixing the trailing slash
    clusterRole("system:service-account-issuer-discovery", [
      newRule("get")
        .urls("/.well-known/openid-configuration", "/.well-known/openid-configuration/", "/openid/v1/jwks", "/openid/v1/jwks/")
        .rule(),
    ]),
    // a role to use for full access to the kubelet API
    clusterRole("system:kubelet-api-admin", kubeletAPIAdminRules(gates)),
    // node-proxier role is used by kube-proxy.
    clusterRole("system:node-proxier", nodeProxierRules(gates)),
    // a role to use for the kube-scheduler
    clusterRole("system:kube-scheduler", kubeSchedulerRules(gates)),
  ];
  // Default ClusterRole to allow reading ClusterTrustBundle objects
  if (gates.ClusterTrustBundle)
    roles.push(
      clusterRole("system:cluster-trust-bundle-discovery", [
        newRule(...Read)
          .groups(certificatesGroup)
          .resources("clustertrustbundles")
          .rule(),
      ]),
    );
  return roles.map(addDefaultMetadata);
}

/** ClusterRolesToAggregate: the roles whose rules moved into aggregate-to-* parts (old name → new name). */
export function clusterRolesToAggregate(): Record<string, string> {
  return { admin: "system:aggregate-to-admin", edit: "system:aggregate-to-edit", view: "system:aggregate-to-view" };
}
