/**
 * Seat borrowing between priority levels (staging/src/k8s.io/apiserver/pkg/util/flowcontrol/
 * apf_controller.go: updateBorrowingLocked, seatDemandStats, finishQueueSetReconfigsLocked): every
 * `borrowingAdjustmentPeriodMs` each level's current concurrency limit is re-derived from its
 * recent seat demand, between its nominal limit less what it lends and plus what it may borrow,
 * so that the limits always sum to the sum of the nominal ones.
 */
import { computeConcurrencyAllocation } from "./conc-alloc.ts";
import type { IntegratorResults } from "./fairqueuing/integrator.ts";

/** borrowingAdjustmentPeriod: how often the current limits are adjusted. */
export const borrowingAdjustmentPeriodMs = 10_000;

/** seatDemandSmoothingCoefficient: the smoothed demand's decay, a half-life of 5 minutes. */
export const seatDemandSmoothingCoefficient = 0.977;

/** seatDemandStats: the last period's figures of a level's seat demand, and their smoothing. */
export interface SeatDemandStats {
  avg: number;
  stdDev: number;
  highWatermark: number;
  smoothed: number;
}

/** What the adjustment reads and writes of a priority level. */
export interface BorrowingLevel {
  exempt: boolean;
  nominalCL: number;
  /** The nominal limit less the lendable seats. */
  minCL: number;
  /** The nominal limit plus the seats it may borrow. */
  maxCL: number;
  currentCL: number;
  /** The last allocation's target (the target_seats metric). */
  targetCL: number;
  seatDemandStats: SeatDemandStats;
  /** Resets the level's seat-demand integrator, returning its figures. */
  resetSeatDemand(): IntegratorResults;
  /** Applies a new current limit to the level's queues. */
  setCurrentCL(currentCL: number): void;
}

/** The configured bounds of a level's limit: minCL = nominal - lendable, maxCL = nominal + borrowing limit. */
export function concurrencyBounds(
  nominalCL: number,
  lendablePercent: number | undefined,
  borrowingLimitPercent: number | undefined,
  serverConcurrencyLimit: number,
): { minCL: number; maxCL: number; lendableCL: number } {
  const lendableCL = lendablePercent !== undefined ? Math.round((nominalCL * lendablePercent) / 100) : 0;
  // Without a borrowing limit a level may borrow as much as the whole server has.
  const borrowingCL = borrowingLimitPercent !== undefined ? Math.round((nominalCL * borrowingLimitPercent) / 100) : serverConcurrencyLimit;
  return { minCL: nominalCL - lendableCL, maxCL: nominalCL + borrowingCL, lendableCL };
}

/** seatDemandStats.update: envelope = avg + stdDev; smoothed = max(envelope, A x smoothed + (1 - A) x envelope). */
export function updateSeatDemandStats(stats: SeatDemandStats, obs: IntegratorResults): void {
  stats.highWatermark = obs.max;
  if (obs.durationSeconds <= 0) return;
  const deviation = Number.isNaN(obs.deviation) ? 0 : obs.deviation;
  stats.avg = obs.average;
  stats.stdDev = deviation;
  const envelope = obs.average + deviation;
  const a = seatDemandSmoothingCoefficient;
  stats.smoothed = Math.max(envelope, a * stats.smoothed + (1 - a) * envelope);
}

/** The adjustment's outcome: the fair fraction, and whether the allocation failed (limits kept). */
export interface BorrowingResult {
  fairFrac: number;
  backstop: boolean;
}

/**
 * updateBorrowingLocked. An Exempt level's limit is what it used (its demand's high watermark, at
 * least its minCL); the rest of the nominal sum goes to the others. Each other level's lower
 * bound is its high watermark capped at its nominal limit, never below minCL; its target the
 * smoothed demand (at least that bound). When what remains cannot cover every lower bound, each
 * level gets its minCL plus the same share of the way to that bound (nothing above minCL when not
 * even the minCLs fit); otherwise the allocation of the rest among the targets, rounded.
 */
export function updateBorrowing(levels: readonly BorrowingLevel[], nominalCLSum: number): BorrowingResult {
  let remaining = nominalCLSum;
  let minCLSum = 0;
  let minCurrentCLSum = 0;
  const plans = levels.map((l) => {
    updateSeatDemandStats(l.seatDemandStats, l.resetSeatDemand());
    const hwm = Math.ceil(l.seatDemandStats.highWatermark);
    if (l.exempt) {
      const cl = Math.max(l.minCL, hwm);
      remaining -= cl;
      return { level: l, minCurrentCL: cl, item: undefined };
    }
    const minCurrentCL = Math.max(l.minCL, Math.min(l.nominalCL, hwm));
    minCLSum += l.minCL;
    minCurrentCLSum += minCurrentCL;
    const item = { lowerBound: minCurrentCL, upperBound: l.maxCL, target: Math.max(minCurrentCL, l.seatDemandStats.smoothed) };
    return { level: l, minCurrentCL, item };
  });
  const limited = plans.filter((p) => p.item !== undefined);
  let fairFrac = 0;
  let backstop = false;
  let allocs: number[];
  if (remaining <= minCLSum) allocs = limited.map((p) => p.level.minCL);
  else if (remaining <= minCurrentCLSum) {
    const shareFrac = (remaining - minCLSum) / (minCurrentCLSum - minCLSum);
    allocs = limited.map((p) => p.level.minCL + Math.round((p.minCurrentCL - p.level.minCL) * shareFrac));
  } else {
    try {
      ({ allocs, fairProp: fairFrac } = computeConcurrencyAllocation(
        remaining,
        limited.map((p) => p.item),
      ));
    } catch {
      // Unable to derive new limits: keep the current ones.
      allocs = limited.map((p) => p.level.currentCL);
      backstop = true;
    }
  }
  limited.forEach((p, idx) => (p.level.currentCL = Math.round(allocs[idx]!)));
  for (const p of plans) {
    if (p.item === undefined) p.level.currentCL = p.minCurrentCL;
    p.level.targetCL = p.item?.target ?? p.minCurrentCL;
    p.level.setCurrentCL(p.level.currentCL);
  }
  return { fairFrac, backstop };
}
