/**
 * The message of a Pod that fits no Node (pkg/scheduler/framework/types.go `FitError.Error`):
 * `0/N nodes are available: <reasons>. preemption: 0/N nodes are available: <reasons>.`, each
 * reason list a histogram "count reason" sorted as strings. The preemption part is what
 * DefaultPreemption reports when it finds nothing to do: Nodes rejected as unresolvable are not
 * helped by preemption; the others are reported without victims, since this scheduler does not
 * preempt (Pods may carry `spec.priority` from the Priority admission plugin; it is not read here).
 */
import type { Status } from "./types.ts";

function histogram(reasons: Iterable<string>): string[] {
  const counts = new Map<string, number>();
  for (const r of reasons) counts.set(r, (counts.get(r) ?? 0) + 1);
  return [...counts].map(([r, n]) => `${n} ${r}`).sort();
}

/** The FailedScheduling message for `numAllNodes` Nodes and each Node's failed status. */
export function fitErrorMessage(numAllNodes: number, statuses: readonly Status[]): string {
  let msg = `0/${numAllNodes} nodes are available:`;
  const reasons = histogram(statuses.flatMap((s) => s.reasons));
  if (reasons.length > 0) msg += ` ${reasons.join(", ")}.`;
  if (numAllNodes > 0) {
    const pre = histogram(
      statuses.map((s) =>
        s.code === "UnschedulableAndUnresolvable"
          ? "Preemption is not helpful for scheduling"
          : "No preemption victims found for incoming pod",
      ),
    );
    msg += ` preemption: 0/${numAllNodes} nodes are available: ${pre.join(", ")}.`;
  }
  return msg;
}
