/**
 * Waiting for a resourceVersion not seen yet (upstream cacher's watchCache.waitUntilFreshAndBlock):
 * a read asking for "not older than N" with N past the store's newest revision waits up to 3 s for
 * it (another apiserver, or this one, may be about to write it), and only then fails with the
 * 504 `Too large resource version: N, current: C` (Retry-After 1).
 */
import { tooLargeResourceVersion } from "./errors.ts";
import type { KVEngine } from "./kv.ts";

/** Upstream's blockTimeout. */
export const freshnessBlockTimeoutMs = 3_000;

/**
 * Resolves with the store's newest revision once it is at least `minimum`; rejects with the 504
 * after `timeoutMs`. Upstream waits on its watch cache's condition variable; the engine is polled
 * here, first often, then every 100 ms (a write of another process shows on the next poll).
 */
export async function waitUntilFresh(engine: KVEngine, minimum: number, timeoutMs = freshnessBlockTimeoutMs): Promise<number> {
  let current = await engine.currentRevision();
  if (current >= minimum) return current;
  const deadline = Date.now() + timeoutMs;
  let pause = 5;
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, Math.min(pause, Math.max(deadline - Date.now(), 0))));
    current = await engine.currentRevision();
    if (current >= minimum) return current;
    pause = Math.min(pause * 2, 100);
  }
  throw tooLargeResourceVersion(minimum, current);
}
