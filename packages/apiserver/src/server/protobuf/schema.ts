/**
 * Field numbers of the Kubernetes protobuf messages servicenet accepts as request bodies
 * (k8s.io/api/core/v1/generated.proto, k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto).
 * Only what kubectl's typed commands send (`create service ...`, `create namespace`, the `auth`
 * reviews) is covered.
 */

export type FieldType = "string" | "int" | "bool" | "time" | "intorstring" | "map" | { message: string };

export interface FieldSpec {
  name: string;
  type: FieldType;
  repeated?: boolean;
}

export type MessageSpec = Readonly<Record<number, FieldSpec>>;

const s = (name: string, repeated = false): FieldSpec => ({ name, type: "string", repeated });
const i = (name: string): FieldSpec => ({ name, type: "int" });
const b = (name: string): FieldSpec => ({ name, type: "bool" });
const m = (name: string, message: string, repeated = false): FieldSpec => ({ name, type: { message }, repeated });

export const messages: Readonly<Record<string, MessageSpec>> = {
  TypeMeta: { 1: s("apiVersion"), 2: s("kind") },
  Unknown: { 1: m("typeMeta", "TypeMeta"), 2: s("raw"), 3: s("contentEncoding"), 4: s("contentType") },
  ObjectMeta: {
    1: s("name"),
    2: s("generateName"),
    3: s("namespace"),
    4: s("selfLink"),
    5: s("uid"),
    6: s("resourceVersion"),
    7: i("generation"),
    8: { name: "creationTimestamp", type: "time" },
    9: { name: "deletionTimestamp", type: "time" },
    10: i("deletionGracePeriodSeconds"),
    11: { name: "labels", type: "map" },
    12: { name: "annotations", type: "map" },
    13: m("ownerReferences", "OwnerReference", true),
    14: s("finalizers", true),
  },
  OwnerReference: { 1: s("kind"), 3: s("name"), 4: s("uid"), 5: s("apiVersion"), 6: b("controller"), 7: b("blockOwnerDeletion") },
  Service: { 1: m("metadata", "ObjectMeta"), 2: m("spec", "ServiceSpec"), 3: m("status", "ServiceStatus") },
  ServiceSpec: {
    1: m("ports", "ServicePort", true),
    2: { name: "selector", type: "map" },
    3: s("clusterIP"),
    4: s("type"),
    5: s("externalIPs", true),
    7: s("sessionAffinity"),
    8: s("loadBalancerIP"),
    9: s("loadBalancerSourceRanges", true),
    10: s("externalName"),
    11: s("externalTrafficPolicy"),
    12: i("healthCheckNodePort"),
    13: b("publishNotReadyAddresses"),
    14: m("sessionAffinityConfig", "SessionAffinityConfig"),
    17: s("ipFamilyPolicy"),
    18: s("clusterIPs", true),
    19: s("ipFamilies", true),
    20: b("allocateLoadBalancerNodePorts"),
    21: s("loadBalancerClass"),
    22: s("internalTrafficPolicy"),
    23: s("trafficDistribution"),
  },
  ServicePort: {
    1: s("name"),
    2: s("protocol"),
    3: i("port"),
    4: { name: "targetPort", type: "intorstring" },
    5: i("nodePort"),
    6: s("appProtocol"),
  },
  SessionAffinityConfig: { 1: m("clientIP", "ClientIPConfig") },
  ClientIPConfig: { 1: i("timeoutSeconds") },
  ServiceStatus: { 1: m("loadBalancer", "LoadBalancerStatus") },
  LoadBalancerStatus: { 1: m("ingress", "LoadBalancerIngress", true) },
  LoadBalancerIngress: { 1: s("ip"), 2: s("hostname"), 3: s("ipMode") },
  Namespace: { 1: m("metadata", "ObjectMeta"), 2: m("spec", "NamespaceSpec"), 3: m("status", "NamespaceStatus") },
  NamespaceSpec: { 1: s("finalizers", true) },
  NamespaceStatus: { 1: s("phase") },
  // k8s.io/api/authorization/v1/generated.proto: the reviews kubectl's `auth can-i` sends.
  SelfSubjectAccessReview: { 1: m("metadata", "ObjectMeta"), 2: m("spec", "SelfSubjectAccessReviewSpec") },
  SelfSubjectAccessReviewSpec: { 1: m("resourceAttributes", "ResourceAttributes"), 2: m("nonResourceAttributes", "NonResourceAttributes") },
  ResourceAttributes: {
    1: s("namespace"),
    2: s("verb"),
    3: s("group"),
    4: s("version"),
    5: s("resource"),
    6: s("subresource"),
    7: s("name"),
  },
  NonResourceAttributes: { 1: s("path"), 2: s("verb") },
  SubjectAccessReview: { 1: m("metadata", "ObjectMeta"), 2: m("spec", "SubjectAccessReviewSpec") },
  LocalSubjectAccessReview: { 1: m("metadata", "ObjectMeta"), 2: m("spec", "SubjectAccessReviewSpec") },
  SubjectAccessReviewSpec: {
    1: m("resourceAttributes", "ResourceAttributes"),
    2: m("nonResourceAttributes", "NonResourceAttributes"),
    3: s("user"),
    4: s("groups", true),
    6: s("uid"),
  },
  SelfSubjectRulesReview: { 1: m("metadata", "ObjectMeta"), 2: m("spec", "SelfSubjectRulesReviewSpec") },
  SelfSubjectRulesReviewSpec: { 1: s("namespace") },
  // k8s.io/api/rbac/v1/generated.proto: `kubectl create role|clusterrole|rolebinding|clusterrolebinding`.
  PolicyRule: {
    1: s("verbs", true),
    2: s("apiGroups", true),
    3: s("resources", true),
    4: s("resourceNames", true),
    5: s("nonResourceURLs", true),
  },
  Role: { 1: m("metadata", "ObjectMeta"), 2: m("rules", "PolicyRule", true) },
  ClusterRole: { 1: m("metadata", "ObjectMeta"), 2: m("rules", "PolicyRule", true), 3: m("aggregationRule", "AggregationRule") },
  AggregationRule: { 1: m("clusterRoleSelectors", "LabelSelector", true) },
  LabelSelector: { 1: { name: "matchLabels", type: "map" }, 2: m("matchExpressions", "LabelSelectorRequirement", true) },
  LabelSelectorRequirement: { 1: s("key"), 2: s("operator"), 3: s("values", true) },
  Subject: { 1: s("kind"), 2: s("apiGroup"), 3: s("name"), 4: s("namespace") },
  RoleRef: { 1: s("apiGroup"), 2: s("kind"), 3: s("name") },
  RoleBinding: { 1: m("metadata", "ObjectMeta"), 2: m("subjects", "Subject", true), 3: m("roleRef", "RoleRef") },
  ClusterRoleBinding: { 1: m("metadata", "ObjectMeta"), 2: m("subjects", "Subject", true), 3: m("roleRef", "RoleRef") },
  // k8s.io/api/authentication/v1/generated.proto (kubectl auth whoami).
  SelfSubjectReview: { 1: m("metadata", "ObjectMeta") },
};
