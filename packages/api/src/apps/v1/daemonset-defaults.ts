/**
 * DaemonSet defaulting (pkg/apis/apps/v1/defaults.go `SetDefaults_DaemonSet`), with the pod
 * template's PodSpec defaults the generated `SetObjectDefaults_DaemonSet` applies.
 */
import { setDefaultsPodTemplateSpec } from "./defaults.ts";
import type { DaemonSet } from "./daemonset-types.ts";

export const rollingUpdateDaemonSetStrategyType = "RollingUpdate";
export const onDeleteDaemonSetStrategyType = "OnDelete";
/** `appsv1.DeprecatedTemplateGeneration`: apps/v1's form of the internal spec.templateGeneration. */
export const deprecatedTemplateGenerationAnnotation = "deprecated.daemonset.template.generation";

/**
 * `SetDefaults_DaemonSet`: updateStrategy RollingUpdate with maxUnavailable 1 and maxSurge 0,
 * revisionHistoryLimit 10. Mutates and returns `ds`.
 */
export function setDefaultsDaemonSet(ds: DaemonSet): DaemonSet {
  const strategy = (ds.spec.updateStrategy ??= {});
  if ((strategy.type ?? "") === "") strategy.type = rollingUpdateDaemonSetStrategyType;
  if (strategy.type === rollingUpdateDaemonSetStrategyType) {
    const ru = (strategy.rollingUpdate ??= {});
    ru.maxUnavailable ??= 1;
    ru.maxSurge ??= 0;
  }
  ds.spec.revisionHistoryLimit ??= 10;
  setDefaultsPodTemplateSpec(ds.spec.template);
  return ds;
}
