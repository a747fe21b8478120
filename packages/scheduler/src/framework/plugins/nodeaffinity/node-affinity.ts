/**
 * pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go: the Pod's `nodeSelector` and
 * required node affinity must match the Node (Filter, component-helpers nodeaffinity
 * `GetRequiredNodeAffinity`, shared through @servicenet/api); preferred terms add their weights
 * (Score, normalized).
 */
import { nodeAffinityOf, nodeSelectorTermMatches, requiredNodeAffinityMatches, type Pod } from "@servicenet/api";
import { maxNodeScore, status, type FilterPlugin, type NodeInfo, type ScorePlugin, type Status } from "../../types.ts";

export const nodeAffinityName = "NodeAffinity";
/** `ErrReasonPod`. */
export const errReasonPod = "node(s) didn't match Pod's node affinity/selector";

export const nodeAffinity: FilterPlugin & ScorePlugin = {
  name: nodeAffinityName,
  weight: 2,
  filter(pod: Pod, node: NodeInfo): Status | null {
    return requiredNodeAffinityMatches(pod, node.node) ? null : status(nodeAffinityName, "UnschedulableAndUnresolvable", errReasonPod);
  },
  score(pod: Pod, node: NodeInfo): number {
    let sum = 0;
    for (const p of nodeAffinityOf(pod.spec)?.preferredDuringSchedulingIgnoredDuringExecution ?? [])
      if (p.weight !== 0 && nodeSelectorTermMatches(p.preference, node.node)) sum += p.weight;
    return sum;
  },
  normalize(scores: number[]): void {
    const max = Math.max(0, ...scores);
    if (max === 0) return;
    for (let i = 0; i < scores.length; i++) scores[i] = Math.floor(((scores[i] ?? 0) * maxNodeScore) / max);
  },
};
