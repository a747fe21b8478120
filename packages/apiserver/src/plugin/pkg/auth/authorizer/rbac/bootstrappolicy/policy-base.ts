/**
 * What every file of plugin/pkg/auth/authorizer/rbac/bootstrappolicy shares (policy.go's vars and
 * consts, addDefaultMetadata, controller_policy.go's eventsRule).
 */
import type { ObjectMeta, PolicyRule } from "@servicenet/api";
import { autoUpdateAnnotationKey } from "@servicenet/api/rbac/v1";
import { newRule } from "./helpers.ts";

export const Write = ["create", "update", "patch", "delete", "deletecollection"];
export const ReadWrite = ["get", "list", "watch", "create", "update", "patch", "delete", "deletecollection"];
export const Read = ["get", "list", "watch"];
export const ReadUpdate = ["get", "list", "watch", "update", "patch"];
/** The label every bootstrap object carries. */
export const Label: Readonly<Record<string, string>> = { "kubernetes.io/bootstrapping": "rbac-defaults" };
/** The annotation that lets start-up reconciliation update the object. */
export const Annotation: Readonly<Record<string, string>> = { [autoUpdateAnnotationKey]: "true" };

export const legacyGroup = "";
export const appsGroup = "apps";
export const authenticationGroup = "authentication.k8s.io";
export const authorizationGroup = "authorization.k8s.io";
export const autoscalingGroup = "autoscaling";
export const batchGroup = "batch";
export const certificatesGroup = "certificates.k8s.io";
export const coordinationGroup = "coordination.k8s.io";
export const discoveryGroup = "discovery.k8s.io";
export const extensionsGroup = "extensions";
export const policyGroup = "policy";
export const rbacGroup = "rbac.authorization.k8s.io";
export const resourceGroup = "resource.k8s.io";
export const storageGroup = "storage.k8s.io";
export const resMetricsGroup = "metrics.k8s.io";
export const customMetricsGroup = "custom.metrics.k8s.io";
export const externalMetricsGroup = "external.metrics.k8s.io";
export const networkingGroup = "networking.k8s.io";
export const eventsGroup = "events.k8s.io";
export const internalAPIServerGroup = "internal.apiserver.k8s.io";
export const admissionRegistrationGroup = "admissionregistration.k8s.io";
export const storageVersionMigrationGroup = "storagemigration.k8s.io";

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
