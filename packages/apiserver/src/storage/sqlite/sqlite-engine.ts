/**
 * The embedded, durable engine: better-sqlite3 over a kine-style revision log (see schema.ts).
 * Writes are `BEGIN IMMEDIATE` transactions (one writer at a time, also across processes); the
 * revision is the AUTOINCREMENT id, so ids are assigned in commit order without gaps. Watches are
 * fed by polling the log (`id > last`), woken at once by local writes and every `pollIntervalMs`
 * for writes of other processes on the same file, as kine does.
 */
import Database from "better-sqlite3";
import { resolve } from "node:path";
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
import { backstopCheckpointPages, busyTimeoutMs, openPragmas, type LogRow } from "./schema.ts";
import { Checkpointer, type CheckpointerOptions } from "./checkpointer.ts";
import { WriteLock } from "./write-lock.ts";
import { LogPoller } from "./log-poller.ts";
import { compactLog } from "./compact.ts";
import { sql } from "./queries.ts";
import { decodedCopy } from "../codec.ts";
import { checkRequestSize } from "../request-size.ts";

export interface SqliteEngineConfig {
  path: string;
  pollIntervalMs: number;
  /** Overrides of the WAL checkpointer's settings (tests); false leaves checkpoints to SQLite. */
  checkpointer?: Partial<CheckpointerOptions> | false;
}

/** The checkpointer's defaults: checkpoint at 16 MB of WAL, looked at every 100 ms, from the 200th commit. */
const checkpointerDefaults = { thresholdBytes: 16 << 20, pollMs: 100, startAfterCommits: 200, busyTimeoutMs: 200 };

/** Opens (creating if needed) the database at `cfg.path`. */
export function createSqliteEngine(cfg: SqliteEngineConfig): KVEngine {
  const db = new Database(cfg.path);
  openPragmas(db);
  let checkpointer: Checkpointer | null = null;
  // A database in memory has no WAL file (journal_mode stays "memory").
  if (cfg.checkpointer !== false && !db.memory && db.pragma("journal_mode", { simple: true }) === "wal") {
    // Absolute: the worker opens the file by name, and the process may change directory meanwhile.
    checkpointer = new Checkpointer({ ...checkpointerDefaults, ...cfg.checkpointer, path: resolve(db.name) });
    // SQLite's own checkpoint stays as the backstop, far above the worker's threshold.
    db.pragma(`wal_autocheckpoint = ${backstopCheckpointPages}`);
  }
  return new SqliteEngine(db, cfg.pollIntervalMs, checkpointer);
}

const maxId = Number.MAX_SAFE_INTEGER;

interface RangeParams {
  start: string;
  end: string;
  rev: number;
}

interface PendingTxn {
  compares: readonly KVCompare[];
  writes: readonly KVWrite[];
  resolve(r: KVTxnResult): void;
  reject(e: unknown): void;
}

/** The live key, or null, from its newest log row. */
function live(row: LogRow | undefined): RawKV | null {
  if (!row || row.deleted) return null;
  return { key: row.name, value: row.value ?? "", modRevision: row.id, createRevision: row.created ? row.id : row.create_revision };
}

class SqliteEngine implements KVEngine {
  readonly backend = "sqlite" as const;
  private readonly db: Database.Database;
  private readonly poller: LogPoller;
  private readonly stmt;
  private readonly txnFn: (batch: readonly PendingTxn[], events: KVEvent[] | null) => KVTxnResult[];
  private readonly writeLock: WriteLock;
  /** Transactions submitted in this turn of the event loop; committed together (group commit). */
  private pending: PendingTxn[] = [];

  private readonly checkpointer: Checkpointer | null;

  constructor(db: Database.Database, pollIntervalMs: number, checkpointer: Checkpointer | null) {
    this.db = db;
    this.checkpointer = checkpointer;
    this.stmt = {
      latest: db.prepare<[string], LogRow>(sql.latest),
      insert: db.prepare(sql.insert),
      range: db.prepare<[RangeParams & { limit: number }], LogRow>(sql.range),
      count: db.prepare<[RangeParams], { n: number }>(sql.count),
      current: db.prepare<[], { seq: number }>(sql.current),
      compacted: db.prepare<[], { value: number }>(sql.compacted),
    };
    // eslint-disable-next-line @typescript-eslint/unbound-method -- better-sqlite3 builds .immediate as a closure over the transaction; it needs no `this`
    this.txnFn = db.transaction((batch: readonly PendingTxn[], events: KVEvent[] | null) =>
      batch.map((t) => this.applyTxn(t.compares, t.writes, events)),
    ).immediate;
    this.writeLock = new WriteLock(db, busyTimeoutMs);
    this.poller = new LogPoller(db, pollIntervalMs, () => this.revisionNow());
  }

  async get(key: string): Promise<RawKV | null> {
    return live(this.stmt.latest.get(key));
  }

  async range(start: string, end: string, opts: { revision?: number; limit?: number }): Promise<KVRangeResult> {
    const rev = opts.revision ?? 0;
    // One read transaction, so the revision and the rows agree even with another process writing.
    return this.db
      .transaction(() => {
        this.checkNotCompacted(rev);
        const at = rev > 0 ? rev : this.revisionNow();
        const limit = opts.limit ?? 0;
        const rows = this.stmt.range.all({ start, end, rev: at, limit: limit > 0 ? limit + 1 : -1 });
        const more = limit > 0 && rows.length > limit;
        const kvs = (more ? rows.slice(0, limit) : rows).map((r) => live(r)!);
        return { kvs, revision: at, more };
      })
      .deferred();
  }

