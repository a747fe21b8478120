/**
 * The PrioritySort queue-sort plugin (pkg/scheduler/framework/plugins/queuesort/priority_sort.go),
 * the default profile's QueueSort: the activeQ pops higher-priority Pods first, and of equal
 * priority the one queued (or last failed) earlier.
 */
import type { Pod } from "@servicenet/api";

/** The plugin's name (`names.PrioritySort`). */
export const prioritySortName = "PrioritySort";

/** What the sort reads of a `QueuedPodInfo`: the Pod's priority and the queue timestamp (ms). */
export interface QueuedPodInfo {
  priority: number;
  timestamp: number;
}

/** `framework.LessFunc`: true when `a` is popped before `b`. */
export type LessFunc = (a: QueuedPodInfo, b: QueuedPodInfo) => boolean;

/** corev1helpers.PodPriority: `spec.priority`, 0 when unset (no Priority admission). */
export function podPriority(pod: Pod): number {
  return pod.spec.priority ?? 0;
}

/** `PrioritySort.Less`: higher priority first, then the earlier timestamp. */
export const prioritySortLess: LessFunc = (a, b) => a.priority > b.priority || (a.priority === b.priority && a.timestamp < b.timestamp);
