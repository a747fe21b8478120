/** The taint and toleration helpers of pkg/controller/tainteviction/taint_eviction.go. */
import type { Taint, Toleration } from "@servicenet/api";

/** `getNoExecuteTaints`: the NoExecute taints, in order. */
export function getNoExecuteTaints(taints: readonly Taint[] | undefined): Taint[] {
  return (taints ?? []).filter((t) => t.effect === "NoExecute");
}

/**
 * `getMinTolerationTime`, in milliseconds: 0 for no tolerations or any `tolerationSeconds` of 0 or
 * less, -1 (forever) when none has `tolerationSeconds`, else the shortest.
 */
export function getMinTolerationTime(tolerations: readonly Toleration[]): number {
  if (tolerations.length === 0) return 0;
  let min = Number.POSITIVE_INFINITY;
  for (const t of tolerations) {
    if (t.tolerationSeconds === undefined) continue;
    if (t.tolerationSeconds <= 0) return 0;
    min = Math.min(min, t.tolerationSeconds);
  }
  return min === Number.POSITIVE_INFINITY ? -1 : min * 1000;
}
