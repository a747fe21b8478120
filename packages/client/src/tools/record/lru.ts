/**
 * A bounded least-recently-used map (k8s.io/utils/lru): `get` refreshes an entry, `add` evicts
 * the oldest once the cache holds `maxEntries`. The event correlator keeps its three caches in it.
 */
export class LRU<V> {
  readonly #max: number;
  readonly #map = new Map<string, V>();

  constructor(maxEntries: number) {
    this.#max = Math.max(1, maxEntries);
  }

  get(key: string): V | undefined {
    const v = this.#map.get(key);
    if (v === undefined) return undefined;
    this.#map.delete(key);
    this.#map.set(key, v);
    return v;
  }

  add(key: string, value: V): void {
    this.#map.delete(key);
    this.#map.set(key, value);
    if (this.#map.size > this.#max) this.#map.delete(this.#map.keys().next().value as string);
  }

  get size(): number {
    return this.#map.size;
  }
}
