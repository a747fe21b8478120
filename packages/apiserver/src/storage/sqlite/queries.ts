/**
 * Every SQL statement run on the kine log, in one place so that sqlite-engine.test.ts can check
 * each one's plan (EXPLAIN QUERY PLAN: an index or the rowid, never a table scan or a sort) against
 * the indexes schema.ts creates.
 */

/** Rows live at revision @rev in [@start, @end). */
/** The columns a live key's row is read with: never old_value (see prevValue). */
const rowColumns = "k.id, k.name, k.created, k.deleted, k.create_revision, k.prev_revision, k.value";

/**
 * A log row's previous value (the watch event's prevKV). Rows written since 2026-12 leave
 * old_value NULL (kine stores the previous value twice: in the superseded row and again in
 * old_value); it is the value of the row `prev_revision` names, which compaction keeps for as
 * long as the row itself can be watched (it deletes a row only when a row at or below the
 * compacted revision supersedes it). Older rows still carry old_value. A create's prev_revision
 * may name a tombstone, whose value is not a previous value of the new key.
 */
const prevValue = "CASE WHEN k.created = 1 THEN NULL ELSE COALESCE(k.old_value, p.value) END AS prev_value";

const liveAt =
  "k.name >= @start AND k.name < @end AND k.id <= @rev AND k.deleted = 0 AND NOT EXISTS (SELECT 1 FROM kine s WHERE s.name = k.name AND s.prev_revision = k.id AND s.id <= @rev)";

export const sql = {
  // A key's rows form a chain (each names the key's then-newest row as prev_revision), so its
  // newest row also has the largest prev_revision: ordering by it walks the unique
  // (name, prev_revision) index backwards and stops at the first row, with no sort.
  latest: `SELECT ${rowColumns} FROM kine k WHERE k.name = ? ORDER BY k.prev_revision DESC LIMIT 1`,
  insert:
    "INSERT INTO kine (name, created, deleted, create_revision, prev_revision, lease, value, old_value) VALUES (?, ?, ?, ?, ?, 0, ?, ?)",
  // The live row of a key at a revision is its newest row at or below it: the row no other row
  // at or below it names as prev_revision. Unlike kine's MAX(id) GROUP BY this walks the
  // (name, prev_revision) index in name order and stops at the limit (compaction keeps the
  // property: it only deletes rows whose successor is deleted with them or is itself within the
  // compacted range).
  range: `SELECT ${rowColumns} FROM kine k WHERE ${liveAt} ORDER BY k.name LIMIT @limit`,
  count: `SELECT COUNT(*) AS n FROM kine k WHERE ${liveAt}`,
  current: "SELECT seq FROM sqlite_sequence WHERE name = 'kine'",
  compacted: "SELECT value FROM kine_meta WHERE key = 'compact_rev'",
  // Log poller: new rows, and a new watcher's replay.
  after: `SELECT ${rowColumns}, ${prevValue} FROM kine k LEFT JOIN kine p ON p.id = k.prev_revision WHERE k.id > ? ORDER BY k.id LIMIT ?`,
  replay: `SELECT ${rowColumns}, ${prevValue} FROM kine k LEFT JOIN kine p ON p.id = k.prev_revision WHERE k.id >= ? AND k.id <= ? AND k.name >= ? AND k.name < ? ORDER BY k.id`,
  // Compaction.
  compactSuperseded: "DELETE FROM kine WHERE id IN (SELECT prev_revision FROM kine WHERE prev_revision != 0 AND id > ? AND id <= ?)",
  compactTombstones: "DELETE FROM kine WHERE deleted = 1 AND id > ? AND id <= ?",
  recordCompact:
    "INSERT INTO kine_meta (key, value) VALUES ('compact_rev', ?) ON CONFLICT(key) DO UPDATE SET value = MAX(value, excluded.value)",
} as const;
