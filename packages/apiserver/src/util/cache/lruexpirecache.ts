/**
 * staging/src/k8s.io/apimachinery/pkg/util/cache/lruexpirecache.go LRUExpireCache: at most
 * `maxSize` entries, each with its own time to live; reading one makes it the most recently used,
 * adding past the size evicts the least recently used, and an expired entry reads as absent.
 */
export class LRUExpireCache<V> {
  readonly #maxSize: number;
  readonly #now: () => number;
  // A Map iterates in insertion order: re-inserting on use keeps the least recently used first.
  readonly #entries = new Map<string, { value: V; expiresAt: number }>();

  constructor(maxSize: number, now: () => number = Date.now) {
    this.#maxSize = maxSize;
    this.#now = now;
  }

  /** Add: `value` under `key` for `ttlMs` (a TTL of 0 or less is already expired). */
  add(key: string, value: V, ttlMs: number): void {
    this.#entries.delete(key);
    this.#entries.set(key, { value, expiresAt: this.#now() + ttlMs });
    if (this.#entries.size > this.#maxSize) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
  }

  /** Get: the value, unless absent or expired (an expired one is dropped). */
  get(key: string): V | undefined {
    const e = this.#entries.get(key);
    if (e === undefined) return undefined;
    this.#entries.delete(key);
    if (this.#now() >= e.expiresAt) return undefined;
    this.#entries.set(key, e);
    return e.value;
  }

  get size(): number {
    return this.#entries.size;
  }
}
