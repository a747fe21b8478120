/**
 * plugin/pkg/auth/authorizer/rbac/bootstrappolicy/controller_policy.go: one `system:controller:<name>`
 * cluster role per kube-controller-manager controller, bound to the `<name>` service account in
 * kube-system (the identity a controller runs as with `--use-service-account-credentials`): every
 * controller upstream lists, whether or not servicenet's controller-manager runs it.
 */
import type { ClusterRole, ClusterRoleBinding } from "@servicenet/api";
import * as core from "./controller-rules-core.ts";
import * as storage from "./controller-rules-storage.ts";
import * as workloads from "./controller-rules-workloads.ts";
import type { ControllerRules } from "./controller-rules-workloads.ts";
import { newClusterBinding } from "./helpers.ts";
import { addDefaultMetadata } from "./policy-base.ts";
import type { PolicyFeatureGates } from "./policy-gates.ts";

/** The prefix of controller role names (saRolePrefix). */
export const saRolePrefix = "system:controller:";

/** The controllers in buildControllerRoles' order, the gated ones only when their gates are on. */
function controllers(g: PolicyFeatureGates): ControllerRules[] {
  const when = (on: boolean, ...c: ControllerRules[]): ControllerRules[] => (on ? c : []);
  return [
    storage.attachDetachController,
    core.clusterRoleAggregationController,
    workloads.cronJobController,
    workloads.daemonSetController,
    workloads.deploymentController,
    workloads.disruptionController,
    core.endpointController,
    core.endpointSliceController,
    core.endpointSliceMirroringController,
    storage.expandController,
    storage.ephemeralVolumeController,
    ...when(g.DynamicResourceAllocation, storage.resourceClaimController, storage.deviceTaintEvictionController),
    core.genericGarbageCollector,
    workloads.horizontalPodAutoscaler,
    workloads.jobController,
    core.namespaceController,
    core.nodeController,
    storage.persistentVolumeBinder,
    core.podGarbageCollector,
    workloads.replicaSetController,
    workloads.replicationController,
    core.resourceQuotaController,
    core.routeController,
    core.serviceAccountController,
    core.serviceController,
    ...when(g.MultiCIDRServiceAllocator, core.serviceCIDRsController),
    workloads.statefulSetController,
    core.ttlController,
    core.certificateController,
    storage.pvcProtectionController,
    storage.pvProtectionController,
    ...when(g.VolumeAttributesClass, storage.volumeAttributesClassProtectionController),
    workloads.ttlAfterFinishedController,
    core.rootCACertPublisher,
    ...when(g.ClusterTrustBundle, core.kubeAPIServerServingClusterTrustBundlePublisher),
    core.validatingAdmissionPolicyStatusController,
    ...when(g.StorageVersionAPI && g.APIServerIdentity, core.storageVersionGarbageCollector),
    core.legacyServiceAccountTokenCleaner,
    ...when(g.StorageVersionMigrator, core.storageVersionMigratorController),
    ...when(g.SELinuxChangePolicy, storage.seLinuxWarningController),
  ];
}

/** addControllerRole, for every controller: its role and its binding to its kube-system service account. */
function buildControllerRoles(g: PolicyFeatureGates): { roles: ClusterRole[]; bindings: ClusterRoleBinding[] } {
  const roles: ClusterRole[] = [];
  const bindings: ClusterRoleBinding[] = [];
  for (const [name, rules] of controllers(g)) {
    const roleName = saRolePrefix + name;
    roles.push(
      addDefaultMetadata({
        apiVersion: "rbac.authorization.k8s.io/v1",
        kind: "ClusterRole",
        metadata: { name: roleName },
        rules: structuredClone(rules),
      }),
    );
    bindings.push(addDefaultMetadata(newClusterBinding(roleName).sas("kube-system", name).binding()));
  }
  return { roles, bindings };
}

/** ControllerRoles. */
export function controllerRoles(gates: PolicyFeatureGates): ClusterRole[] {
  return buildControllerRoles(gates).roles;
}

/** ControllerRoleBindings. */
export function controllerRoleBindings(gates: PolicyFeatureGates): ClusterRoleBinding[] {
  return buildControllerRoles(gates).bindings;
}