  async count(start: string, end: string, revision?: number): Promise<number> {
    this.checkNotCompacted(revision ?? 0);
    return this.stmt.count.get({ start, end, rev: revision && revision > 0 ? revision : maxId })?.n ?? 0;
  }

  /**
   * Queues the transaction and commits everything queued in this event-loop turn as one SQLite
   * transaction. Each queued transaction still sees the writes of those before it, so the result
   * is the same as running them one by one; callers are answered only after the COMMIT.
   */
  txn(compares: readonly KVCompare[], writes: readonly KVWrite[]): Promise<KVTxnResult> {
    const tooLarge = checkRequestSize(compares, writes);
    if (tooLarge) return Promise.reject(tooLarge);
    return new Promise((resolve, reject) => {
      this.pending.push({ compares, writes, resolve, reject });
      if (this.pending.length === 1) setImmediate(() => this.flush());
    });
  }

  /** Commits the queued batch; while another process holds the write lock, retries from the event loop (write-lock.ts). */
  private flush(blocking = false): void {
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    let results: KVTxnResult[];
    // The batch's own log rows as watch events, so the poller need not read them back (log-poller.ts).
    let events: KVEvent[] | null = null;
    try {
      if (blocking) results = this.txnFn(batch, null);
      else {
        const r = this.writeLock.tryWrite(() => this.txnFn(batch, (events = this.poller.listening() ? [] : null)));
        if (r.busy) {
          // Those queued meanwhile go after it, in submission order, in the same retried batch.
          this.pending = batch.concat(this.pending);
          this.writeLock.scheduleRetry(() => this.flush());
          return;
        }
        results = r.value;
      }
    } catch (e) {
      for (const t of batch) t.reject(e);
      return;
    }
    this.checkpointer?.committed();
    if (events) this.poller.committed(events);
    else this.poller.wake();
    batch.forEach((t, i) => t.resolve(results[i]!));
  }

  /** Runs inside BEGIN IMMEDIATE: nobody else can write between the compares and the inserts. */
  private applyTxn(compares: readonly KVCompare[], writes: readonly KVWrite[], events: KVEvent[] | null): KVTxnResult {
    // The compared keys' newest rows, reused by their writes (a create or update compares and writes
    // the same key): nothing else writes in between, and each write drops its key's entry.
    const newest = new Map<string, LogRow | undefined>();
    const current = compares.map((c) => {
      const row = this.stmt.latest.get(c.key);
      newest.set(c.key, row);
      return live(row);
    });
    if (compares.some((c, i) => (current[i]?.modRevision ?? 0) !== c.modRevision)) return { succeeded: false, revisions: [], current };
    const revisions: number[] = [];
    for (const w of writes) {
      const last = newest.has(w.key) ? newest.get(w.key) : this.stmt.latest.get(w.key);
      newest.delete(w.key);
      const prev = live(last);
      const prevId = last?.id ?? 0;
      if (w.type === "put") {
        // old_value stays NULL: readers take it from the prev_revision row (queries.ts prevValue).
        const r = this.stmt.insert.run(w.key, prev ? 0 : 1, 0, prev?.createRevision ?? 0, prevId, w.value, null);
        const id = Number(r.lastInsertRowid);
        revisions.push(id);
        // The writer's decoded value, copied now (it is theirs again once the txn resolves): the
        // watchers of this process then need no JSON.parse of it (codec.ts decodeKV).
        const decoded = events && w.decoded !== undefined ? decodedCopy(w.decoded) : undefined;
        // Exactly what rowToEvent makes of the row just inserted (plus that copy).
        events?.push({
          type: "put",
          kv: {
            key: w.key,
            value: w.value,
            modRevision: id,
            createRevision: prev ? prev.createRevision : id,
            ...(decoded !== undefined ? { decoded } : {}),
          },
          prev: prev ? { ...prev, modRevision: prevId } : null,
        });
      } else if (prev) {
        const r = this.stmt.insert.run(w.key, 0, 1, prev.createRevision, prevId, prev.value, null);
        const id = Number(r.lastInsertRowid);
        revisions.push(id);
        events?.push({
          type: "delete",
          kv: { key: w.key, value: "", modRevision: id, createRevision: prev.createRevision },
          prev: { ...prev, modRevision: prevId },
        });
      }
    }
    return { succeeded: true, revisions, current: [] };
  }

  watch(start: string, end: string, fromRevision: number, handlers: KVWatchHandlers): () => void {
    const compacted = this.compactedNow();
    if (fromRevision <= compacted && fromRevision > 0) {
      handlers.onError(new CompactedError(compacted), true);
      return () => {};
    }
    return this.poller.subscribe(start, end, fromRevision, handlers);
  }

  async currentRevision(): Promise<number> {
    return this.revisionNow();
  }

  async compactedRevision(): Promise<number> {
    return this.compactedNow();
  }

  async compact(revision: number): Promise<void> {
    const target = Math.min(revision, this.revisionNow());
    await compactLog(this.db, target, () => this.compactedNow());
  }

  async close(): Promise<void> {
    this.flush(true);
    this.poller.close();
    await this.checkpointer?.close();
    this.db.close();
  }

  private revisionNow(): number {
    return this.stmt.current.get()?.seq ?? 0;
  }

  private compactedNow(): number {
    return this.stmt.compacted.get()?.value ?? 0;
  }

  private checkNotCompacted(rev: number): void {
    if (rev <= 0) return;
    const compacted = this.compactedNow();
    if (rev < compacted) throw new CompactedError(compacted);
  }
}
