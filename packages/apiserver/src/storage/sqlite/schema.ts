/**
 * The kine schema (k3s-io/kine pkg/drivers/sqlite): one append-only revision log, `id` being the
 * revision. We keep only the indexes our queries use: every INSERT maintains each index, and kine#596
 * found redundant ones to cost write throughput. `kine_meta` holds the compact revision (kine keeps it
 * in a `compact_rev_key` row).
 *
 * kine's `kine_name_index (name)` is not kept (and dropped from databases made before): it is a prefix
 * of the unique (name, prev_revision) index, which serves every name lookup as well (EXPLAIN QUERY
 * PLAN, see sqlite-engine.test.ts), and maintaining it cost 4-10 us of each INSERT's ~20-40 us
 * (sequential vs scattered names). A process of an older version on the same file re-creates it
 * on open; both versions work with or without it.
 */
import type Database from "better-sqlite3";

export const schemaSql = `
CREATE TABLE IF NOT EXISTS kine (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  created INTEGER NOT NULL,
  deleted INTEGER NOT NULL,
  create_revision INTEGER NOT NULL,
  prev_revision INTEGER NOT NULL,
  lease INTEGER NOT NULL DEFAULT 0,
  value TEXT,
  old_value TEXT
);
CREATE INDEX IF NOT EXISTS kine_prev_revision_index ON kine (prev_revision);
CREATE UNIQUE INDEX IF NOT EXISTS kine_name_prev_revision_uindex ON kine (name, prev_revision);
CREATE TABLE IF NOT EXISTS kine_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
DROP INDEX IF EXISTS kine_name_index;
`;

/**
 * WAL + synchronous=NORMAL: a commit is in the WAL file (the OS page cache) before it returns, so a
 * killed process loses nothing acknowledged; only an OS crash or power loss can lose the last
 * commits (not corrupt the file). synchronous=FULL would fsync every commit instead.
 */
/**
 * `wal_autocheckpoint` (pages of 4 KiB) when the engine's worker thread does the checkpoints
 * (checkpointer.ts): SQLite's own, on the writer's thread, only if the WAL reaches 256 MB anyway.
 */
export const backstopCheckpointPages = 65536;

/** How long a statement waits for a lock held by another connection before SQLITE_BUSY. */
export const busyTimeoutMs = 30_000;

export function openPragmas(db: Database.Database): void {
  // First: switching to WAL takes a lock, and a second process opening the file at the same time
  // (`--workers`) must wait for it, not fail with "database is locked".
  db.pragma(`busy_timeout = ${busyTimeoutMs}`);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  // Checkpoint every ~40 MB of WAL instead of 4 MB: each checkpoint fsyncs, and at thousands of
  // commits per second the default made every few hundredth write wait for a disk flush
  // (measured here: p99 create latency 0.95 ms -> 0.24 ms, c=1 throughput +25%).
  db.pragma("wal_autocheckpoint = 10000");
  db.pragma("foreign_keys = OFF");
  db.exec(schemaSql);
}

/** One row of the log as the queries read it (queries.ts: old_value only through prev_value). */
export interface LogRow {
  id: number;
  name: string;
  created: number;
  deleted: number;
  create_revision: number;
  prev_revision: number;
  value: string | null;
}

/** A row of the log poller's queries: with the previous value of the key. */
export interface LogRowWithPrev extends LogRow {
  prev_value: string | null;
}
