/** One worker draining a work queue (client-go's processNextWorkItem loop), shared by the CRD controllers. */
import type { RateLimitingQueue } from "@servicenet/client/util/workqueue";
import type { Logger } from "@servicenet/component-base/logs";

/**
 * Runs `sync` for each queued key until the queue shuts down; a failed key is retried with the
 * queue's rate limiter and logged as utilruntime.HandleError(fmt.Errorf("%v failed with: %v", key, err))
 * does (klog's `Unhandled Error`).
 */
export async function runWorker(queue: RateLimitingQueue, sync: (key: string) => Promise<void>, logger: Logger): Promise<void> {
  for (;;) {
    const key = await queue.get();
    if (key === undefined) return;
    try {
      await sync(key);
      queue.forget(key);
    } catch (e) {
      logger.error("Unhandled Error", { err: `${key} failed with: ${e instanceof Error ? e.message : String(e)}` });
      queue.addRateLimited(key);
    } finally {
      queue.done(key);
    }
  }
}
