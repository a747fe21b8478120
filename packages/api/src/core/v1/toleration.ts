/**
 * core/v1 Toleration (k8s.io/api/core/v1/toleration.go `ToleratesTaint`) and the helper the
 * scheduler and the taint-eviction controller share (pkg/apis/core/v1/helper/helpers.go
 * `GetMatchingTolerations`).
 */
import { z } from "zod";
import type { Taint } from "./node.ts";

/** core/v1 Toleration: the Pod tolerates the taints it matches, NoExecute ones for `tolerationSeconds` when set. */
export const TolerationSchema = z.object({
  key: z.string().optional(),
  /** `Exists` or `Equal` (the default). */
  operator: z.string().optional(),
  value: z.string().optional(),
  effect: z.string().optional(),
  /** NoExecute only: how long the Pod stays bound after the taint appears; unset is forever, 0 or less is not at all. */
  tolerationSeconds: z.number().int().optional(),
});
export type Toleration = z.infer<typeof TolerationSchema>;

/** The fields of a taint a toleration is matched against. */
export type TaintLike = Pick<Taint, "key" | "effect"> & { value?: string | undefined };

/**
 * `Toleration.ToleratesTaint`: an empty effect or key matches any; `Exists` matches any value,
 * `Equal` (or no operator) the same value, any other operator nothing.
 */
export function toleratesTaint(t: Pick<Toleration, "key" | "operator" | "value" | "effect">, taint: TaintLike): boolean {
  if ((t.effect ?? "") !== "" && t.effect !== taint.effect) return false;
  if ((t.key ?? "") !== "" && t.key !== taint.key) return false;
  switch (t.operator ?? "") {
    case "":
    case "Equal":
      return (t.value ?? "") === (taint.value ?? "");
    case "Exists":
      return true;
    default:
      return false;
  }
}

/**
 * `GetMatchingTolerations`: whether every taint is tolerated and, if so, the first toleration
 * matching each taint (in the taints' order; none without taints).
 */
export function getMatchingTolerations<T extends Toleration>(
  taints: readonly TaintLike[],
  tolerations: readonly T[],
): { allTolerated: boolean; used: T[] } {
  if (taints.length === 0) return { allTolerated: true, used: [] };
  const used: T[] = [];
  for (const taint of taints) {
    const t = tolerations.find((x) => toleratesTaint(x, taint));
    if (t === undefined) return { allTolerated: false, used: [] };
    used.push(t);
  }
  return { allTolerated: true, used };
}
