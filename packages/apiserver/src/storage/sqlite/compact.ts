/**
 * kine's SQLite compaction: delete, up to the target revision, every row a later row (also within
 * the target) supersedes, and every delete tombstone; then record the compact revision. Runs in
 * batches of 1000 revisions, each its own IMMEDIATE transaction, so writers are never blocked for
 * long (k3s#11269: "database is locked" during big compactions).
 */
import type Database from "better-sqlite3";
import { sql } from "./queries.ts";

const batch = 1000;

/** Compacts the log of `db` up to `target`. */
export async function compactLog(db: Database.Database, target: number, compactedNow: () => number): Promise<void> {
  const superseded = db.prepare(sql.compactSuperseded);
  const tombstones = db.prepare(sql.compactTombstones);
  const record = db.prepare(sql.recordCompact);
  // eslint-disable-next-line @typescript-eslint/unbound-method -- better-sqlite3 builds .immediate as a closure over the transaction; it needs no `this`
  const step = db.transaction((from: number, to: number) => {
    superseded.run(from, to);
    tombstones.run(from, to);
    record.run(to);
  }).immediate;
  let from = compactedNow();
  while (from < target) {
    const to = Math.min(from + batch, target);
    step(from, to);
    from = to;
    // Let writers and watchers in between batches.
    await new Promise<void>((r) => setImmediate(r));
  }
}
