/**
 * client-go util/retry (staging/src/k8s.io/client-go/util/retry/util.go): RetryOnConflict runs an
 * update until it does not fail with a 409 Conflict, waiting by a wait.Backoff between attempts.
 */
import { isConflict } from "../../errors/index.ts";

/** wait.Backoff: `steps` attempts, the first wait `durationMs`, each later one times `factor`, plus up to `jitter` of it at random. */
export interface Backoff {
  steps: number;
  durationMs: number;
  factor?: number;
  jitter?: number;
}

/** DefaultRetry: 5 steps of 10 ms, factor 1, jitter 0.1. */
export const defaultRetry: Backoff = { steps: 5, durationMs: 10, factor: 1, jitter: 0.1 };

/** OnError: `fn` again while `retriable(err)`, at most `backoff.steps` times; the last error is thrown. */
export async function onError(
  backoff: Backoff,
  retriable: (err: unknown) => boolean,
  fn: () => Promise<void>,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
): Promise<void> {
  let wait = backoff.durationMs;
  for (let step = 1; ; step++) {
    try {
      return await fn();
    } catch (err) {
      if (!retriable(err) || step >= backoff.steps) throw err;
    }
    await sleep(wait + (backoff.jitter ? Math.random() * backoff.jitter * wait : 0));
    wait *= backoff.factor ?? 1;
  }
}

/** RetryOnConflict: OnError for 409 Conflicts. */
export function retryOnConflict(backoff: Backoff, fn: () => Promise<void>, sleep?: (ms: number) => Promise<void>): Promise<void> {
  return onError(backoff, isConflict, fn, sleep);
}
