/**
 * policy.go viewRules and editRules: the rules of system:aggregate-to-view and
 * system:aggregate-to-edit, which the aggregation controller folds into view, edit and admin.
 */
import type { PolicyRule } from "@servicenet/api";
import { newRule } from "./helpers.ts";
import {
  appsGroup,
  authorizationGroup,
  autoscalingGroup,
  batchGroup,
  coordinationGroup,
  discoveryGroup,
  extensionsGroup,
  legacyGroup,
  networkingGroup,
  policyGroup,
  rbacGroup,
  Read,
  ReadWrite,
  resourceGroup,
  Write,
} from "./policy-base.ts";
import type { PolicyFeatureGates } from "./policy-gates.ts";

/** viewRules: read-only access to non-escalating namespaced resources. */
export function viewRules(gates: PolicyFeatureGates): PolicyRule[] {
  const rules = [
    newRule(...Read)
      .groups(legacyGroup)
      .resources(
        "pods",
        "replicationcontrollers",
        "replicationcontrollers/scale",
        "serviceaccounts",
        "services",
        "services/status",
        "endpoints",
        "persistentvolumeclaims",
        "persistentvolumeclaims/status",
        "configmaps",
      )
      .rule(),
    newRule(...Read)
      .groups(legacyGroup)
      .resources(
        "limitranges",
        "resourcequotas",
        "bindings",
        "events",
        "pods/status",
        "resourcequotas/status",
        "namespaces/status",
        "replicationcontrollers/status",
        "pods/log",
      )
      .rule(),
    // read access to namespaces at the namespace scope means you can read *this* namespace.  This can be used as an
    // indicator of which namespaces you have access to.
    newRule(...Read)
      .groups(legacyGroup)
      .resources("namespaces")
      .rule(),
    newRule(...Read)
      .groups(discoveryGroup)
      .resources("endpointslices")
      .rule(),
    newRule(...Read)
      .groups(appsGroup)
      .resources(
        "controllerrevisions",
        "statefulsets",
        "statefulsets/status",
        "statefulsets/scale",
        "daemonsets",
        "daemonsets/status",
        "deployments",
        "deployments/status",
        "deployments/scale",
        "replicasets",
        "replicasets/status",
        "replicasets/scale",
      )
      .rule(),
    newRule(...Read)
      .groups(autoscalingGroup)
      .resources("horizontalpodautoscalers", "horizontalpodautoscalers/status")
      .rule(),
    newRule(...Read)
      .groups(batchGroup)
      .resources("jobs", "cronjobs", "cronjobs/status", "jobs/status")
      .rule(),
    newRule(...Read)
      .groups(extensionsGroup)
      .resources(
        "daemonsets",
        "daemonsets/status",
        "deployments",
        "deployments/scale",
        "deployments/status",
        "ingresses",
        "ingresses/status",
        "replicasets",
        "replicasets/scale",
        "replicasets/status",
        "replicationcontrollers/scale",
        "networkpolicies",
      )
      .rule(),
    newRule(...Read)
      .groups(policyGroup)
      .resources("poddisruptionbudgets", "poddisruptionbudgets/status")
      .rule(),
    newRule(...Read)
      .groups(networkingGroup)
      .resources("networkpolicies", "ingresses", "ingresses/status")
      .rule(),
  ];
  if (gates.DynamicResourceAllocation)
    rules.push(
      newRule(...Read)
        .groups(resourceGroup)
        .resources("resourceclaims", "resourceclaims/status", "resourceclaimtemplates")
        .rule(),
    );
  return rules;
}

/** editRules: everything a namespace user does, short of granting permissions. */
export function editRules(gates: PolicyFeatureGates): PolicyRule[] {
  const rules = [
    // Allow read on escalating resources
    newRule(...Read)
      .groups(legacyGroup)
      .resources("pods/attach", "pods/proxy", "pods/exec", "pods/portforward", "secrets", "services/proxy")
      .rule(),
    newRule("impersonate").groups(legacyGroup).resources("serviceaccounts").rule(),
    newRule(...Write)
      .groups(legacyGroup)
      .resources("pods", "pods/attach", "pods/proxy", "pods/exec", "pods/portforward")
      .rule(),
    newRule("create").groups(legacyGroup).resources("pods/eviction").rule(),
    newRule(...Write)
      .groups(legacyGroup)
      .resources(
        "replicationcontrollers",
        "replicationcontrollers/scale",
        "serviceaccounts",
        "services",
        "services/proxy",
        "persistentvolumeclaims",
        "configmaps",
        "secrets",
        "events",
      )
      .rule(),
    newRule("create").groups(legacyGroup).resources("serviceaccounts/token").rule(),
    newRule(...Write)
      .groups(appsGroup)
      .resources(
        "statefulsets",
        "statefulsets/scale",
        "daemonsets",
        "deployments",
        "deployments/scale",
        "deployments/rollback",
        "replicasets",
        "replicasets/scale",
      )
      .rule(),
    newRule(...Write)
      .groups(autoscalingGroup)
      .resources("horizontalpodautoscalers")
      .rule(),
    newRule(...Write)
      .groups(batchGroup)
      .resources("jobs", "cronjobs")
      .rule(),
    newRule(...Write)
      .groups(extensionsGroup)
      .resources(
        "daemonsets",
        "deployments",
        "deployments/scale",
        "deployments/rollback",
        "ingresses",
        "replicasets",
        "replicasets/scale",
        "replicationcontrollers/scale",
        "networkpolicies",
      )
      .rule(),
    newRule(...Write)
      .groups(policyGroup)
      .resources("poddisruptionbudgets")
      .rule(),
    newRule(...Write)
      .groups(networkingGroup)
      .resources("networkpolicies", "ingresses")
      .rule(),
    newRule(...ReadWrite)
      .groups(coordinationGroup)
      .resources("leases")
      .rule(),
  ];
  if (gates.DynamicResourceAllocation)
    rules.push(
      newRule(...Write)
        .groups(resourceGroup)
        .resources("resourceclaims", "resourceclaimtemplates")
        .rule(),
    );
  return rules;
}

/** The extra powers of system:aggregate-to-admin. */
export function adminRules(): PolicyRule[] {
  return [
    // additional admin powers
    newRule("create").groups(authorizationGroup).resources("localsubjectaccessreviews").rule(),
    newRule(...ReadWrite)
      .groups(rbacGroup)
      .resources("roles", "rolebindings")
      .rule(),
  ];
}
