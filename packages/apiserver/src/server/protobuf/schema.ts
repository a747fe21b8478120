/**
 * Field numbers of the Kubernetes protobuf messages servicenet accepts as request bodies
 * (k8s.io/api/core/v1/generated.proto, k8s.io/api/rbac/v1/generated.proto, k8s.io/api/scheduling/v1/generated.proto,
 * k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto). Only what kubectl's typed commands send
 * (`create service ...`, `create token`, `create namespace`, `create configmap`, `create secret ...`, `create serviceaccount`, `create priorityclass`, `create role|clusterrole|rolebinding|clusterrolebinding`,
 * the `auth` reviews, k8s.io/api/authorization/v1 and authentication/v1) is covered.
 */

/** `fieldsv1`: metav1.FieldsV1, a message whose one bytes field (Raw) holds the field set's JSON. */
/** `bytesmap`: a `map<string, bytes>`, whose values JSON carries as base64. */
export type FieldType = "string" | "int" | "bool" | "time" | "intorstring" | "map" | "bytesmap" | "fieldsv1" | { message: string };

export interface FieldSpec {
  name: string;
  type: FieldType;
  repeated?: boolean;
  /** A Go pointer (`*int32`, `*bool`): written only when set, so a zero is a value, not an omitted field. */
  pointer?: boolean;
}

export type MessageSpec = Readonly<Record<number, FieldSpec>>;

