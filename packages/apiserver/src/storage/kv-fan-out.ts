/**
 * Delivery of one batch of engine events to the watch subscriptions whose ranges they fall in,
 * shared by the engines that fan out themselves (memory, sqlite's log poller). An event going to
 * several subscribers is delivered as one object marked with its receiver count, so the watch side
 * parses its JSON once instead of once per subscriber (kv-watch.ts `decodeShared`).
 */
import type { KVEvent, KVWatchHandlers } from "./kv.ts";

/** A watch of keys in [start, end) from revision `from` on. */
export interface RangeSubscriber {
  start: string;
  end: string;
  from: number;
  handlers: KVWatchHandlers;
}

/**
 * Calls `onEvents` of every subscriber with its events of `events` (in order), if it has any.
 * Subscribers of the same range that started before every event in the batch (with 500 watchers
 * of one collection, all of them) get one shared, read-only array, picked once for the range.
 */
export function fanOut(events: readonly KVEvent[], subs: ReadonlySet<RangeSubscriber>): void {
  if (events.length === 0 || subs.size === 0) return;
  let oldest = Infinity;
  for (const e of events) oldest = Math.min(oldest, e.kv.modRevision);
  const counts = new Array<number>(events.length).fill(0);
  // By start, then end: no key string is built per subscriber (their range strings hash once).
  const byRange = new Map<string, Map<string, Group>>();
  const deliveries: { sub: RangeSubscriber; group: Group }[] = [];
  for (const sub of subs) {
    // A subscriber that started inside the batch skips the events before its start: picked alone.
    const shared = sub.from <= oldest;
    let ends = shared ? byRange.get(sub.start) : undefined;
    let group = ends?.get(sub.end);
    if (group === undefined) {
      group = { picks: pick(events, sub, shared ? 0 : sub.from), batch: null };
      if (shared) {
        if (ends === undefined) byRange.set(sub.start, (ends = new Map()));
        ends.set(sub.end, group);
      }
    }
    for (const i of group.picks) counts[i]!++;
    if (group.picks.length > 0) deliveries.push({ sub, group });
  }
  // Marked copies, so that events an engine keeps (memory's log, for replays) stay unmarked.
  const marked = events.map((e, i) => (counts[i]! > 1 ? { ...e, receivers: counts[i]! } : e));
  for (const { sub, group } of deliveries) {
    // A handler may end another subscription while we deliver; it must get nothing more.
    if (subs.has(sub)) sub.handlers.onEvents((group.batch ??= group.picks.map((i) => marked[i]!)));
  }
}

/** The events of one range (their indexes in the batch), and the array its subscribers share. */
interface Group {
  picks: number[];
  batch: KVEvent[] | null;
}

/** Indexes of the events in the subscriber's key range, from revision `from` on. */
function pick(events: readonly KVEvent[], sub: RangeSubscriber, from: number): number[] {
  const picks: number[] = [];
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    if (e.kv.modRevision >= from && e.kv.key >= sub.start && e.kv.key < sub.end) picks.push(i);
  }
  return picks;
}
