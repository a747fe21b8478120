/**
 * `remainingItemCount` of paged lists without counting the rest of the range on every page.
 *
 * A paged list reads every page at the revision its first page pinned (the continue token carries
 * it), and a revision's content never changes. So once page k knows that C keys remain from its
 * resume key, and page k+1 (no predicate) returns L of them, C - L remain from page k+1's resume
 * key: the keys it returned are exactly the live keys between the two resume keys. Upstream asks
 * etcd for the count with every page (etcd3 store.go GetList, `getResp.Count`); etcd counts in its
 * in-memory index, while a COUNT over the SQLite log grows with the collection, so that walking
 * 100,000 Services in pages of 500 counted 100,000 rows per page.
 */
import type { KVEngine } from "./kv.ts";

/** Continuations remembered per engine; an abandoned list's entry is evicted oldest first. */
const maxEntries = 1024;

const byEngine = new WeakMap<KVEngine, Map<string, number>>();

const keyOf = (start: string, end: string, revision: number): string => `${revision}\u0000${end}\u0000${start}`;

/**
 * How many live keys [start, end) holds at `revision`: from the previous page's figure when this
 * page continues one, else counted by the engine.
 */
export async function remainingAt(engine: KVEngine, start: string, end: string, revision: number): Promise<number> {
  const known = byEngine.get(engine)?.get(keyOf(start, end, revision));
  if (known !== undefined) return known;
  return engine.count(start, end, revision);
}

/**
 * Remembers that `count` live keys remain in [start, end) at `revision`, for the page that
 * continues there; `from` is the start of the page that found it. A page's own entry is dropped as the next one is stored: a client that
 * repeats a continue token counts again (correct, only slower).
 */
export function rememberRemaining(engine: KVEngine, from: string, start: string, end: string, revision: number, count: number): void {
  let m = byEngine.get(engine);
  if (m === undefined) byEngine.set(engine, (m = new Map()));
  m.delete(keyOf(from, end, revision));
  m.set(keyOf(start, end, revision), count);
  if (m.size > maxEntries) m.delete(m.keys().next().value!);
}
