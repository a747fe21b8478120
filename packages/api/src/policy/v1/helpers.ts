/**
 * k8s.io/component-helpers/apps/poddisruptionbudget/helpers.go: the `DisruptionAllowed` condition
 * the eviction subresource and the disruption controller both keep on a PodDisruptionBudget.
 */
import { setCondition } from "../../meta/v1/condition.ts";
import { formatTime } from "../../meta/v1/type-meta.ts";
import {
  disruptionAllowedCondition,
  insufficientPodsReason,
  sufficientPodsReason,
  syncFailedReason,
  type PodDisruptionBudgetStatus,
} from "./types.ts";

/**
 * `UpdateDisruptionAllowedCondition`: True/SufficientPods while disruptions are allowed,
 * False/InsufficientPods otherwise (apimeta.SetStatusCondition keeps the transition time).
 */
export function updateDisruptionAllowedCondition(status: PodDisruptionBudgetStatus, now = new Date()): void {
  const allowed = status.disruptionsAllowed > 0;
  status.conditions ??= [];
  setCondition(status.conditions, {
    type: disruptionAllowedCondition,
    status: allowed ? "True" : "False",
    reason: allowed ? sufficientPodsReason : insufficientPodsReason,
    message: "",
    observedGeneration: status.observedGeneration ?? 0,
    lastTransitionTime: formatTime(now),
  });
}

/** The disruption controller's `failSafe`/`updatePdbStatus` condition: False/SyncFailed with the error. */
export function setSyncFailedCondition(status: PodDisruptionBudgetStatus, message: string, now = new Date()): void {
  status.conditions ??= [];
  setCondition(status.conditions, {
    type: disruptionAllowedCondition,
    status: "False",
    reason: syncFailedReason,
    message,
    observedGeneration: status.observedGeneration ?? 0,
    lastTransitionTime: formatTime(now),
  });
}
