/**
 * `handleDisruption` of pkg/controller/nodelifecycle/node_lifecycle_controller.go: each zone's
 * disruption state from its Nodes' Ready conditions, and its NoExecute tainter's rate; with every
 * zone fully disrupted ("master disruption mode") nothing is tainted at all.
 */
import type { Node, NodeCondition } from "@servicenet/api";
import type { Logger } from "@servicenet/component-base/logs";
import type { RateLimitedTimedQueue } from "./scheduler/rate-limited-queue.ts";
import { computeZoneState, zoneQPS, type EvictionRates, type ZoneState } from "./zones.ts";

/** The controller state `handleDisruption` reads and changes. */
export interface DisruptionDeps {
  zoneStates: Map<string, ZoneState>;
  tainters: Map<string, RateLimitedTimedQueue>;
  unhealthyZoneThreshold: number;
  rates: EvictionRates;
  logger: Logger;
  markNodeAsReachable(node: Node): Promise<unknown>;
  /** Every Node's probe and transition timestamps set to `now` (leaving disruption mode). */
  resetProbeTimestamps(now: number): void;
}

/** `handleDisruption` over the Ready conditions of this pass, by zone. */
export async function handleDisruption(
  d: DisruptionDeps,
  zoneConditions: Map<string, (NodeCondition | undefined)[]>,
  nodes: readonly Node[],
  now: number,
): Promise<void> {
  const newStates = new Map<string, ZoneState>();
  let allAreFullyDisrupted = true;
  for (const [zone, conditions] of zoneConditions) {
    const [, state] = computeZoneState(conditions, d.unhealthyZoneThreshold);
    if (state !== "FullDisruption") allAreFullyDisrupted = false;
    newStates.set(zone, state);
    if (!d.zoneStates.has(zone)) {
      d.logger.error("Setting initial state for unseen zone", { zone });
      d.zoneStates.set(zone, "Initial");
    }
  }
  let allWasFullyDisrupted = true;
  for (const [zone, state] of [...d.zoneStates]) {
    if (!zoneConditions.has(zone)) {
      d.zoneStates.delete(zone);
      continue;
    }
    if (state !== "FullDisruption") {
      allWasFullyDisrupted = false;
      break;
    }
  }
  if (allAreFullyDisrupted && allWasFullyDisrupted) return;
  const qps = (zone: string, state: ZoneState) => zoneQPS(state, zoneConditions.get(zone)?.length ?? 0, d.rates);
  if (allAreFullyDisrupted) {
    // Every Node is down: more likely the control plane's network than the Nodes; nothing is tainted.
    d.logger.info("Controller detected that all Nodes are not-Ready. Entering master disruption mode");
    for (const n of nodes) await d.markNodeAsReachable(n);
    for (const zone of d.zoneStates.keys()) {
      d.tainters.get(zone)?.swapLimiter(0);
      d.zoneStates.set(zone, "FullDisruption");
    }
    return;
  }
  if (allWasFullyDisrupted) {
    d.logger.info("Controller detected that some Nodes are Ready. Exiting master disruption mode");
    d.resetProbeTimestamps(now);
    for (const zone of d.zoneStates.keys()) {
      const state = newStates.get(zone) ?? "Normal";
      d.tainters.get(zone)?.swapLimiter(qps(zone, state));
      d.zoneStates.set(zone, state);
    }
    return;
  }
  for (const [zone, state] of [...d.zoneStates]) {
    const next = newStates.get(zone);
    if (next === undefined || next === state) continue;
    d.logger.info("Controller detected that zone is now in new state", { zone, newState: next });
    d.tainters.get(zone)?.swapLimiter(qps(zone, next));
    d.zoneStates.set(zone, next);
  }
}
