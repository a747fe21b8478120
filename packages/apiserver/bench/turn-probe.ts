/**
 * What a piece of async work costs the event loop: its CPU ms and its longest turn, measured by a
 * setImmediate probe that runs between the work's turns (a turn the work holds delays the probe).
 */

/** CPU ms and longest turn (ms) of one run of some work. */
export interface TurnFigures {
  cpuMs: number;
  maxTurnMs: number;
}

/** Runs `work` and measures it. */
export async function measureTurns(work: () => unknown): Promise<TurnFigures> {
  let last = performance.now();
  let maxTurn = 0;
  let done = false;
  const probe = (): void => {
    const now = performance.now();
    maxTurn = Math.max(maxTurn, now - last);
    last = now;
    if (!done) setImmediate(probe);
  };
  setImmediate(probe);
  const cpu = process.cpuUsage();
  await work();
  done = true;
  const used = process.cpuUsage(cpu);
  return { cpuMs: (used.user + used.system) / 1000, maxTurnMs: Math.max(maxTurn, performance.now() - last) };
}
