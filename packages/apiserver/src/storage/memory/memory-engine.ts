/**
 * In-memory MVCC engine for unit tests: every key keeps its version history (trimmed by compaction),
 * a global event log feeds watches, and everything runs synchronously in one tick so it is fast and
 * deterministic. Not durable, not shared between processes.
 */
import { checkRequestSize } from "../request-size.ts";
import { fanOut, type RangeSubscriber } from "../kv-fan-out.ts";
import {
  CompactedError,
  type KVCompare,
  type KVEngine,
  type KVEvent,
  type KVRangeResult,
  type KVTxnResult,
  type KVWatchHandlers,
  type KVWrite,
  type RawKV,
} from "../kv.ts";

/** One version of a key; `value === null` is a deletion tombstone. */
interface Version {
  modRevision: number;
  createRevision: number;
  value: string | null;
}

type Subscriber = RangeSubscriber;

/** Creates the memory engine. */
export function createMemoryEngine(): KVEngine {
  return new MemoryEngine();
}

class MemoryEngine implements KVEngine {
  readonly backend = "memory" as const;
  private revision = 0;
  private compacted = 0;
  private readonly history = new Map<string, Version[]>();
  /** Keys in sorted order (with tombstoned keys until compaction removes them). */
  private sortedKeys: string[] = [];
  private readonly log: KVEvent[] = [];
  private readonly subscribers = new Set<Subscriber>();

  async get(key: string): Promise<RawKV | null> {
    return this.at(key, 0);
  }

  async range(start: string, end: string, opts: { revision?: number; limit?: number }): Promise<KVRangeResult> {
    const rev = opts.revision ?? 0;
    if (rev > 0 && rev < this.compacted) throw new CompactedError(this.compacted);
    const limit = opts.limit ?? 0;
    const kvs: RawKV[] = [];
    let more = false;
    for (let i = lowerBound(this.sortedKeys, start); i < this.sortedKeys.length; i++) {
      const key = this.sortedKeys[i]!;
      if (key >= end) break;
      const kv = this.at(key, rev);
      if (!kv) continue;
      if (limit > 0 && kvs.length === limit) {
        more = true;
        break;
      }
      kvs.push(kv);
    }
    return { kvs, revision: rev > 0 ? rev : this.revision, more };
  }

  async count(start: string, end: string, revision?: number): Promise<number> {
    return (await this.range(start, end, { revision: revision ?? 0 })).kvs.length;
  }

  async txn(compares: readonly KVCompare[], writes: readonly KVWrite[]): Promise<KVTxnResult> {
    const tooLarge = checkRequestSize(compares, writes);
    if (tooLarge) throw tooLarge;
    const current = compares.map((c) => this.at(c.key, 0));
    if (compares.some((c, i) => (current[i]?.modRevision ?? 0) !== c.modRevision)) {
      return { succeeded: false, revisions: [], current };
    }
    const events: KVEvent[] = [];
    for (const w of writes) {
      const prev = this.at(w.key, 0);
      if (w.type === "delete" && !prev) continue;
      const rev = ++this.revision;
      const createRevision = w.type === "put" ? (prev?.createRevision ?? rev) : 0;
      const value = w.type === "put" ? w.value : null;
      this.versions(w.key).push({ modRevision: rev, createRevision, value });
      const kv: RawKV = {
        key: w.key,
        value: value ?? "",
        modRevision: rev,
        createRevision: createRevision || (prev?.createRevision ?? rev),
      };
      events.push({ type: w.type, kv, prev });
    }
    this.log.push(...events);
    this.publish(events);
    return { succeeded: true, revisions: events.map((e) => e.kv.modRevision), current: [] };
  }

  watch(start: string, end: string, fromRevision: number, handlers: KVWatchHandlers): () => void {
    if (fromRevision < this.compacted) {
      handlers.onError(new CompactedError(this.compacted), true);
      return () => {};
    }
    const past = this.log.filter((e) => e.kv.modRevision >= fromRevision && e.kv.key >= start && e.kv.key < end);
    const sub: Subscriber = { start, end, from: fromRevision, handlers };
    this.subscribers.add(sub);
    // Synchronous replay: nothing can be written between the replay and the subscription.
    if (past.length > 0) handlers.onEvents(past);
    handlers.onProgress?.(this.revision);
    return () => {
      this.subscribers.delete(sub);
    };
  }

  async currentRevision(): Promise<number> {
    return this.revision;
  }

  async compactedRevision(): Promise<number> {
    return this.compacted;
  }

  async compact(revision: number): Promise<void> {
    if (revision <= this.compacted) return;
    const target = Math.min(revision, this.revision);
    for (const [key, versions] of this.history) {
      // Keep the newest version at or below target (it is the state at target) and everything newer.
      let keepFrom = 0;
      for (let i = 0; i < versions.length; i++) if (versions[i]!.modRevision <= target) keepFrom = i;
      const kept = versions.slice(keepFrom);
      if (kept[0] && kept[0].value === null && kept[0].modRevision <= target) kept.shift();
      if (kept.length === 0) this.history.delete(key);
      else this.history.set(key, kept);
    }
    this.sortedKeys = [...this.history.keys()].sort();
    let drop = 0;
    while (drop < this.log.length && this.log[drop]!.kv.modRevision < target) drop++;
    this.log.splice(0, drop);
    this.compacted = target;
  }

  async close(): Promise<void> {
    this.subscribers.clear();
  }

  /** The live value of `key` at `rev` (0 = latest). */
  private at(key: string, rev: number): RawKV | null {
    const versions = this.history.get(key);
    if (!versions) return null;
    for (let i = versions.length - 1; i >= 0; i--) {
      const v = versions[i]!;
      if (rev > 0 && v.modRevision > rev) continue;
      return v.value === null ? null : { key, value: v.value, modRevision: v.modRevision, createRevision: v.createRevision };
    }
    return null;
  }

  private versions(key: string): Version[] {
    let versions = this.history.get(key);
    if (!versions) {
      versions = [];
      this.history.set(key, versions);
      this.sortedKeys.splice(lowerBound(this.sortedKeys, key), 0, key);
    }
    return versions;
  }

  private publish(events: KVEvent[]): void {
    if (events.length === 0) return;
    fanOut(events, this.subscribers);
    for (const sub of this.subscribers) sub.handlers.onProgress?.(this.revision);
  }
}

/** Index of the first element >= value in a sorted array. */
function lowerBound(sorted: readonly string[], value: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
