/**
 * The stored object count per resource (staging/src/k8s.io/apiserver/pkg/util/flowcontrol/request/
 * object_count_tracker.go), refreshed by polling the storage as the generic store's
 * startObservingCount does every `--etcd-count-metric-poll-period` (1 minute).
 */
import type { Clock, TimerHandle } from "@servicenet/component-base/clock";

/** One resource to count: its tracker key (`resource` or `resource.group`) and how to count it. */
export interface CountedResource {
  groupResource: string;
  count(): Promise<number>;
}

/** ObjectCountTracker: the last counts, and the poller that keeps them. */
export class ObjectCountTracker {
  readonly #counts = new Map<string, number>();
  #timer: TimerHandle | undefined;
  #stopped = false;

  /** Get: the last count, undefined when the resource is not tracked. */
  get(groupResource: string): number | undefined {
    return this.#counts.get(groupResource);
  }

  set(groupResource: string, count: number): void {
    this.#counts.set(groupResource, count);
  }

  /** Counts every resource now and then every `periodMs`; a failed count keeps the previous one. */
  async start(resources: readonly CountedResource[], periodMs: number, clock: Clock): Promise<void> {
    const poll = async (): Promise<void> => {
      await Promise.all(
        resources.map(async (r) => {
          try {
            this.set(r.groupResource, await r.count());
          } catch {
            // The storage is away: the last count stands.
          }
        }),
      );
      if (!this.#stopped) this.#timer = clock.setTimeout(() => void poll(), periodMs);
    };
    await poll();
  }

  stop(clock: Clock): void {
    this.#stopped = true;
    if (this.#timer) clock.clearTimeout(this.#timer);
  }
}
