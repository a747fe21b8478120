/**
 * The one polling helper of servicenet's tests (upstream: `wait.PollUntilContextTimeout` in
 * `k8s.io/apimachinery/pkg/util/wait`, as the integration tests use it).
 */

export interface EventuallyOptions {
  /** Give up after this long (default 60 s: a ceiling for a loaded machine, reached only by a failing test). */
  timeoutMs?: number;
  /** Wait this long between probes (default 50 ms). */
  intervalMs?: number;
  /** Names the condition in the timeout error. */
  what?: string;
}

/**
 * Calls `probe` until it returns something other than `undefined` or `false` and resolves with
 * that value. A probe that throws counts as "not yet". After `timeoutMs` it rejects, naming
 * `what` and the probe's last error, so a test fails with the reason instead of a bare `false`.
 */
export async function eventually<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  opts: EventuallyOptions = {},
): Promise<T> {
  const { timeoutMs = 60_000, intervalMs = 50, what = "condition" } = opts;
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined && v !== false) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline)
      throw new Error(
        `${what} not met in ${timeoutMs} ms${last === undefined ? "" : `: ${last instanceof Error ? String(last) : JSON.stringify(last)}`}`,
      );
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
