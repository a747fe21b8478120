/**
 * The stale DisruptionTarget check of pkg/controller/disruption/disruption.go
 * (`nonTerminatingPodHasStaleDisruptionCondition`): a Pod that got DisruptionTarget=True (an
 * eviction or preemption that never deleted it) but is neither deleting nor terminal has it reset
 * after `stalePodDisruptionTimeout`.
 */
import type { Pod } from "@servicenet/api";

/** `stalePodDisruptionTimeout` (kube-controller-manager's default, 2 minutes). */
export const stalePodDisruptionTimeoutMs = 2 * 60_000;

/** `PodReasonTerminationByKubelet`: the kubelet's conditions are never stale. */
const terminationByKubelet = "TerminationByKubelet";

/** Whether the Pod has a stale-able condition, and how long until it is stale (0: now). */
export function nonTerminatingPodHasStaleDisruptionCondition(pod: Pod, nowMs: number, timeoutMs: number): { has: boolean; waitMs: number } {
  if (pod.metadata.deletionTimestamp !== undefined && pod.metadata.deletionTimestamp !== null) return { has: false, waitMs: 0 };
  const status = (pod.status ?? {}) as {
    phase?: string;
    conditions?: { type: string; status: string; reason?: string; lastTransitionTime?: string | null }[];
  };
  const cond = status.conditions?.find((c) => c.type === "DisruptionTarget");
  const terminal = status.phase === "Succeeded" || status.phase === "Failed";
  if (cond === undefined || cond.status !== "True" || cond.reason === terminationByKubelet || terminal) return { has: false, waitMs: 0 };
  const since = cond.lastTransitionTime ? Date.parse(cond.lastTransitionTime) : 0;
  return { has: true, waitMs: Math.max(0, timeoutMs - (nowMs - since)) };
}
