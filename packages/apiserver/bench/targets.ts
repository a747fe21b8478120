/**
 * The performance issue's targets as the benches check them: each bench adds the ones it measures to
 * its results file (`targets`), and `npm run bench` (scripts/bench.mjs) prints them, met or not, in
 * bench/results.md beside the then-and-now table.
 */

/** One target, its figure in this run and whether the figure meets it. */
export interface Target {
  target: string;
  measured: string;
  met: boolean;
}

/** A target that the figure `value` meets when at least `min`. */
export function atLeast(target: string, value: number, min: number, unit = ""): Target {
  return { target, measured: `${round(value)}${unit}`, met: value >= min };
}

/** A target that the figure `value` meets when at most `max`. */
export function atMost(target: string, value: number, max: number, unit = ""): Target {
  return { target, measured: `${round(value)}${unit}`, met: value <= max };
}

/** Prints the targets, one line each. */
export function printTargets(targets: readonly Target[]): void {
  if (targets.length === 0) return;
  console.log("\ntargets of the performance issue (this run):");
  for (const t of targets) console.log(`  ${t.met ? "met    " : "NOT met"}  ${t.target.padEnd(72)} ${t.measured}`);
}

function round(v: number): number {
  return Math.abs(v) >= 100 ? Math.round(v) : Math.round(v * 100) / 100;
}
