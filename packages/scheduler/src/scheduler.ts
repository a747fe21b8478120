/**
 * The scheduling loop (pkg/scheduler/schedule_one.go) over the cache: take a Pod from the queue,
 * run every Filter on the Nodes (stopping once `numFeasibleNodesToFind` fit, starting where the
 * last cycle stopped), score the feasible ones with the weighted Score plugins, pick the best
 * (ties at random, as `selectHost`), assume it and bind through `pods/binding`. A Pod that fits
 * nowhere gets a `FailedScheduling` event and `PodScheduled=False` (`Unschedulable`) and waits
 * until a Node or a Pod changes (`moveAllToActiveOrBackoffQueue`), or at most 5 min.
 */
import type { Pod } from "@servicenet/api";
import { SchedulerCache } from "./backend/cache/cache.ts";
import { fitErrorMessage } from "./framework/fit-error.ts";
import type { FilterPlugin, NodeInfo, ScorePlugin, Status } from "./framework/types.ts";

/** `ErrNoNodesAvailable`. */
export const errNoNodesAvailable = "no nodes available to schedule pods";

/** `minFeasibleNodesToFind` and `minFeasibleNodesPercentageToFind` of schedule_one.go. */
const minFeasibleNodesToFind = 100;
const minFeasibleNodesPercentageToFind = 5;

/** `numFeasibleNodesToFind` with the default (adaptive) percentageOfNodesToScore. */
export function numFeasibleNodesToFind(numAllNodes: number): number {
  if (numAllNodes < minFeasibleNodesToFind) return numAllNodes;
  const percentage = Math.max(minFeasibleNodesPercentageToFind, 50 - Math.floor(numAllNodes / 125));
  return Math.max(minFeasibleNodesToFind, Math.floor((numAllNodes * percentage) / 100));
}

/** One cycle's answer: the chosen Node, or the message of why none fits. */
export type ScheduleResult = { node: string } | { error: string };

export interface Profile {
  filters: readonly FilterPlugin[];
  scores: readonly ScorePlugin[];
  /** Picks among equally good Nodes (Math.random by default). */
  random?: () => number;
}

/** `schedulePod`: filters, then scores, over the cache's NodeInfos. */
export class Algorithm {
  readonly #p: Profile;
  readonly cache: SchedulerCache;
  #nextStartNodeIndex = 0;

  constructor(profile: Profile, cache = new SchedulerCache()) {
    this.#p = profile;
    this.cache = cache;
  }

  /** `runFilterPlugins` on one Node: the first failing plugin's status. */
  #filter(pod: Pod, node: NodeInfo): Status | null {
    for (const f of this.#p.filters) {
      const s = f.filter(pod, node);
      if (s !== null) return s;
    }
    return null;
  }

  schedule(pod: Pod): ScheduleResult {
    const all = this.cache.nodeInfos();
    if (all.length === 0) return { error: errNoNodesAvailable };
    const want = numFeasibleNodesToFind(all.length);
    const feasible: NodeInfo[] = [];
    const failed: Status[] = [];
    let visited = 0;
    for (; visited < all.length && feasible.length < want; visited++) {
      const node = all[(this.#nextStartNodeIndex + visited) % all.length] as NodeInfo;
      const s = this.#filter(pod, node);
      if (s === null) feasible.push(node);
      else failed.push(s);
    }
    this.#nextStartNodeIndex = (this.#nextStartNodeIndex + visited) % all.length;
    if (feasible.length === 0) return { error: fitErrorMessage(all.length, failed) };
    if (feasible.length === 1) return { node: feasible[0]?.node.metadata.name ?? "" };
    return { node: this.#selectHost(this.#score(pod, feasible, all), feasible) };
  }

  /** `prioritizeNodes`: weighted sum of each plugin's normalized scores. */
  #score(pod: Pod, nodes: NodeInfo[], all: NodeInfo[]): number[] {
    const total = nodes.map(() => 0);
    for (const p of this.#p.scores) {
      if (p.preScore !== undefined && !p.preScore(pod, nodes, all)) continue;
      const s = nodes.map((n) => p.score(pod, n));
      p.normalize?.(s);
      s.forEach((v, i) => (total[i] = (total[i] ?? 0) + v * p.weight));
    }
    return total;
  }

  /** `selectHost`: the highest score, a tie broken by reservoir sampling. */
  #selectHost(scores: number[], nodes: NodeInfo[]): string {
    const random = this.#p.random ?? Math.random;
    let best = 0;
    let ties = 1;
    for (let i = 1; i < scores.length; i++) {
      const s = scores[i] ?? 0;
      if (s > (scores[best] ?? 0)) {
        best = i;
        ties = 1;
      } else if (s === scores[best]) {
        ties++;
        if (random() * ties < 1) best = i;
      }
    }
    return nodes[best]?.node.metadata.name ?? "";
  }
}
