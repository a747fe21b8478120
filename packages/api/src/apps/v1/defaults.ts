/**
 * apps/v1 defaulting (pkg/apis/apps/v1/defaults.go `SetDefaults_Deployment`,
 * `SetDefaults_ReplicaSet`), with the pod template's PodSpec defaults as the generated
 * `SetObjectDefaults_Deployment` applies them.
 */
import { setDefaultsPodSpec } from "../../core/v1/pod-defaults.ts";
import type { Deployment, PodTemplateSpec, ReplicaSet } from "./types.ts";

export const rollingUpdateDeploymentStrategyType = "RollingUpdate";
export const recreateDeploymentStrategyType = "Recreate";

/** The pod template's defaults: its PodSpec's (no hostNetwork ports: that needs a gate, off in 1.33). */
export function setDefaultsPodTemplateSpec(template: PodTemplateSpec): PodTemplateSpec {
  setDefaultsPodSpec(template.spec);
  return template;
}

/**
 * `SetDefaults_Deployment`: replicas 1, strategy RollingUpdate with maxUnavailable and maxSurge
 * 25%, revisionHistoryLimit 10, progressDeadlineSeconds 600. Mutates and returns `d`.
 */
export function setDefaultsDeployment(d: Deployment): Deployment {
  const spec = d.spec;
  spec.replicas ??= 1;
  const strategy = (spec.strategy ??= {});
  if ((strategy.type ?? "") === "") strategy.type = rollingUpdateDeploymentStrategyType;
  if (strategy.type === rollingUpdateDeploymentStrategyType) {
    const ru = (strategy.rollingUpdate ??= {});
    ru.maxUnavailable ??= "25%";
    ru.maxSurge ??= "25%";
  }
  spec.revisionHistoryLimit ??= 10;
  spec.progressDeadlineSeconds ??= 600;
  setDefaultsPodTemplateSpec(spec.template);
  return d;
}

/** `SetDefaults_ReplicaSet`: replicas 1, and the template's defaults. Mutates and returns `rs`. */
export function setDefaultsReplicaSet(rs: ReplicaSet): ReplicaSet {
  rs.spec.replicas ??= 1;
  if (rs.spec.template !== undefined) setDefaultsPodTemplateSpec(rs.spec.template);
  return rs;
}
