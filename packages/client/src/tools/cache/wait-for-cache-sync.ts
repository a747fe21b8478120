/** `cache.WaitForCacheSync` / `WaitForNamedCacheSync` (tools/cache/shared_informer.go). */
import type { Informer } from "./shared-informer.ts";

/** Resolves true once every informer has synced, false if `signal` aborts first. */
export async function waitForCacheSync(signal: AbortSignal, informers: readonly Informer<unknown>[], pollMs = 10): Promise<boolean> {
  while (!signal.aborted) {
    if (informers.every((i) => i.hasSynced())) return true;
    await new Promise<void>((resolve) => {
      const onAbort = () => (clearTimeout(t), resolve());
      // The listener goes with its timer, or every poll would leave one behind on the signal.
      const t = setTimeout(() => (signal.removeEventListener("abort", onAbort), resolve()), pollMs);
      signal.addEventListener("abort", onAbort, { once: true });
    });
  }
  return false;
}
