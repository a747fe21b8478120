/**
 * The allocation of the server's seats among priority levels
 * (staging/src/k8s.io/apiserver/pkg/util/flowcontrol/conc_alloc.go, computeConcurrencyAllocation):
 * each level gets the same proportion `fairProp` of its target, clipped to its bounds, and the
 * allocations sum to the required total.
 */

/** allocProblemItem: one priority level's target and bounds; `target >= lowerBound >= 0`, `upperBound >= lowerBound`. */
export interface AllocProblemItem {
  target: number;
  lowerBound: number;
  upperBound: number;
}

/** A target below this is taken as this (no division by zero). */
export const minTarget = 0.001;
const epsilon = 0.0000001;

/** The result: one allocation per item and the proportion of its target each unclipped item got. */
export interface ConcurrencyAllocation {
  allocs: number[];
  fairProp: number;
}

/**
 * computeConcurrencyAllocation: the unique allocations that sum to `requiredSum`, each within its
 * bounds and either `fairProp x target` or the bound that proportion crosses. Throws upstream's
 * messages when the bounds make that impossible.
 */
export function computeConcurrencyAllocation(requiredSum: number, classes: readonly AllocProblemItem[]): ConcurrencyAllocation {
  if (requiredSum < 0) throw new Error("negative sums are not supported");
  let lowSum = 0;
  let highSum = 0;
  let targetSum = 0;
  let lbMin = Number.MAX_VALUE;
  let lbMax = 0;
  let ubMin = Number.MAX_VALUE;
  let ubMax = 0;
  const relative = classes.map((item, idx) => {
    if (item.lowerBound < 0) throw new Error(`lower bound ${idx} is ${item.lowerBound} but negative lower bounds are not allowed`);
    if (item.target < item.lowerBound)
      throw new Error(`target ${idx} is ${item.target}, which is below its lower bound of ${item.lowerBound}`);
    if (item.upperBound < item.lowerBound)
      throw new Error(`upper bound ${idx} is ${item.upperBound} but should not be less than the lower bound ${item.lowerBound}`);
    const target = Math.max(item.target, minTarget);
    lowSum += item.lowerBound;
    highSum += item.upperBound;
    targetSum += target;
    const r = { target, lower: item.lowerBound / target, upper: item.upperBound / target };
    lbMin = Math.min(lbMin, r.lower);
    lbMax = Math.max(lbMax, r.lower);
    ubMin = Math.min(ubMin, r.upper);
    ubMax = Math.max(ubMax, r.upper);
    return r;
  });
  if (lbMax > 1) throw new Error(`lbRange.max-1=${lbMax - 1}, which is impossible because lbRange.max can not be greater than 1`);
  if (lowSum - requiredSum > epsilon)
    throw new Error(`lower bounds sum to ${lowSum}, which is higher than the required sum of ${requiredSum}`);
  if (requiredSum - highSum > epsilon)
    throw new Error(`upper bounds sum to ${highSum}, which is lower than the required sum of ${requiredSum}`);
  if (requiredSum === 0) return { allocs: classes.map(() => 0), fairProp: 0 };
  // No wiggle room: everybody at a bound.
  if (lowSum - requiredSum > -epsilon) return { allocs: classes.map((c) => c.lowerBound), fairProp: lbMin };
  if (requiredSum - highSum > -epsilon) return { allocs: classes.map((c) => c.upperBound), fairProp: ubMax };
  let fairProp = requiredSum / targetSum;
  if (lbMax <= fairProp && fairProp <= ubMin) return { allocs: relative.map((r) => r.target * fairProp), fairProp };
  fairProp = boundedFairProp(requiredSum, lowSum, lbMin, relative);
  return {
    allocs: classes.map((c, idx) => Math.max(c.lowerBound, Math.min(c.upperBound, fairProp * relative[idx]!.target))),
    fairProp,
  };
}

interface RelativeItem {
  target: number;
  lower: number;
  upper: number;
}

/**
 * Some bounds matter: walk the bounds on the proportion in increasing order from the smallest lower
 * bound, tracking which items move with it, until the allocations reach `requiredSum`.
 */
function boundedFairProp(requiredSum: number, lowSum: number, lbMin: number, items: readonly RelativeItem[]): number {
  // Each bound as [proportion, item, isLower], ascending (relativeAllocProblem).
  const bounds = items.flatMap((it, i) => [[it.lower, i, true] as const, [it.upper, i, false] as const]).sort((a, b) => a[0] - b[0]);
  let sumSoFar = lowSum;
  let fairProp = lbMin;
  let sensitiveTargetSum = 0;
  let deltaSensitiveTargetSum = 0;
  let numSensitive = 0;
  let deltaSensitive = 0;
  let next = 0;
  while (sumSoFar < requiredSum) {
    // Take in every bound equal to fairProp; nextBound is the first one above it.
    let nextBound = 0;
    for (;;) {
      sensitiveTargetSum += deltaSensitiveTargetSum;
      numSensitive += deltaSensitive;
      const b = bounds[next];
      if (b === undefined) throw new Error("impossible: ran out of bounds to consider in bound-constrained problem");
      const [bound, itemIdx, lower] = b;
      nextBound = bound;
      deltaSensitive = lower ? 1 : -1;
      deltaSensitiveTargetSum = lower ? items[itemIdx]!.target : -items[itemIdx]!.target;
      next++;
      if (nextBound > fairProp) break;
    }
    if (numSensitive === 0) {
      fairProp = nextBound;
      continue;
    }
    const nextProp = fairProp + (requiredSum - sumSoFar) / sensitiveTargetSum;
    if (nextProp <= nextBound) return nextProp;
    sumSoFar += (nextBound - fairProp) * sensitiveTargetSum;
    fairProp = nextBound;
  }
  return fairProp;
}
