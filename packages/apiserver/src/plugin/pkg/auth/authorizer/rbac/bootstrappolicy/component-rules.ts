/**
 * policy.go's rules for the control-plane and node components: NodeRules (system:node), and the
 * rule lists ClusterRoles builds for system:monitoring, system:kubelet-api-admin,
 * system:node-proxier and system:kube-scheduler, each with its feature-gated additions.
 */
import type { PolicyRule } from "@servicenet/api";
import { newRule } from "./helpers.ts";
import {
  appsGroup,
  authenticationGroup,
  authorizationGroup,
  certificatesGroup,
  coordinationGroup,
  discoveryGroup,
  eventsRule,
  extensionsGroup,
  legacyGroup,
  networkingGroup,
  policyGroup,
  Read,
  ReadUpdate,
  ReadWrite,
  resourceGroup,
  storageGroup,
} from "./policy-base.ts";
import type { PolicyFeatureGates } from "./policy-gates.ts";

/** NodeRules: what a kubelet needs; the Node authorizer and NodeRestriction narrow most of it. */
export function nodeRules(gates: PolicyFeatureGates): PolicyRule[] {
  const rules = [
    // Needed to check API access.  These creates are non-mutating
    newRule("create").groups(authenticationGroup).resources("tokenreviews").rule(),
    newRule("create").groups(authorizationGroup).resources("subjectaccessreviews", "localsubjectaccessreviews").rule(),
    // Needed to build serviceLister, to populate env vars for services
    newRule(...Read)
      .groups(legacyGroup)
      .resources("services")
      .rule(),
    // Nodes can register Node API objects and report status.
    newRule("create", "get", "list", "watch").groups(legacyGroup).resources("nodes").rule(),
    newRule("update", "patch").groups(legacyGroup).resources("nodes/status").rule(),
    newRule("update", "patch").groups(legacyGroup).resources("nodes").rule(),
    newRule("create", "update", "patch").groups(legacyGroup).resources("events").rule(),
    newRule(...Read)
      .groups(legacyGroup)
      .resources("pods")
      .rule(),
    // Needed for the node to create/delete mirror pods.
    newRule("create", "delete").groups(legacyGroup).resources("pods").rule(),
    // Needed for the node to report status of pods it is running.
    newRule("update", "patch").groups(legacyGroup).resources("pods/status").rule(),
    // Needed for the node to create pod evictions.
    newRule("create").groups(legacyGroup).resources("pods/eviction").rule(),
    // Needed for imagepullsecrets, secret and configmap volumes, and secrets and configmaps in envs
    newRule("get", "list", "watch").groups(legacyGroup).resources("secrets", "configmaps").rule(),
    // Needed for persistent volumes
    newRule("get").groups(legacyGroup).resources("persistentvolumeclaims", "persistentvolumes").rule(),
    // Needed for glusterfs volumes
    newRule("get").groups(legacyGroup).resources("endpoints").rule(),
    // Used to create a certificatesigningrequest for a node-specific client certificate, and watch
    // for it to be signed. This allows the kubelet to rotate it's own certificate.
    newRule("create", "get", "list", "watch").groups(certificatesGroup).resources("certificatesigningrequests").rule(),
    // Leases
    newRule("get", "create", "update", "patch", "delete").groups(coordinationGroup).resources("leases").rule(),
    // CSI
    newRule("get").groups(storageGroup).resources("volumeattachments").rule(),
    newRule("create").groups(legacyGroup).resources("serviceaccounts/token").rule(),
    newRule("get", "update", "patch").groups(legacyGroup).resources("persistentvolumeclaims/status").rule(),
    newRule("get", "watch", "list").groups(storageGroup).resources("csidrivers").rule(),
    newRule("get", "create", "update", "patch", "delete").groups(storageGroup).resources("csinodes").rule(),
    // RuntimeClass
    newRule("get", "list", "watch").groups("node.k8s.io").resources("runtimeclasses").rule(),
  ];
  if (gates.DynamicResourceAllocation) {
    rules.push(newRule("get").groups(resourceGroup).resources("resourceclaims").rule());
    rules.push(newRule("deletecollection").groups(resourceGroup).resources("resourceslices").rule());
  }
  // Kubelet needs access to ClusterTrustBundles to support the pemTrustAnchors volume type.
  if (gates.ClusterTrustBundle)
    rules.push(newRule("get", "list", "watch").groups(certificatesGroup).resources("clustertrustbundles").rule());
  // Kubelet needs access to ServiceAccounts to support sending service account tokens to the credential provider.
  if (gates.KubeletServiceAccountTokenForCredentialProviders)
    rules.push(newRule("get").groups(legacyGroup).resources("serviceaccounts").rule());
  return rules;
}

/** system:monitoring: the health and metrics endpoints, and the zpages behind their gates. */
export function monitoringRules(gates: PolicyFeatureGates): PolicyRule[] {
  const rules = [
    newRule("get").urls("/metrics", "/metrics/slis", "/livez", "/readyz", "/healthz", "/livez/*", "/readyz/*", "/healthz/*").rule(),
  ];
  if (gates.ComponentFlagz) rules.push(newRule("get").urls("/flagz").rule());
  if (gates.ComponentStatusz) rules.push(newRule("get").urls("/statusz").rule());
  return rules;
}

