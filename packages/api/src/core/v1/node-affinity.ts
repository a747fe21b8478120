/**
 * k8s.io/component-helpers/scheduling/corev1/nodeaffinity: whether a Pod's `nodeSelector` and
 * required node affinity (`GetRequiredNodeAffinity(pod).Match(node)`) select a Node. The scheduler's
 * NodeAffinity filter and the DaemonSet controller's eligibility check share it, as upstream's do.
 */
import type { Node } from "./node.ts";
import type { Pod } from "./pod.ts";

export interface NodeSelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

export interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[];
  matchFields?: NodeSelectorRequirement[];
}

export interface NodeAffinity {
  requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms?: NodeSelectorTerm[] };
  preferredDuringSchedulingIgnoredDuringExecution?: { weight: number; preference: NodeSelectorTerm }[];
}

/** The Pod spec's `affinity.nodeAffinity`. */
export function nodeAffinityOf(spec: Pod["spec"]): NodeAffinity | undefined {
  return ((spec as Record<string, unknown>)["affinity"] as { nodeAffinity?: NodeAffinity } | undefined)?.nodeAffinity;
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
export function nodeSelectorTermMatches(term: NodeSelectorTerm, node: Node): boolean {
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
export function requiredNodeAffinityMatches(pod: Pick<Pod, "spec">, node: Node): boolean {
  const labels = node.metadata.labels ?? {};
  const selector = ((pod.spec as Record<string, unknown>)["nodeSelector"] as Record<string, string> | undefined) ?? {};
  for (const [k, v] of Object.entries(selector)) if (labels[k] !== v) return false;
  const required = nodeAffinityOf(pod.spec)?.requiredDuringSchedulingIgnoredDuringExecution;
  if (required === undefined) return true;
  return (required.nodeSelectorTerms ?? []).some((t) => nodeSelectorTermMatches(t, node));
}
