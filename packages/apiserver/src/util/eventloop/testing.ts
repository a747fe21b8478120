/** Test support for work done in turns of the event loop. */

/** Iterations of the event loop that ran while `p` was pending. */
export async function turnsDuring(p: Promise<unknown>): Promise<number> {
  let turns = 0;
  let done = false;
  const tick = (): void => {
    if (done) return;
    turns++;
    setImmediate(tick);
  };
  setImmediate(tick);
  await p.finally(() => (done = true));
  return turns;
}
