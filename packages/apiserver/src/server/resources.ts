/**
 * The resource table: every resource the server serves, per group version, with what discovery
 * publishes (scope, verbs, short names, categories, singular name, kind) and what the handlers use
 * (storage path, strategy, schema for decoding, table printer).
 */
import {
  ConfigMapSchema,
  SecretSchema,
  ServiceAccountSchema,
  EndpointSliceSchema,
  EndpointsSchema,
  EventSchema,
  IPAddressSchema,
  LeaseSchema,
  NamespaceSchema,
  NodeSchema,
  PodSchema,
  ServiceCIDRSchema,
  ServiceSchema,
} from "@servicenet/api";
import { DeploymentSchema, ReplicaSetSchema } from "@servicenet/api/apps/v1";
import { ControllerRevisionSchema, StatefulSetSchema } from "@servicenet/api/apps/v1";
import { DaemonSetSchema } from "@servicenet/api/apps/v1";
import { ClusterRoleBindingSchema, ClusterRoleSchema, RoleBindingSchema, RoleSchema } from "@servicenet/api/rbac/v1";
import {
  configMapHandler,
  secretHandler,
  serviceAccountHandler,
  endpointSliceHandler,
  endpointsHandler,
  eventHandler,
  clusterRoleBindingHandler,
  clusterRoleHandler,
  deploymentHandler,
  replicaSetHandler,
  statefulSetHandler,
  controllerRevisionHandler,
  daemonSetHandler,
  ipAddressHandler,
  leaseHandler,
  flowSchemaHandler,
  priorityLevelConfigurationHandler,
  priorityClassHandler,
  podDisruptionBudgetHandler,
  namespaceHandler,
  nodeHandler,
  podHandler,
  roleBindingHandler,
  roleHandler,
  serviceCIDRHandler,
  serviceHandler,
} from "@servicenet/printers";
import { CustomResourceDefinitionSchema } from "@servicenet/api/apiextensions/v1";
import { admissionRegistrationV1 } from "../registry/admissionregistration/rest/storage-admissionregistration.ts";
import { batchV1 } from "../registry/batch/rest/storage-batch.ts";
import { networkingV1Ingress } from "../registry/networking/rest/storage-networking.ts";
import { defaultTableHandler } from "@servicenet/printers";
import { retypeCRDInts } from "../apiextensions/registry/customresourcedefinition/json-ints.ts";
import { customResourceDefinitionStrategy } from "../apiextensions/registry/customresourcedefinition/strategy.ts";
import {
  IPAddressSchema as IPAddressV1alpha1Schema,
  ServiceCIDRSchema as ServiceCIDRV1alpha1Schema,
} from "@servicenet/api/networking/v1alpha1";
import {
  IPAddressSchema as IPAddressV1beta1Schema,
  ServiceCIDRSchema as ServiceCIDRV1beta1Schema,
} from "@servicenet/api/networking/v1beta1";
import { leaseStrategy } from "../registry/coordination/lease/strategy.ts";
import { FlowSchemaSchema, PriorityLevelConfigurationSchema } from "@servicenet/api/flowcontrol/v1";
import { PriorityClassSchema } from "@servicenet/api/scheduling/v1";
import { PodDisruptionBudgetSchema } from "@servicenet/api/policy/v1";
import { podDisruptionBudgetStrategy } from "../registry/policy/poddisruptionbudget/strategy.ts";
import { podDisruptionBudgetStoragePath } from "../registry/policy/poddisruptionbudget/storage/storage.ts";
import { priorityClassStrategy } from "../registry/scheduling/priorityclass/strategy.ts";
import { priorityClassStoragePath } from "../registry/scheduling/priorityclass/storage/storage.ts";
import { flowSchemaStrategy } from "../registry/flowcontrol/flowschema/strategy.ts";
import { priorityLevelConfigurationStrategy } from "../registry/flowcontrol/prioritylevelconfiguration/strategy.ts";
import { configMapStrategy } from "../registry/core/configmap/strategy.ts";
import { secretStrategy } from "../registry/core/secret/strategy.ts";
import { serviceAccountStrategy } from "../registry/core/serviceaccount/strategy.ts";
import { endpointsStrategy } from "../registry/core/endpoints/strategy.ts";
import { eventStrategy } from "../registry/core/event/strategy.ts";
import { namespaceStrategy } from "../registry/core/namespace/strategy.ts";
import { nodeStrategy } from "../registry/core/node/strategy.ts";
import { podBindingREST } from "../registry/core/pod/storage/binding.ts";
import { podStrategy } from "../registry/core/pod/strategy.ts";
import { serviceStrategy } from "../registry/core/service/strategy.ts";
import { endpointSliceStrategy } from "../registry/discovery/endpointslice/strategy.ts";
import { deploymentStrategy } from "../registry/apps/deployment/strategy.ts";
import { replicaSetStrategy } from "../registry/apps/replicaset/strategy.ts";
import { statefulSetStrategy } from "../registry/apps/statefulset/strategy.ts";
import { controllerRevisionStrategy } from "../registry/apps/controllerrevision/strategy.ts";
import { daemonSetStrategy } from "../registry/apps/daemonset/strategy.ts";
import { scaleView } from "../registry/apps/scale.ts";
import { ipAddressStrategy } from "../registry/networking/ipaddress/strategy.ts";
import { serviceCIDRStrategy } from "../registry/networking/servicecidr/strategy.ts";
import { clusterRoleStrategy } from "../registry/rbac/clusterrole/strategy.ts";
import { clusterRoleBindingStrategy } from "../registry/rbac/clusterrolebinding/strategy.ts";
import { roleStrategy } from "../registry/rbac/role/strategy.ts";
import { roleBindingStrategy } from "../registry/rbac/rolebinding/strategy.ts";
import type { KubeObject } from "../storage/index.ts";
import { fromEventsV1, toEventsV1 } from "./events-v1.ts";
import type { ResourceDef } from "./resource-def.ts";

