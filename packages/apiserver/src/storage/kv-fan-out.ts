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

/** Calls `onEvents` of every subscriber with its events of `events` (in order), if it has any. */
export function fanOut(events: readonly KVEvent[], subs: ReadonlySet<RangeSubscriber>): void {
  const counts = new Array<number>(events.length).fill(0);
  const deliveries: { sub: RangeSubscriber; picks: number[] }[] = [];
  for (const sub of subs) {
    const picks: number[] = [];
    events.forEach((e, i) => {
      if (e.kv.modRevision >= sub.from && e.kv.key >= sub.start && e.kv.key < sub.end) {
        picks.push(i);
        counts[i]!++;
      }
    });
    if (picks.length > 0) deliveries.push({ sub, picks });
  }
  // Marked copies, so that events an engine keeps (memory's log, for replays) stay unmarked.
  const marked = events.map((e, i) => (counts[i]! > 1 ? { ...e, receivers: counts[i]! } : e));
  for (const { sub, picks } of deliveries) {
    // A handler may end another subscription while we deliver; it must get nothing more.
    if (subs.has(sub)) sub.handlers.onEvents(picks.map((i) => marked[i]!));
  }
}
