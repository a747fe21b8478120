/**
 * The open watches per resource (staging/src/k8s.io/apiserver/pkg/util/flowcontrol/watch_tracker.go):
 * a write's work estimate counts the watchers its event goes to.
 */
import { groupResourceKey } from "./request/list-work-estimator.ts";

/** WatchTracker: RegisterWatch and the count of a resource's watchers. */
export class WatchTracker {
  readonly #counts = new Map<string, number>();

  /** RegisterWatch: counts a watch of `resource` in `apiGroup`; the returned function forgets it (once). */
  registerWatch(apiGroup: string, resource: string): () => void {
    const key = groupResourceKey(apiGroup, resource);
    this.#counts.set(key, (this.#counts.get(key) ?? 0) + 1);
    let forgotten = false;
    return () => {
      if (forgotten) return;
      forgotten = true;
      const n = (this.#counts.get(key) ?? 1) - 1;
      if (n === 0) this.#counts.delete(key);
      else this.#counts.set(key, n);
    };
  }

  /** The watchers of a resource (`resource` or `resource.group`). */
  watchCount(groupResource: string): number {
    return this.#counts.get(groupResource) ?? 0;
  }
}
