/**
 * pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go: a Node's NoSchedule and
 * NoExecute taints must all be tolerated (Filter); fewer untolerated PreferNoSchedule taints score
 * higher (Score, normalized in reverse).
 */
import { toleratesTaint, type Pod } from "@servicenet/api";
import { maxNodeScore, status, type FilterPlugin, type NodeInfo, type ScorePlugin, type Status } from "../../types.ts";

export const taintTolerationName = "TaintToleration";

export interface Taint {
  key: string;
  value?: string;
  effect: string;
}

export interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
}

export const taintsOf = (n: NodeInfo): Taint[] => n.node.spec["taints"] ?? [];
export const tolerationsOf = (p: Pod): Toleration[] => p.spec.tolerations ?? [];

/** `v1helper.FindMatchingUntoleratedTaint` over the given effects. */
export function findUntoleratedTaint(
  taints: readonly Taint[],
  tolerations: readonly Toleration[],
  effects: readonly string[],
): Taint | undefined {
  return taints.find((taint) => effects.includes(taint.effect) && !tolerations.some((t) => toleratesTaint(t, taint)));
}

export const taintToleration: FilterPlugin & ScorePlugin = {
  name: taintTolerationName,
  weight: 3,
  filter(pod: Pod, node: NodeInfo): Status | null {
    const taint = findUntoleratedTaint(taintsOf(node), tolerationsOf(pod), ["NoSchedule", "NoExecute"]);
    if (taint === undefined) return null;
    return status(
      taintTolerationName,
      "UnschedulableAndUnresolvable",
      `node(s) had untolerated taint {${taint.key}: ${taint.value ?? ""}}`,
    );
  },
  score(pod: Pod, node: NodeInfo): number {
    const tolerations = tolerationsOf(pod).filter((t) => (t.effect ?? "") === "" || t.effect === "PreferNoSchedule");
    return taintsOf(node).filter((taint) => taint.effect === "PreferNoSchedule" && !tolerations.some((t) => toleratesTaint(t, taint)))
      .length;
  },
  normalize(scores: number[]): void {
    // helper.DefaultNormalizeScore(MaxNodeScore, reverse=true, ...).
    const max = Math.max(0, ...scores);
    for (let i = 0; i < scores.length; i++)
      scores[i] = max === 0 ? maxNodeScore : maxNodeScore - Math.floor(((scores[i] ?? 0) * maxNodeScore) / max);
  },
};