export type { ResourceDef } from "./resource-def.ts";

export const readWriteVerbs = ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"] as const;
export const readOnlyVerbs = ["get", "list", "watch"] as const;
export const subresourceVerbs = ["get", "patch", "update"] as const;

/** The verbs one subresource serves (discovery and the 405 check). */
export function verbsOfSubresource(r: Pick<ResourceDef, "subresourceVerbs">, subresource: string): readonly string[] {
  return r.subresourceVerbs?.[subresource] ?? subresourceVerbs;
}

type Def = Omit<ResourceDef, "shortNames" | "categories" | "verbs" | "subresources"> &
  Partial<Pick<ResourceDef, "shortNames" | "categories" | "verbs" | "subresources">>;

function def(d: Def): ResourceDef {
  return { shortNames: [], categories: [], verbs: readWriteVerbs, subresources: [], ...d };
}

function networking(version: string, cidr: unknown, ip: unknown): ResourceDef[] {
  const group = "networking.k8s.io";
  return [
    def({
      group,
      version,
      resource: "servicecidrs",
      kind: "ServiceCIDR",
      singular: "servicecidr",
      namespaced: false,
      subresources: ["status"],
      storagePath: "servicecidrs",
      strategy: serviceCIDRStrategy,
      schema: cidr,
      printer: serviceCIDRHandler,
    }),
    def({
      group,
      version,
      resource: "ipaddresses",
      kind: "IPAddress",
      singular: "ipaddress",
      namespaced: false,
      shortNames: ["ip"],
      storagePath: "ipaddresses",
      strategy: ipAddressStrategy,
      schema: ip,
      printer: ipAddressHandler,
    }),
  ];
}

/** flowcontrol.apiserver.k8s.io/v1 (pkg/registry/flowcontrol/rest/storage_flowcontrol.go), with status. */
function flowcontrol(): ResourceDef[] {
  const group = "flowcontrol.apiserver.k8s.io";
  return [
    def({
      group,
      version: "v1",
      resource: "flowschemas",
      kind: "FlowSchema",
      singular: "flowschema",
      namespaced: false,
      subresources: ["status"],
      storagePath: "flowschemas",
      strategy: flowSchemaStrategy,
      schema: FlowSchemaSchema,
      printer: flowSchemaHandler,
    }),
    def({
      group,
      version: "v1",
      resource: "prioritylevelconfigurations",
      kind: "PriorityLevelConfiguration",
      singular: "prioritylevelconfiguration",
      namespaced: false,
      subresources: ["status"],
      storagePath: "prioritylevelconfigurations",
      strategy: priorityLevelConfigurationStrategy,
      schema: PriorityLevelConfigurationSchema,
      printer: priorityLevelConfigurationHandler,
    }),
  ];
}

