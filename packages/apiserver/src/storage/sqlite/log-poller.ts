/**
 * Turns the kine log into watch events (kine's sqllog poll loop): `SELECT ... WHERE id > last`,
 * run right after a local write and on a timer for other processes' writes. All of it is
 * synchronous, so a new subscriber's replay and its switch to live events cannot miss a row.
 */
import type Database from "better-sqlite3";
import type { KVEvent, KVWatchHandlers } from "../kv.ts";
import { fanOut, type RangeSubscriber } from "../kv-fan-out.ts";
import { sql } from "./queries.ts";
import type { LogRow } from "./schema.ts";

const batchSize = 500;

type Subscriber = RangeSubscriber;

/** The event a log row stands for. */
export function rowToEvent(r: LogRow): KVEvent {
  const createRevision = r.created ? r.id : r.create_revision;
  const prev = r.old_value === null ? null : { key: r.name, value: r.old_value, modRevision: r.prev_revision, createRevision };
  if (r.deleted) return { type: "delete", kv: { key: r.name, value: "", modRevision: r.id, createRevision }, prev };
  return { type: "put", kv: { key: r.name, value: r.value ?? "", modRevision: r.id, createRevision }, prev };
}

export class LogPoller {
  private readonly subs = new Set<Subscriber>();
  private last: number;
  private timer: NodeJS.Timeout | null = null;
  private wakeScheduled = false;
  private closed = false;
  private readonly after;
  private readonly replay;
  private readonly intervalMs: number;
  private readonly revisionNow: () => number;

  constructor(db: Database.Database, intervalMs: number, revisionNow: () => number) {
    this.intervalMs = intervalMs;
    this.revisionNow = revisionNow;
    this.after = db.prepare<[number, number], LogRow>(sql.after);
    this.replay = db.prepare<[number, number, string, string], LogRow>(sql.replay);
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

  /** Schedules a poll soon (after a local commit); several writes in one tick share one poll. */
  wake(): void {
    if (this.subs.size === 0 || this.wakeScheduled) return;
    this.wakeScheduled = true;
    setImmediate(() => {
      this.wakeScheduled = false;
      this.poll();
    });
  }

  /** Reads every new row and fans it out. */
  poll(): void {
    if (this.closed) return;
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
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.subs.clear();
  }
}
