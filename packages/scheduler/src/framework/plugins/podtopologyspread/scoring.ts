/**
 * pkg/scheduler/framework/plugins/podtopologyspread/scoring.go with the system default
 * constraints (plugin.go `systemDefaultConstraints`: zone maxSkew 5 and hostname maxSkew 3, both
 * ScheduleAnyway) and their selector, the Services selecting the Pod (helper.DefaultSelector):
 * a Node scores lower the more matching Pods its zone and itself already have, so replicas
 * spread over zones and Nodes. Only scoring: default constraints never filter.
 */
import type { Pod } from "@servicenet/api";
import { maxNodeScore, type NodeInfo, type PodRef, type ScorePlugin } from "../../types.ts";

export const podTopologySpreadName = "PodTopologySpread";
export const labelHostname = "kubernetes.io/hostname";
export const labelTopologyZone = "topology.kubernetes.io/zone";

/** A soft constraint: its topology key and maxSkew. */
export interface SpreadConstraint {
  topologyKey: string;
  maxSkew: number;
}

export const systemDefaultConstraints: readonly SpreadConstraint[] = [
  { topologyKey: labelHostname, maxSkew: 3 },
  { topologyKey: labelTopologyZone, maxSkew: 5 },
];

/** The label set a Pod's spread counts Pods by (the merged selectors of the Services selecting it), or undefined. */
export type DefaultSelector = (pod: Pod) => Readonly<Record<string, string>> | undefined;

function matches(ref: PodRef, namespace: string, pairs: readonly (readonly [string, string])[]): boolean {
  if (ref.terminating || ref.namespace !== namespace) return false;
  for (const [k, v] of pairs) if (ref.labels[k] !== v) return false;
  return true;
}

/**
 * `countPodsMatchSelector`. Every scheduling cycle runs it over every Pod of the cluster (the zone
 * constraint counts all Nodes' Pods), so the selector's pairs are taken once per Node, not per Pod.
 */
export function countPodsMatchSelector(node: NodeInfo, namespace: string, selector: Readonly<Record<string, string>>): number {
  const pairs = Object.entries(selector);
  let n = 0;
  for (const ref of node.pods.values()) if (matches(ref, namespace, pairs)) n++;
  return n;
}

interface CycleState {
  namespace: string;
  selector: Readonly<Record<string, string>>;
  /** Per constraint: matching Pods per topology value (not used for the hostname key). */
  counts: Map<string, number>[];
  weights: number[];
}

/** The plugin for one scheduler: its cycle state lives between preScore and score. */
export function podTopologySpread(defaultSelector: DefaultSelector, constraints = systemDefaultConstraints): ScorePlugin {
  let state: CycleState | undefined;
  return {
    name: podTopologySpreadName,
    weight: 2,
    preScore(pod, filtered, all) {
      const selector = defaultSelector(pod);
      state = undefined;
      if (selector === undefined || Object.keys(selector).length === 0) return false;
      const namespace = pod.metadata.namespace ?? "";
      const counts = constraints.map(() => new Map<string, number>());
      constraints.forEach((c, i) => {
        for (const n of filtered) {
          const v = n.node.metadata.labels?.[c.topologyKey];
          if (v !== undefined) counts[i]?.set(v, 0);
        }
      });
      constraints.forEach((c, i) => {
        if (c.topologyKey === labelHostname) return;
        const m = counts[i];
        if (m === undefined) return;
        for (const n of all) {
          const v = n.node.metadata.labels?.[c.topologyKey];
          if (v === undefined || !m.has(v)) continue;
          m.set(v, (m.get(v) ?? 0) + countPodsMatchSelector(n, namespace, selector));
        }
      });
      // `topologyNormalizingWeight`: log(size + 2); the hostname key's size is the Nodes scored.
      const weights = constraints.map((c, i) => Math.log((c.topologyKey === labelHostname ? filtered.length : (counts[i]?.size ?? 0)) + 2));
      state = { namespace, selector, counts, weights };
      return true;
    },
    score(_pod, node) {
      if (state === undefined) return 0;
      let score = 0;
      constraints.forEach((c, i) => {
        const v = node.node.metadata.labels?.[c.topologyKey];
        if (v === undefined || state === undefined) return;
        const cnt =
          c.topologyKey === labelHostname ? countPodsMatchSelector(node, state.namespace, state.selector) : (state.counts[i]?.get(v) ?? 0);
        score += cnt * (state.weights[i] ?? 1) + (c.maxSkew - 1);
      });
      return Math.round(score);
    },
    normalize(scores) {
      if (scores.length === 0) return;
      const min = Math.min(...scores);
      const max = Math.max(...scores);
      for (let i = 0; i < scores.length; i++)
        scores[i] = max === 0 ? maxNodeScore : Math.floor((maxNodeScore * (max + min - (scores[i] ?? 0))) / max);
    },
  };
}