/**
 * rbac.authorization.k8s.io/v1 (pkg/registry/rbac/rest/storage_rbac.go): stored under upstream's
 * keys (`/registry/roles/<ns>/<name>`, `/registry/clusterroles/<name>`, ...), no subresources.
 */
function rbac(): ResourceDef[] {
  const group = "rbac.authorization.k8s.io";
  const version = "v1";
  return [
    def({
      group,
      version,
      resource: "clusterrolebindings",
      kind: "ClusterRoleBinding",
      singular: "clusterrolebinding",
      namespaced: false,
      storagePath: "clusterrolebindings",
      strategy: clusterRoleBindingStrategy,
      schema: ClusterRoleBindingSchema,
      printer: clusterRoleBindingHandler,
    }),
    def({
      group,
      version,
      resource: "clusterroles",
      kind: "ClusterRole",
      singular: "clusterrole",
      namespaced: false,
      storagePath: "clusterroles",
      strategy: clusterRoleStrategy,
      schema: ClusterRoleSchema,
      printer: clusterRoleHandler,
    }),
    def({
      group,
      version,
      resource: "rolebindings",
      kind: "RoleBinding",
      singular: "rolebinding",
      namespaced: true,
      storagePath: "rolebindings",
      strategy: roleBindingStrategy,
      schema: RoleBindingSchema,
      printer: roleBindingHandler,
    }),
    def({
      group,
      version,
      resource: "roles",
      kind: "Role",
      singular: "role",
      namespaced: true,
      storagePath: "roles",
      strategy: roleStrategy,
      schema: RoleSchema,
      printer: roleHandler,
    }),
  ];
}

/**
 * apps/v1 (pkg/registry/apps/rest/storage_apps.go): controllerrevisions; daemonsets with status;
 * deployments, replicasets and statefulsets with status and scale.
 */
function apps(): ResourceDef[] {
  const common = { group: "apps", version: "v1", namespaced: true, categories: ["all"], subresources: ["scale", "status"] };
  return [
    def({
      group: "apps",
      version: "v1",
      namespaced: true,
      resource: "controllerrevisions",
      kind: "ControllerRevision",
      singular: "controllerrevision",
      storagePath: "controllerrevisions",
      strategy: controllerRevisionStrategy,
      schema: ControllerRevisionSchema,
      printer: controllerRevisionHandler,
    }),
    def({
      ...common,
      resource: "daemonsets",
      kind: "DaemonSet",
      singular: "daemonset",
      shortNames: ["ds"],
      subresources: ["status"],
      storagePath: "daemonsets",
      strategy: daemonSetStrategy,
      schema: DaemonSetSchema,
      printer: daemonSetHandler,
    }),
    def({
      ...common,
      resource: "deployments",
      kind: "Deployment",
      singular: "deployment",
      shortNames: ["deploy"],
      subresourceViews: { scale: scaleView("deployments") },
      storagePath: "deployments",
      strategy: deploymentStrategy,
      schema: DeploymentSchema,
      printer: deploymentHandler,
    }),
    def({
      ...common,
      resource: "replicasets",
      kind: "ReplicaSet",
      singular: "replicaset",
      shortNames: ["rs"],
      subresourceViews: { scale: scaleView("replicasets") },
      storagePath: "replicasets",
      strategy: replicaSetStrategy,
      schema: ReplicaSetSchema,
      printer: replicaSetHandler,
    }),
    def({
      ...common,
      resource: "statefulsets",
      kind: "StatefulSet",
      singular: "statefulset",
      shortNames: ["sts"],
      subresourceViews: { scale: scaleView("statefulsets") },
      storagePath: "statefulsets",
      strategy: statefulSetStrategy,
      schema: StatefulSetSchema,
      printer: statefulSetHandler,
    }),
  ];
}

/**
 * Every resource the server can serve, in discovery order (a group's preferred version first).
 * Which of them it serves is `--runtime-config`'s choice (`controlplane/api-resource-config.ts`).
 */
