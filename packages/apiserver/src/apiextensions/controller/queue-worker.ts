/** One worker draining a work queue (client-go's processNextWorkItem loop), shared by the CRD controllers. */
import type { RateLimitingQueue } from "@servicenet/client/util/workqueue";

/**
 * Runs `sync` for each queued key until the queue shuts down; a failed key is retried with the
 * queue's rate limiter and reported to `onError`.
 */
export async function runWorker(
  queue: RateLimitingQueue,
  sync: (key: string) => Promise<void>,
  onError: (key: string, e: unknown) => void,
): Promise<void> {
  for (;;) {
    const key = await queue.get();
    if (key === undefined) return;
    try {
      await sync(key);
      queue.forget(key);
    } catch (e) {
      onError(key, e);
      queue.addRateLimited(key);
    } finally {
      queue.done(key);
    }
  }
}
