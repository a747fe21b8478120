/**
 * plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go: the cluster roles and bindings every
 * apiserver starts with, for the roles servicenet ships (the user-facing roles and the ones of the
 * components it runs). Rules are kept exactly as upstream writes them, including rules about
 * resources servicenet does not serve: they are harmless and keep the roles comparable.
 */
import type { ClusterRole, ClusterRoleBinding, ObjectMeta, PolicyRule } from "@servicenet/api";
import { autoUpdateAnnotationKey } from "@servicenet/api/rbac/v1";
import {
  allAuthenticated,
  allUnauthenticated,
  kubeControllerManager,
  kubeProxy,
  monitoringGroup,
  systemPrivilegedGroup,
} from "../../../../../../authentication/user/user.ts";
import { newClusterBinding, newRule } from "./helpers.ts";

export const Write = ["create", "update", "patch", "delete", "deletecollection"];
export const ReadWrite = ["get", "list", "watch", "create", "update", "patch", "delete", "deletecollection"];
export const Read = ["get", "list", "watch"];
export const ReadUpdate = ["get", "list", "watch", "update", "patch"];
export const Label = { "kubernetes.io/bootstrapping": "rbac-defaults" };
export const Annotation = { [autoUpdateAnnotationKey]: "true" };

const legacyGroup = "";
const appsGroup = "apps";
const authenticationGroup = "authentication.k8s.io";
const authorizationGroup = "authorization.k8s.io";
const autoscalingGroup = "autoscaling";
const batchGroup = "batch";
const coordinationGroup = "coordination.k8s.io";
const discoveryGroup = "discovery.k8s.io";
const extensionsGroup = "extensions";
const policyGroup = "policy";
const rbacGroup = "rbac.authorization.k8s.io";
const networkingGroup = "networking.k8s.io";
const eventsGroup = "events.k8s.io";

const aggregateToAdmin = "rbac.authorization.k8s.io/aggregate-to-admin";
const aggregateToEdit = "rbac.authorization.k8s.io/aggregate-to-edit";
const aggregateToView = "rbac.authorization.k8s.io/aggregate-to-view";

/** eventsRule: create, update and patch events in the core and events.k8s.io groups. */
export function eventsRule(): PolicyRule {
  return newRule("create", "update", "patch").groups(legacyGroup, eventsGroup).resources("events").rule();
}

/** addDefaultMetadata: the bootstrapping label and the auto-update annotation. */
export function addDefaultMetadata<T extends { metadata: ObjectMeta }>(obj: T): T {
  obj.metadata.labels = { ...obj.metadata.labels, ...Label };
  obj.metadata.annotations = { ...obj.metadata.annotations, ...Annotation };
  return obj;
}

function clusterRole(
  name: string,
  rules: PolicyRule[] | null,
  extra: Partial<ClusterRole> & { labels?: Record<string, string> } = {},
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

const aggregationRule = (label: string): ClusterRole["aggregationRule"] => ({
  clusterRoleSelectors: [{ matchLabels: { [label]: "true" } }],
});

/** NodeProxierRules. */
function nodeProxierRules(): PolicyRule[] {
  return [
    newRule("list", "watch").groups(legacyGroup).resources("services", "endpoints").rule(),
    newRule("get", "list", "watch").groups(legacyGroup).resources("nodes").rule(),
    eventsRule(),
    newRule("list", "watch").groups(discoveryGroup).resources("endpointslices").rule(),
    // kube-proxy watches ServiceCIDRs (MultiCIDRServiceAllocator, GA in 1.33; cmd/kube-proxy/app/server.go NewServiceCIDRConfig).
    newRule("list", "watch").groups(networkingGroup).resources("servicecidrs").rule(),
  ];
}

/** ClusterRoles: the bootstrap cluster roles servicenet ships, in upstream's order. */
export function clusterRoles(): ClusterRole[] {
  const monitoringRules = [
    newRule("get").urls("/metrics", "/metrics/slis", "/livez", "/readyz", "/healthz", "/livez/*", "/readyz/*", "/healthz/*").rule(),
  ];
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
    clusterRole("system:monitoring", monitoringRules),
    // a role which provides minimal resource access to allow a "normal" user to learn information about themselves
    clusterRole("system:basic-user", [
      newRule("create").groups(authorizationGroup).resources("selfsubjectaccessreviews", "selfsubjectrulesreviews").rule(),
      newRule("create").groups(authenticationGroup).resources("selfsubjectreviews").rule(),
    ]),
    // a role which provides just enough power read insensitive cluster information
    clusterRole("system:public-info-viewer", [newRule("get").urls("/livez", "/readyz", "/healthz", "/version", "/version/").rule()]),
    // a role for a namespace level admin.  It is `edit` plus the power to grant permissions to other users.
    clusterRole("admin", null, { aggregationRule: aggregationRule(aggregateToAdmin) }),
    // a role for a namespace level editor.  It grants access to all user level actions in a namespace.
    clusterRole("edit", null, { labels: { [aggregateToAdmin]: "true" }, aggregationRule: aggregationRule(aggregateToEdit) }),
    // a role for namespace level viewing.  It grants Read-only access to non-escalating resources in a namespace.
    clusterRole("view", null, { labels: { [aggregateToEdit]: "true" }, aggregationRule: aggregationRule(aggregateToView) }),
    clusterRole("system:aggregate-to-admin", aggregateToAdminRules(), { labels: { [aggregateToAdmin]: "true" } }),
    clusterRole("system:aggregate-to-edit", aggregateToEditRules(), { labels: { [aggregateToEdit]: "true" } }),
    clusterRole("system:aggregate-to-view", aggregateToViewRules(), { labels: { [aggregateToView]: "true" } }),
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
    // a role to use for setting up a proxy
    clusterRole("system:node-proxier", nodeProxierRules()),
  ];
  return roles.map(addDefaultMetadata);
}

function aggregateToAdminRules(): PolicyRule[] {
  return [
    newRule("create").groups(authorizationGroup).resources("localsubjectaccessreviews").rule(),
    newRule(...ReadWrite)
      .groups(rbacGroup)
      .resources("roles", "rolebindings")
      .rule(),
  ];
}

function aggregateToEditRules(): PolicyRule[] {
  return [
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
}

function aggregateToViewRules(): PolicyRule[] {
  return [
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
      .resources("ingresses", "ingresses/status", "networkpolicies")
      .rule(),
  ];
}

/** ClusterRoleBindings: the default bindings of the shipped roles. */
export function clusterRoleBindings(): ClusterRoleBinding[] {
  return [
    newClusterBinding("cluster-admin").groups(systemPrivilegedGroup).binding(),
    newClusterBinding("system:monitoring").groups(monitoringGroup).binding(),
    newClusterBinding("system:discovery").groups(allAuthenticated).binding(),
    newClusterBinding("system:basic-user").groups(allAuthenticated).binding(),
    newClusterBinding("system:public-info-viewer").groups(allAuthenticated, allUnauthenticated).binding(),
    newClusterBinding("system:node-proxier").users(kubeProxy).binding(),
    newClusterBinding("system:kube-controller-manager").users(kubeControllerManager).binding(),
  ].map(addDefaultMetadata);
}

/** ClusterRolesToAggregate: the roles whose rules moved into aggregate-to-* parts (name → part). */
export function clusterRolesToAggregate(): Record<string, string> {
  return { admin: "system:aggregate-to-admin", edit: "system:aggregate-to-edit", view: "system:aggregate-to-view" };
}