export const servableResources: readonly ResourceDef[] = [
  def({
    group: "",
    version: "v1",
    resource: "configmaps",
    kind: "ConfigMap",
    singular: "configmap",
    namespaced: true,
    shortNames: ["cm"],
    storagePath: "configmaps",
    strategy: configMapStrategy,
    schema: ConfigMapSchema,
    printer: configMapHandler,
  }),
  def({
    group: "",
    version: "v1",
    resource: "endpoints",
    kind: "Endpoints",
    singular: "endpoints",
    namespaced: true,
    shortNames: ["ep"],
    storagePath: "services/endpoints",
    strategy: endpointsStrategy,
    schema: EndpointsSchema,
    printer: endpointsHandler,
  }),
  def({
    group: "",
    version: "v1",
    resource: "events",
    kind: "Event",
    singular: "event",
    namespaced: true,
    shortNames: ["ev"],
    storagePath: "events",
    strategy: eventStrategy,
    schema: EventSchema,
    printer: eventHandler,
  }),
  def({
    group: "",
    version: "v1",
    resource: "namespaces",
    kind: "Namespace",
    singular: "namespace",
    namespaced: false,
    shortNames: ["ns"],
    verbs: ["create", "delete", "get", "list", "patch", "update", "watch"],
    // upstream's FinalizeREST serves PUT only (NamespaceInterface.Finalize).
    subresources: ["finalize", "status"],
    subresourceVerbs: { finalize: ["update"] },
    storagePath: "namespaces",
    strategy: namespaceStrategy,
    schema: NamespaceSchema,
    printer: namespaceHandler,
  }),
  def({
    group: "",
    version: "v1",
    resource: "nodes",
    kind: "Node",
    singular: "node",
    namespaced: false,
    shortNames: ["no"],
    subresources: ["status"],
    storagePath: "minions",
    strategy: nodeStrategy,
    schema: NodeSchema,
    printer: nodeHandler,
  }),
  def({
    group: "",
    version: "v1",
    resource: "pods",
    kind: "Pod",
    singular: "pod",
    namespaced: true,
    shortNames: ["po"],
    categories: ["all"],
    subresources: ["binding", "status"],
    subresourceVerbs: { binding: ["create"] },
    subresourceCreate: { binding: podBindingREST },
    storagePath: "pods",
    strategy: podStrategy,
    schema: PodSchema,
    printer: podHandler,
  }),
  def({
    group: "",
    version: "v1",
    resource: "secrets",
    kind: "Secret",
    singular: "secret",
    namespaced: true,
    storagePath: "secrets",
    strategy: secretStrategy,
    schema: SecretSchema,
    printer: secretHandler,
  }),
  def({
    group: "",
    version: "v1",
    resource: "serviceaccounts",
    kind: "ServiceAccount",
    singular: "serviceaccount",
    namespaced: true,
    shortNames: ["sa"],
    storagePath: "serviceaccounts",
    strategy: serviceAccountStrategy,
    schema: ServiceAccountSchema,
    printer: serviceAccountHandler,
  }),
  def({
    group: "",
    version: "v1",
    resource: "services",
    kind: "Service",
    singular: "service",
    namespaced: true,
    shortNames: ["svc"],
    categories: ["all"],
    verbs: ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"],
    subresources: ["status"],
    storagePath: "services/specs",
    strategy: serviceStrategy,
    schema: ServiceSchema,
    printer: serviceHandler,
  }),
  // kube-apiserver lists apps first among the named groups (its aggregator's group priorities).
  ...apps(),
  def({
    group: "coordination.k8s.io",
    version: "v1",
    resource: "leases",
    kind: "Lease",
    singular: "lease",
    namespaced: true,
    storagePath: "leases",
    strategy: leaseStrategy,
    schema: LeaseSchema,
    printer: leaseHandler,
  }),
  ...flowcontrol(),
  def({
    group: "discovery.k8s.io",
    version: "v1",
    resource: "endpointslices",
    kind: "EndpointSlice",
    singular: "endpointslice",
    namespaced: true,
    storagePath: "endpointslices",
    strategy: endpointSliceStrategy,
    schema: EndpointSliceSchema,
    printer: endpointSliceHandler,
  }),
  // Upstream also gives this one the short name "ev"; kubectl 1.33 then warns on every `get ev`.
  def({
    group: "events.k8s.io",
    version: "v1",
    resource: "events",
    kind: "Event",
    singular: "event",
    namespaced: true,
    verbs: readOnlyVerbs,
    storagePath: "events",
    strategy: eventStrategy,
    schema: undefined,
    printer: eventHandler,
    toVersion: (o) => toEventsV1(o) as KubeObject,
    fromVersion: (o) => fromEventsV1(o) as KubeObject,
  }),
  ...networkingV1Ingress(),
  ...networking("v1", ServiceCIDRSchema, IPAddressSchema),
  ...networking("v1beta1", ServiceCIDRV1beta1Schema, IPAddressV1beta1Schema),
  // Kubernetes 1.27-1.30's version, which their kubectl asks for in `describe servicecidr|ipaddress`.
  ...networking("v1alpha1", ServiceCIDRV1alpha1Schema, IPAddressV1alpha1Schema),
  ...rbac(),
  // scheduling.k8s.io/v1 (pkg/registry/scheduling/rest/storage_scheduling.go).
  def({
    group: "scheduling.k8s.io",
    version: "v1",
    resource: "priorityclasses",
    kind: "PriorityClass",
    singular: "priorityclass",
    namespaced: false,
    shortNames: ["pc"],
    storagePath: priorityClassStoragePath,
    strategy: priorityClassStrategy,
    schema: PriorityClassSchema,
    printer: priorityClassHandler,
  }),
  // policy/v1 (pkg/registry/policy/rest/storage_policy.go).
  def({
    group: "policy",
    version: "v1",
    resource: "poddisruptionbudgets",
    kind: "PodDisruptionBudget",
    singular: "poddisruptionbudget",
    namespaced: true,
    shortNames: ["pdb"],
    subresources: ["status"],
    storagePath: podDisruptionBudgetStoragePath,
    strategy: podDisruptionBudgetStrategy,
    schema: PodDisruptionBudgetSchema,
    printer: podDisruptionBudgetHandler,
  }),
  ...admissionRegistrationV1(),
  ...batchV1(),
  // apiextensions-apiserver's own kind, stored under upstream's key.
  def({
    group: "apiextensions.k8s.io",
    version: "v1",
    resource: "customresourcedefinitions",
    kind: "CustomResourceDefinition",
    singular: "customresourcedefinition",
    namespaced: false,
    shortNames: ["crd", "crds"],
    categories: ["api-extensions"],
    subresources: ["status"],
    storagePath: "apiextensions.k8s.io/customresourcedefinitions",
    strategy: customResourceDefinitionStrategy,
    schema: CustomResourceDefinitionSchema,
    retypeInts: retypeCRDInts,
    printer: defaultTableHandler,
  }),
];