const s = (name: string, repeated = false): FieldSpec => ({ name, type: "string", repeated });
const i = (name: string): FieldSpec => ({ name, type: "int" });
const b = (name: string): FieldSpec => ({ name, type: "bool" });
const m = (name: string, message: string, repeated = false): FieldSpec => ({ name, type: { message }, repeated });
const pi = (name: string): FieldSpec => ({ name, type: "int", pointer: true });

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
    17: m("managedFields", "ManagedFieldsEntry", true),
  },
  ManagedFieldsEntry: {
    1: s("manager"),
    2: s("operation"),
    3: s("apiVersion"),
    4: { name: "time", type: "time" },
    6: s("fieldsType"),
    7: { name: "fieldsV1", type: "fieldsv1" },
    8: s("subresource"),
  },
  Condition: {
    1: s("type"),
    2: s("status"),
    3: i("observedGeneration"),
    4: { name: "lastTransitionTime", type: "time" },
    5: s("reason"),
    6: s("message"),
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
  ServiceStatus: { 1: m("loadBalancer", "LoadBalancerStatus"), 2: m("conditions", "Condition", true) },
  LoadBalancerStatus: { 1: m("ingress", "LoadBalancerIngress", true) },
  LoadBalancerIngress: { 1: s("ip"), 2: s("hostname"), 3: s("ipMode"), 4: m("ports", "PortStatus", true) },
  PortStatus: { 1: i("port"), 2: s("protocol"), 3: s("error") },
  Namespace: { 1: m("metadata", "ObjectMeta"), 2: m("spec", "NamespaceSpec"), 3: m("status", "NamespaceStatus") },
  NamespaceSpec: { 1: s("finalizers", true) },
  NamespaceStatus: { 1: s("phase"), 2: m("conditions", "NamespaceCondition", true) },
  NamespaceCondition: { 1: s("type"), 2: s("status"), 4: { name: "lastTransitionTime", type: "time" }, 5: s("reason"), 6: s("message") },
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
    8: m("fieldSelector", "FieldSelectorAttributes"),
    9: m("labelSelector", "LabelSelectorAttributes"),
  },
  FieldSelectorAttributes: { 1: s("rawSelector"), 2: m("requirements", "FieldSelectorRequirement", true) },
  LabelSelectorAttributes: { 1: s("rawSelector"), 2: m("requirements", "LabelSelectorRequirement", true) },
  FieldSelectorRequirement: { 1: s("key"), 2: s("operator"), 3: s("values", true) },
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
  // k8s.io/api/authentication/v1/generated.proto (kubectl auth whoami).
  SelfSubjectReview: { 1: m("metadata", "ObjectMeta") },
  // kubectl create token.
  TokenRequest: { 1: m("metadata", "ObjectMeta"), 2: m("spec", "TokenRequestSpec"), 3: m("status", "TokenRequestStatus") },
  TokenRequestSpec: { 1: s("audiences", true), 4: pi("expirationSeconds"), 3: m("boundObjectRef", "BoundObjectReference") },
  BoundObjectReference: { 1: s("kind"), 2: s("apiVersion"), 3: s("name"), 4: s("uid") },
  TokenRequestStatus: { 1: s("token"), 2: { name: "expirationTimestamp", type: "time" } },
  LabelSelector: { 1: { name: "matchLabels", type: "map" }, 2: m("matchExpressions", "LabelSelectorRequirement", true) },
  LabelSelectorRequirement: { 1: s("key"), 2: s("operator"), 3: s("values", true) },
  PolicyRule: {
    1: s("verbs", true),
    2: s("apiGroups", true),
    3: s("resources", true),
    4: s("resourceNames", true),
    5: s("nonResourceURLs", true),
  },
  AggregationRule: { 1: m("clusterRoleSelectors", "LabelSelector", true) },
  Role: { 1: m("metadata", "ObjectMeta"), 2: m("rules", "PolicyRule", true) },
  ClusterRole: { 1: m("metadata", "ObjectMeta"), 2: m("rules", "PolicyRule", true), 3: m("aggregationRule", "AggregationRule") },
  Subject: { 1: s("kind"), 2: s("apiGroup"), 3: s("name"), 4: s("namespace") },
  RoleRef: { 1: s("apiGroup"), 2: s("kind"), 3: s("name") },
  // k8s.io/api/apps/v1/generated.proto and the core/v1 pod template: what `kubectl create deployment` sends.
  Deployment: { 1: m("metadata", "ObjectMeta"), 2: m("spec", "DeploymentSpec"), 3: m("status", "DeploymentStatus") },
  DeploymentSpec: {
    1: pi("replicas"),
    2: m("selector", "LabelSelector"),
    3: m("template", "PodTemplateSpec"),
    4: m("strategy", "DeploymentStrategy"),
    5: i("minReadySeconds"),
    6: pi("revisionHistoryLimit"),
    7: b("paused"),
    9: pi("progressDeadlineSeconds"),
  },
  DeploymentStatus: {
    1: i("observedGeneration"),
    2: i("replicas"),
    3: i("updatedReplicas"),
    7: i("readyReplicas"),
    4: i("availableReplicas"),
    5: i("unavailableReplicas"),
    9: pi("terminatingReplicas"),
    6: m("conditions", "DeploymentCondition", true),
    8: pi("collisionCount"),
  },
  DeploymentCondition: {
    1: s("type"),
    2: s("status"),
    6: { name: "lastUpdateTime", type: "time" },
    7: { name: "lastTransitionTime", type: "time" },
    4: s("reason"),
    5: s("message"),
  },
  DeploymentStrategy: { 1: s("type"), 2: m("rollingUpdate", "RollingUpdateDeployment") },
  RollingUpdateDeployment: { 1: { name: "maxUnavailable", type: "intorstring" }, 2: { name: "maxSurge", type: "intorstring" } },
  PodTemplateSpec: { 1: m("metadata", "ObjectMeta"), 2: m("spec", "PodSpec") },
  PodSpec: {
    2: m("containers", "Container", true),
    3: s("restartPolicy"),
    4: pi("terminationGracePeriodSeconds"),
    6: s("dnsPolicy"),
    7: { name: "nodeSelector", type: "map" },
    8: s("serviceAccountName"),
    10: s("nodeName"),
    11: b("hostNetwork"),
    19: s("schedulerName"),
    22: m("tolerations", "Toleration", true),
    24: s("priorityClassName"),
    25: pi("priority"),
    28: m("readinessGates", "PodReadinessGate", true),
    31: { name: "preemptionPolicy", type: "string", pointer: true },
  },
  PodReadinessGate: { 1: s("conditionType") },
  // k8s.io/api/core/v1 generated.proto Toleration.
  Toleration: {
    1: s("key"),
    2: s("operator"),
    3: s("value"),
    4: s("effect"),
    5: pi("tolerationSeconds"),
  },
  Container: {
    1: s("name"),
    2: s("image"),
    3: s("command", true),
    4: s("args", true),
    5: s("workingDir"),
    6: m("ports", "ContainerPort", true),
    7: m("env", "EnvVar", true),
    8: m("resources", "ResourceRequirements"),
    13: s("terminationMessagePath"),
    14: s("imagePullPolicy"),
    20: s("terminationMessagePolicy"),
  },
  ContainerPort: { 1: s("name"), 2: i("hostPort"), 3: i("containerPort"), 4: s("protocol"), 5: s("hostIP") },
  EnvVar: { 1: s("name"), 2: s("value") },
  // limits and requests (maps of Quantity) are not decoded: kubectl's typed commands send none.
  ResourceRequirements: {},
  // value has no omitempty: a 0 on the wire is kept (pointer marks it so).
  PriorityClass: {
    1: m("metadata", "ObjectMeta"),
    2: pi("value"),
    3: b("globalDefault"),
    4: s("description"),
    5: { name: "preemptionPolicy", type: "string", pointer: true },
  },
  ConfigMap: {
    1: m("metadata", "ObjectMeta"),
    2: { name: "data", type: "map" },
    3: { name: "binaryData", type: "bytesmap" },
    4: { name: "immutable", type: "bool", pointer: true },
  },
  Secret: {
    1: m("metadata", "ObjectMeta"),
    2: { name: "data", type: "bytesmap" },
    3: s("type"),
    4: { name: "stringData", type: "map" },
    5: { name: "immutable", type: "bool", pointer: true },
  },
  ServiceAccount: {
    1: m("metadata", "ObjectMeta"),
    2: m("secrets", "ObjectReference", true),
    3: m("imagePullSecrets", "LocalObjectReference", true),
    4: { name: "automountServiceAccountToken", type: "bool", pointer: true },
  },
  ObjectReference: {
    1: s("kind"),
    2: s("namespace"),
    3: s("name"),
    4: s("uid"),
    5: s("apiVersion"),
    6: s("resourceVersion"),
    7: s("fieldPath"),
  },
  LocalObjectReference: { 1: s("name") },
  RoleBinding: { 1: m("metadata", "ObjectMeta"), 2: m("subjects", "Subject", true), 3: m("roleRef", "RoleRef") },
  ClusterRoleBinding: { 1: m("metadata", "ObjectMeta"), 2: m("subjects", "Subject", true), 3: m("roleRef", "RoleRef") },
};

/** The kinds whose protobuf request bodies are decoded (the rest get 415). */
export const protobufKinds: ReadonlySet<string> = new Set([
  "Service",
  "Namespace",
  "Role",
  "ClusterRole",
  "RoleBinding",
  "ClusterRoleBinding",
  "Deployment",
  "ConfigMap",
  "Secret",
  "ServiceAccount",
  "PriorityClass",
  "SelfSubjectAccessReview",
  "SubjectAccessReview",
  "LocalSubjectAccessReview",
  "SelfSubjectRulesReview",
  "SelfSubjectReview",
  "TokenRequest",
]);
