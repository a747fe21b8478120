/**
 * The status write of a Pod that fits nowhere (schedule_one.go `handleSchedulingFailure` →
 * `updatePod`): `PodScheduled=False`, reason `Unschedulable`, the FitError message; nothing is
 * written when the condition already says so (`podutil.UpdatePodCondition` reports no change).
 */
import type { Pod, PodCondition } from "@servicenet/api";

function rfc3339(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** The merge patch of `pods/status`, or undefined when the Pod's condition is already this one. */
export function unschedulablePatch(pod: Pod, message: string, now: number): Record<string, unknown> | undefined {
  const conds = pod.status?.conditions ?? [];
  const old = conds.find((c) => c.type === "PodScheduled");
  if (old !== undefined && old.status === "False" && old.reason === "Unschedulable" && old.message === message) return undefined;
  const next: PodCondition = {
    type: "PodScheduled",
    status: "False",
    reason: "Unschedulable",
    message,
    lastTransitionTime: old !== undefined && old.status === "False" && old.lastTransitionTime ? old.lastTransitionTime : rfc3339(now),
  };
  const conditions = old === undefined ? [...conds, next] : conds.map((c) => (c.type === "PodScheduled" ? next : c));
  return { metadata: { uid: pod.metadata.uid }, status: { conditions } };
}
