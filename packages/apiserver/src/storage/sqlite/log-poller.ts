/**
 * Turns the kine log into watch events (kine's sqllog poll loop): `SELECT ... WHERE id > last`,
 * run on a timer for other processes' writes. This process's own commits are handed over as events
 * (`committed`) and delivered without reading their rows back; only rows of other processes that
 * come before them are read (the gap), so the order stays the log's. All of it is synchronous, so
 * a new subscriber's replay and its switch to live events cannot miss a row.
 */
import type Database from "better-sqlite3";
import type { KVEvent, KVWatchHandlers } from "../kv.ts";
import { fanOut, type RangeSubscriber } from "../kv-fan-out.ts";
import { sql } from "./queries.ts";
import type { LogRowWithPrev } from "./schema.ts";

const batchSize = 500;

type Subscriber = RangeSubscriber;

/** The event a log row stands for. */
export function rowToEvent(r: LogRowWithPrev): KVEvent {
  const createRevision = r.created ? r.id : r.create_revision;
  const prev = r.prev_value === null ? null : { key: r.name, value: r.prev_value, modRevision: r.prev_revision, createRevision };
  if (r.deleted) return { type: "delete", kv: { key: r.name, value: "", modRevision: r.id, createRevision }, prev };
  return { type: "put", kv: { key: r.name, value: r.value ?? "", modRevision: r.id, createRevision }, prev };
}

export class LogPoller {
  private readonly subs = new Set<Subscriber>();
  private last: number;
  private timer: NodeJS.Timeout | null = null;
  private wakeScheduled = false;
  /** Events of local commits not yet delivered, in revision order (each batch's ids are consecutive). */
  private own: KVEvent[] = [];
  private closed = false;
  private readonly after;
  private readonly replay;
  private readonly intervalMs: number;
  private readonly revisionNow: () => number;

  constructor(db: Database.Database, intervalMs: number, revisionNow: () => number) {
    this.intervalMs = intervalMs;
    this.revisionNow = revisionNow;
    this.after = db.prepare<[number, number], LogRowWithPrev>(sql.after);
    this.replay = db.prepare<[number, number, string, string], LogRowWithPrev>(sql.replay);
    this.last = revisionNow();
  }

  /** Replays rows >= from, then follows the log. */
  subscribe(start: string, end: string, from: number, handlers: KVWatchHandlers): () => void {
    this.poll();
    const past = this.replay.all(from, this.last, start, end).map(rowToEvent);
    const sub: Subscriber = { start, end, from, handlers };
    this.subs.add(sub);
    if (past.length > 0) handlers.onEvents(past);
    handlers.onProgress?.(this.last);
    this.timer ??= setInterval(() => this.poll(), this.intervalMs);
    this.timer.unref?.();
    return () => {
      this.subs.delete(sub);
      if (this.subs.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = null;
      }
    };
  }

  /** True while someone watches: only then are local commits worth turning into events. */
  listening(): boolean {
    return this.subs.size > 0;
  }

  /** A local commit's events (what rowToEvent makes of its rows), delivered in the next poll. */
  committed(events: readonly KVEvent[]): void {
    for (const e of events) this.own.push(e);
    this.schedule(false);
  }

  /** Schedules a full poll soon (after a local commit); several writes in one tick share one poll. */
  wake(): void {
    this.schedule(true);
  }

  private fullPollScheduled = false;

  private schedule(full: boolean): void {
    if (this.subs.size === 0) return;
    if (full) this.fullPollScheduled = true;
    if (this.wakeScheduled) return;
    this.wakeScheduled = true;
    setImmediate(() => {
      this.wakeScheduled = false;
      const fullPoll = this.fullPollScheduled;
      this.fullPollScheduled = false;
      if (fullPoll) this.poll();
      else this.deliverOwn();
    });
  }

  /** Delivers the queued local events, first reading any rows of other processes before them. */
  private deliverOwn(): void {
    if (this.closed) return;
    const own = this.own;
    this.own = [];
    let i = 0;
    while (i < own.length) {
      const first = own[i]!.kv.modRevision;
      if (first <= this.last) {
        i++; // already read from the table by a full poll
        continue;
      }
      if (first > this.last + 1) this.readUpTo(first - 1);
      let j = i;
      while (j < own.length && own[j]!.kv.modRevision === this.last + 1 + (j - i)) j++;
      fanOut(own.slice(i, j), this.subs);
      this.last = own[j - 1]!.kv.modRevision;
      i = j;
    }
    for (const sub of this.subs) sub.handlers.onProgress?.(this.last);
  }

  /** Reads and fans out the rows in (last, upTo]; the cursor ends at upTo even if rows are missing (compacted). */
  private readUpTo(upTo: number): void {
    while (this.last < upTo) {
      const rows = this.after.all(this.last, Math.min(batchSize, upTo - this.last)).filter((r) => r.id <= upTo);
      if (rows.length === 0) break;
      this.last = rows[rows.length - 1]!.id;
      fanOut(rows.map(rowToEvent), this.subs);
    }
    this.last = Math.max(this.last, upTo);
  }

  /** Reads every new row and fans it out. */
  poll(): void {
    if (this.closed) return;
    // Queued local events first (the table read below then starts after them).
    if (this.own.length > 0 && this.subs.size > 0) this.deliverOwn();
    this.own = [];
    if (this.subs.size === 0) {
      // Nobody listens: just move the cursor (new subscribers replay from the table).
      this.last = Math.max(this.last, this.revisionNow());
      return;
    }
    for (;;) {
      const rows = this.after.all(this.last, batchSize);
      if (rows.length === 0) break;
      this.last = rows[rows.length - 1]!.id;
      fanOut(rows.map(rowToEvent), this.subs);
      if (rows.length < batchSize) break;
    }
    for (const sub of this.subs) sub.handlers.onProgress?.(this.last);
  }

  close(): void {
    this.closed = true;
    this.own = [];
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.subs.clear();
  }
}
