/**
 * Field documentation of rbac.authorization.k8s.io/v1 (doc comments of k8s.io/api/rbac/v1
 * types.go). `required` marks the fields Go encodes without omitempty, which upstream's OpenAPI
 * lists as required although servicenet decodes their absence as the zero value (validation then
 * answers, as upstream's does).
 */
import { typeMetaDocs, type FieldDoc } from "./service-descriptions.ts";

const metadata: FieldDoc = { description: "Standard object's metadata." };
const listMetadata: FieldDoc = { description: "Standard object's metadata." };
const p = "io.k8s.api.rbac.v1.";

const subjects: FieldDoc = { description: "Subjects holds references to the objects the role applies to." };

export const rbacDocs: Readonly<Record<string, Readonly<Record<string, FieldDoc>>>> = {
  [`${p}AggregationRule`]: {
    "": { description: "AggregationRule describes how to locate ClusterRoles to aggregate into the ClusterRole" },
    clusterRoleSelectors: {
      description:
        "ClusterRoleSelectors holds a list of selectors which will be used to find ClusterRoles and create the rules. If any of the selectors match, then the ClusterRole's permissions will be added",
    },
  },
  [`${p}ClusterRole`]: {
    ...typeMetaDocs,
    "": {
      description:
        "ClusterRole is a cluster level, logical grouping of PolicyRules that can be referenced as a unit by a RoleBinding or ClusterRoleBinding.",
    },
    metadata,
    rules: { description: "Rules holds all the PolicyRules for this ClusterRole" },
    aggregationRule: {
      description:
        "AggregationRule is an optional field that describes how to build the Rules for this ClusterRole. If AggregationRule is set, then the Rules are controller managed and direct changes to Rules will be stomped by the controller.",
    },
  },
  [`${p}ClusterRoleBinding`]: {
    ...typeMetaDocs,
    "": {
      description:
        "ClusterRoleBinding references a ClusterRole, but not contain it.  It can reference a ClusterRole in the global namespace, and adds who information via Subject.",
    },
    metadata,
    subjects,
    roleRef: {
      description:
        "RoleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error. This field is immutable.",
      required: true,
    },
  },
  [`${p}ClusterRoleBindingList`]: {
    ...typeMetaDocs,
    "": { description: "ClusterRoleBindingList is a collection of ClusterRoleBindings" },
    metadata: listMetadata,
    items: { description: "Items is a list of ClusterRoleBindings" },
  },
  [`${p}ClusterRoleList`]: {
    ...typeMetaDocs,
    "": { description: "ClusterRoleList is a collection of ClusterRoles" },
    metadata: listMetadata,
    items: { description: "Items is a list of ClusterRoles" },
  },
  [`${p}PolicyRule`]: {
    "": {
      description:
        "PolicyRule holds information that describes a policy rule, but does not contain information about who the rule applies to or which namespace the rule applies to.",
    },
    verbs: {
      description: "Verbs is a list of Verbs that apply to ALL the ResourceKinds contained in this rule. '*' represents all verbs.",
      required: true,
    },
    apiGroups: {
      description:
        'APIGroups is the name of the APIGroup that contains the resources.  If multiple API groups are specified, any action requested against one of the enumerated resources in any API group will be allowed. "" represents the core API group and "*" represents all API groups.',
    },
    resources: { description: "Resources is a list of resources this rule applies to. '*' represents all resources." },
    resourceNames: {
      description:
        "ResourceNames is an optional white list of names that the rule applies to.  An empty set means that everything is allowed.",
    },
    nonResourceURLs: {
      description:
        'NonResourceURLs is a set of partial urls that a user should have access to.  *s are allowed, but only as the full, final step in the path Since non-resource URLs are not namespaced, this field is only applicable for ClusterRoles referenced from a ClusterRoleBinding. Rules can either apply to API resources (such as "pods" or "secrets") or non-resource URL paths (such as "/api"),  but not both.',
    },
  },
  [`${p}Role`]: {
    ...typeMetaDocs,
    "": { description: "Role is a namespaced, logical grouping of PolicyRules that can be referenced as a unit by a RoleBinding." },
    metadata,
    rules: { description: "Rules holds all the PolicyRules for this Role" },
  },
  [`${p}RoleBinding`]: {
    ...typeMetaDocs,
    "": {
      description:
        "RoleBinding references a role, but does not contain it.  It can reference a Role in the same namespace or a ClusterRole in the global namespace. It adds who information via Subjects and namespace information by which namespace it exists in.  RoleBindings in a given namespace only have effect in that namespace.",
    },
    metadata,
    subjects,
    roleRef: {
      description:
        "RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error. This field is immutable.",
      required: true,
    },
  },
  [`${p}RoleBindingList`]: {
    ...typeMetaDocs,
    "": { description: "RoleBindingList is a collection of RoleBindings" },
    metadata: listMetadata,
    items: { description: "Items is a list of RoleBindings" },
  },
  [`${p}RoleList`]: {
    ...typeMetaDocs,
    "": { description: "RoleList is a collection of Roles" },
    metadata: listMetadata,
    items: { description: "Items is a list of Roles" },
  },
  [`${p}RoleRef`]: {
    "": { description: "RoleRef contains information that points to the role being used" },
    apiGroup: { description: "APIGroup is the group for the resource being referenced", required: true },
    kind: { description: "Kind is the type of resource being referenced", required: true },
    name: { description: "Name is the name of resource being referenced", required: true },
  },
  [`${p}Subject`]: {
    "": {
      description:
        "Subject contains a reference to the object or user identities a role binding applies to.  This can either hold a direct API object reference, or a value for non-objects such as user and group names.",
    },
    kind: {
      description:
        'Kind of object being referenced. Values defined by this API group are "User", "Group", and "ServiceAccount". If the Authorizer does not recognized the kind value, the Authorizer should report an error.',
      required: true,
    },
    apiGroup: {
      description:
        'APIGroup holds the API group of the referenced subject. Defaults to "" for ServiceAccount subjects. Defaults to "rbac.authorization.k8s.io" for User and Group subjects.',
    },
    name: { description: "Name of the object being referenced.", required: true },
    namespace: {
      description:
        'Namespace of the referenced object.  If the object kind is non-namespace, such as "User" or "Group", and this value is not empty the Authorizer should report an error.',
    },
  },
};