/** system:kubelet-api-admin: full access to the kubelet API. */
export function kubeletAPIAdminRules(gates: PolicyFeatureGates): PolicyRule[] {
  const rules = [
    // Allow read-only access to the Node API objects
    newRule("get", "list", "watch").groups(legacyGroup).resources("nodes").rule(),
    // Allow all API calls to the nodes
    newRule("proxy").groups(legacyGroup).resources("nodes").rule(),
    newRule("*").groups(legacyGroup).resources("nodes/proxy", "nodes/metrics", "nodes/stats", "nodes/log").rule(),
  ];
  if (gates.KubeletFineGrainedAuthz)
    rules.push(newRule("*").groups(legacyGroup).resources("nodes/pods", "nodes/healthz", "nodes/configz").rule());
  return rules;
}

/** system:node-proxier: what kube-proxy watches. */
export function nodeProxierRules(gates: PolicyFeatureGates): PolicyRule[] {
  const rules = [
    newRule("list", "watch").groups(legacyGroup).resources("services", "endpoints").rule(),
    newRule("get", "list", "watch").groups(legacyGroup).resources("nodes").rule(),
    eventsRule(),
  ];
  if (gates.MultiCIDRServiceAllocator) rules.push(newRule("list", "watch").groups(networkingGroup).resources("servicecidrs").rule());
  rules.push(newRule("list", "watch").groups(discoveryGroup).resources("endpointslices").rule());
  return rules;
}

/** system:kube-scheduler. */
export function kubeSchedulerRules(gates: PolicyFeatureGates): PolicyRule[] {
  const rules = [
    eventsRule(),
    // This is for leaderlease access
    newRule("create").groups(coordinationGroup).resources("leases").rule(),
    newRule("get", "update", "list", "watch").groups(coordinationGroup).resources("leases").names("kube-scheduler").rule(),
    newRule(...ReadWrite)
      .groups(coordinationGroup)
      .resources("leasecandidates")
      .rule(),
    // Fundamental resources
    newRule(...Read)
      .groups(legacyGroup)
      .resources("nodes")
      .rule(),
    newRule("get", "list", "watch", "delete").groups(legacyGroup).resources("pods").rule(),
    newRule("create").groups(legacyGroup).resources("pods/binding", "bindings").rule(),
    newRule("patch", "update").groups(legacyGroup).resources("pods/status").rule(),
    // Things that select pods
    newRule(...Read)
      .groups(legacyGroup)
      .resources("services", "replicationcontrollers")
      .rule(),
    newRule(...Read)
      .groups(appsGroup, extensionsGroup)
      .resources("replicasets")
      .rule(),
    newRule(...Read)
      .groups(appsGroup)
      .resources("statefulsets")
      .rule(),
    // Things that pods use or applies to them
    newRule(...Read)
      .groups(policyGroup)
      .resources("poddisruptionbudgets")
      .rule(),
    newRule(...Read)
      .groups(legacyGroup)
      .resources("persistentvolumeclaims", "persistentvolumes")
      .rule(),
    // Needed to check API access. These creates are non-mutating
    newRule("create").groups(authenticationGroup).resources("tokenreviews").rule(),
    newRule("create").groups(authorizationGroup).resources("subjectaccessreviews").rule(),
    // Needed for volume limits
    newRule(...Read)
      .groups(storageGroup)
      .resources("csinodes")
      .rule(),
    newRule("get", "list", "watch").groups(storageGroup).resources("volumeattachments").rule(),
    // Needed for namespaceSelector feature in pod affinity
    newRule(...Read)
      .groups(legacyGroup)
      .resources("namespaces")
      .rule(),
    newRule(...Read)
      .groups(storageGroup)
      .resources("csidrivers")
      .rule(),
    newRule(...Read)
      .groups(storageGroup)
      .resources("csistoragecapacities")
      .rule(),
  ];
  // Needed for dynamic resource allocation.
  if (gates.DynamicResourceAllocation) {
    rules.push(
      newRule(...Read)
        .groups(resourceGroup)
        .resources("deviceclasses")
        .rule(),
      newRule(...ReadUpdate)
        .groups(resourceGroup)
        .resources("resourceclaims")
        .rule(),
      newRule(...ReadUpdate)
        .groups(resourceGroup)
        .resources("resourceclaims/status")
        .rule(),
      newRule(...ReadUpdate)
        .groups(legacyGroup)
        .resources("pods/finalizers")
        .rule(),
      newRule(...Read)
        .groups(resourceGroup)
        .resources("resourceslices")
        .rule(),
    );
    if (gates.DRADeviceTaintRules)
      rules.push(
        newRule(...Read)
          .groups(resourceGroup)
          .resources("devicetaintrules")
          .rule(),
      );
  }
  return rules;
}
