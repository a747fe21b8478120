/**
 * pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go: the Pod's `nodeSelector` and
 * required node affinity must match the Node (Filter, component-helpers nodeaffinity
 * `GetRequiredNodeAffinity`); preferred terms add their weights (Score, normalized).
 */
import type { Node, Pod } from "@servicenet/api";
import { maxNodeScore, status, type FilterPlugin, type NodeInfo, type ScorePlugin, type Status } from "../../types.ts";

export const nodeAffinityName = "NodeAffinity";
/** `ErrReasonPod`. */
export const errReasonPod = "node(s) didn't match Pod's node affinity/selector";

export interface NodeSelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

export interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[];
  matchFields?: NodeSelectorRequirement[];
}

interface NodeAffinity {
  requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms?: NodeSelectorTerm[] };
  preferredDuringSchedulingIgnoredDuringExecution?: { weight: number; preference: NodeSelectorTerm }[];
}

function affinityOf(pod: Pod): NodeAffinity | undefined {
  return (pod.spec["affinity"] as { nodeAffinity?: NodeAffinity } | undefined)?.nodeAffinity;
}

/** One requirement against a label set (labels.Requirement.Matches with the node selector operators). */
function requirementMatches(r: NodeSelectorRequirement, fields: Readonly<Record<string, string>>): boolean {
  const has = Object.hasOwn(fields, r.key);
  const v = fields[r.key] ?? "";
  const values = r.values ?? [];
  switch (r.operator) {
    case "In":
      return has && values.includes(v);
    case "NotIn":
      return !has || !values.includes(v);
    case "Exists":
      return has;
    case "DoesNotExist":
      return !has;
    case "Gt":
    case "Lt": {
      if (!has || values.length !== 1 || !/^-?\d+$/.test(v) || !/^-?\d+$/.test(values[0] ?? "")) return false;
      const [a, b] = [BigInt(v), BigInt(values[0] ?? "0")];
      return r.operator === "Gt" ? a > b : a < b;
    }
    default:
      return false;
  }
}

/** A term matches when all its expressions and fields do; an empty term matches nothing. */
export function termMatches(term: NodeSelectorTerm, node: Node): boolean {
  const exprs = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (exprs.length === 0 && fields.length === 0) return false;
  const labels = node.metadata.labels ?? {};
  const nodeFields = { "metadata.name": node.metadata.name ?? "" };
  return (
    exprs.every((r) => requirementMatches(r, labels)) && fields.every((r) => r.key === "metadata.name" && requirementMatches(r, nodeFields))
  );
}

/** `RequiredNodeAffinity.Match`: nodeSelector, then the required terms (ORed). */
export function requiredNodeAffinityMatches(pod: Pod, node: Node): boolean {
  const labels = node.metadata.labels ?? {};
  const selector = (pod.spec["nodeSelector"] as Record<string, string> | undefined) ?? {};
  for (const [k, v] of Object.entries(selector)) if (labels[k] !== v) return false;
  const required = affinityOf(pod)?.requiredDuringSchedulingIgnoredDuringExecution;
  if (required === undefined) return true;
  return (required.nodeSelectorTerms ?? []).some((t) => termMatches(t, node));
}

export const nodeAffinity: FilterPlugin & ScorePlugin = {
  name: nodeAffinityName,
  weight: 2,
  filter(pod: Pod, node: NodeInfo): Status | null {
    return requiredNodeAffinityMatches(pod, node.node) ? null : status(nodeAffinityName, "UnschedulableAndUnresolvable", errReasonPod);
  },
  score(pod: Pod, node: NodeInfo): number {
    let sum = 0;
    for (const p of affinityOf(pod)?.preferredDuringSchedulingIgnoredDuringExecution ?? [])
      if (p.weight !== 0 && termMatches(p.preference, node.node)) sum += p.weight;
    return sum;
  },
  normalize(scores: number[]): void {
    const max = Math.max(0, ...scores);
    if (max === 0) return;
    for (let i = 0; i < scores.length; i++) scores[i] = Math.floor(((scores[i] ?? 0) * maxNodeScore) / max);
  },
};
