/**
 * The compaction loop of kube-apiserver (storage/etcd3/compact.go) with kine's minimum retention:
 * every interval, compact to the revision seen one interval earlier, but never into the newest
 * `minRetain` revisions. So watches can resume from anything newer than about one interval.
 */
import type { CompactionConfig, Store } from "./interfaces.ts";

/** Starts the loop; returns a stop function. Errors are reported to `onError` and the loop goes on. */
export function startCompactor(
  store: Pick<Store, "currentRevision" | "compactedRevision" | "compact">,
  cfg: CompactionConfig,
  onError: (e: unknown) => void = () => {},
): () => void {
  if (cfg.intervalMs <= 0) return () => {};
  const minRetain = cfg.minRetain ?? 1000;
  let previous = 0;
  let running = false;
  const tick = async (): Promise<void> => {
    if (running) return;
    running = true;
    try {
      const current = await store.currentRevision();
      const target = Math.min(previous, current - minRetain);
      if (target > (await store.compactedRevision())) await store.compact(target);
      previous = current;
    } catch (e) {
      // kine#414: one failure must not stop compaction for good.
      onError(e);
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void tick(), cfg.intervalMs);
  timer.unref?.();
  return () => clearInterval(timer);
}
