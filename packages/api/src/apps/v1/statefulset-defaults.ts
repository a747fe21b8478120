/**
 * StatefulSet defaulting (pkg/apis/apps/v1/defaults.go `SetDefaults_StatefulSet`), with what the
 * generated `SetObjectDefaults_StatefulSet` adds: the pod template's PodSpec defaults and each
 * volumeClaimTemplate's PersistentVolumeClaim defaults (core/v1 `SetDefaults_PersistentVolumeClaim`,
 * `SetDefaults_PersistentVolumeClaimSpec`).
 */
import { setDefaultsPodTemplateSpec } from "./defaults.ts";
import type { StatefulSet } from "./statefulset-types.ts";

export const orderedReadyPodManagement = "OrderedReady";
export const parallelPodManagement = "Parallel";
export const rollingUpdateStatefulSetStrategyType = "RollingUpdate";
export const onDeleteStatefulSetStrategyType = "OnDelete";
export const retainPersistentVolumeClaimRetentionPolicyType = "Retain";
export const deletePersistentVolumeClaimRetentionPolicyType = "Delete";

/** A PersistentVolumeClaim template's defaults: volumeMode Filesystem, status.phase Pending. */
function setDefaultsClaimTemplate(claim: Record<string, unknown>): void {
  const spec = (claim["spec"] ??= {}) as Record<string, unknown>;
  if (spec["volumeMode"] === undefined || spec["volumeMode"] === null) spec["volumeMode"] = "Filesystem";
  const status = (claim["status"] ??= {}) as Record<string, unknown>;
  if ((status["phase"] ?? "") === "") status["phase"] = "Pending";
}

/**
 * `SetDefaults_StatefulSet`: podManagementPolicy OrderedReady, updateStrategy RollingUpdate with
 * partition 0, the PVC retention policy Retain/Retain (StatefulSetAutoDeletePVC is GA in 1.33),
 * replicas 1, revisionHistoryLimit 10. Mutates and returns `sts`.
 */
export function setDefaultsStatefulSet(sts: StatefulSet): StatefulSet {
  const spec = sts.spec;
  if ((spec.podManagementPolicy ?? "") === "") spec.podManagementPolicy = orderedReadyPodManagement;
  const strategy = (spec.updateStrategy ??= {});
  if ((strategy.type ?? "") === "") {
    strategy.type = rollingUpdateStatefulSetStrategyType;
    // RollingUpdate takes the defaults below.
    strategy.rollingUpdate ??= {};
  }
  if (strategy.type === rollingUpdateStatefulSetStrategyType && strategy.rollingUpdate !== undefined)
    strategy.rollingUpdate.partition ??= 0;
  const policy = (spec.persistentVolumeClaimRetentionPolicy ??= {});
  if ((policy.whenDeleted ?? "") === "") policy.whenDeleted = retainPersistentVolumeClaimRetentionPolicyType;
  if ((policy.whenScaled ?? "") === "") policy.whenScaled = retainPersistentVolumeClaimRetentionPolicyType;
  spec.replicas ??= 1;
  spec.revisionHistoryLimit ??= 10;
  setDefaultsPodTemplateSpec(spec.template);
  for (const claim of spec.volumeClaimTemplates ?? []) setDefaultsClaimTemplate(claim);
  return sts;
}