const gaVersion = /^v\d+$/;

/**
 * The resources served by default: the GA versions only. As kube-apiserver 1.33
 * (pkg/controlplane/instance.go betaAPIGroupVersionsDisabledByDefault,
 * alphaAPIGroupVersionsDisabledByDefault), beta and alpha versions need `--runtime-config`.
 */
export const resourceTable: readonly ResourceDef[] = servableResources.filter((r) => gaVersion.test(r.version));

/** Group versions in preference order (the first version of a group is preferred). */
export function groupVersions(table: readonly ResourceDef[] = resourceTable): { group: string; versions: string[] }[] {
  const out: { group: string; versions: string[] }[] = [];
  for (const r of table) {
    let g = out.find((x) => x.group === r.group);
    if (!g) out.push((g = { group: r.group, versions: [] }));
    if (!g.versions.includes(r.version)) g.versions.push(r.version);
  }
  return out;
}

/** `v1` or `networking.k8s.io/v1`. */
export function apiVersionOf(r: Pick<ResourceDef, "group" | "version">): string {
  return r.group === "" ? r.version : `${r.group}/${r.version}`;
}

/** The resource for a request path's group, version and plural name. */
export function findResource(
  group: string,
  version: string,
  resource: string,
  table: readonly ResourceDef[] = resourceTable,
): ResourceDef | undefined {
  return table.find((r) => r.group === group && r.version === version && r.resource === resource);
}
