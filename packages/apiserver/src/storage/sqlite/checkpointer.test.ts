import Database from "better-sqlite3";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { eventually } from "@servicenet/testing";
import type { KVEngine } from "../kv.ts";
import { Checkpointer, type CheckpointResult } from "./checkpointer.ts";
import { createSqliteEngine, type SqliteEngineConfig } from "./sqlite-engine.ts";

const value = (i: number): string => JSON.stringify({ i, pad: "x".repeat(4000) });

function walBytes(path: string): number {
  try {
    return statSync(`${path}-wal`).size;
  } catch {
    return 0;
  }
}

describe("WAL checkpointer (checkpointer.ts)", () => {
  let dir: string;
  let path: string;
  const engines: KVEngine[] = [];
  const open = (checkpointer: SqliteEngineConfig["checkpointer"]): KVEngine => {
    const e = createSqliteEngine({ path, pollIntervalMs: 1000, checkpointer });
    engines.push(e);
    return e;
  };
  const put = (e: KVEngine, i: number) => e.txn([{ key: `/k/${i}`, modRevision: 0 }], [{ type: "put", key: `/k/${i}`, value: value(i) }]);
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "servicenet-ckpt-"));
    path = join(dir, "state.db");
  });
  afterEach(async () => {
    for (const e of engines.splice(0)) await e.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("checkpoints and empties the WAL from the worker once it passes the threshold, every write kept", async () => {
    const results: CheckpointResult[] = [];
    const e = open({ thresholdBytes: 256 << 10, pollMs: 5, startAfterCommits: 1, onCheckpoint: (r) => results.push(r) });
    for (let i = 0; i < 400; i++) await put(e, i);
    // ~25 kB of WAL per commit here, ~10 MB in all: SQLite's own checkpoint would wait for 40 MB, and
    // it never shrinks the file; the worker's TRUNCATE leaves it empty.
    await eventually(() => expect(walBytes(path)).toBe(0));
    // The worker truncates the file before its report crosses to this thread: wait for the report too.
    await eventually(() => expect(results.some((r) => r.ok && r.truncate?.busy === 0)).toBe(true));
    expect(results.every((r) => r.ok)).toBe(true);
    // The checkpoints copied every page: all rows are in the database file, with their revisions.
    await e.close();
    engines.splice(0);
    const db = new Database(path, { readonly: true });
    try {
      const rows = db.prepare("SELECT id, name, value FROM kine ORDER BY id").all() as { id: number; name: string; value: string }[];
      expect(rows).toHaveLength(400);
      rows.forEach((r, i) => {
        expect(r.name).toBe(`/k/${i}`);
        expect(r.value).toBe(value(i));
        expect(r.id).toBe(rows[0]!.id + i);
      });
    } finally {
      db.close();
    }
  });

  it("keeps writes and reads going while it checkpoints (writes that meet its lock retry)", async () => {
    const results: CheckpointResult[] = [];
    const e = open({ thresholdBytes: 64 << 10, pollMs: 1, startAfterCommits: 1, onCheckpoint: (r) => results.push(r) });
    // Concurrent batches while the worker checkpoints every few writes.
    for (let round = 0; round < 20; round++) {
      const rs = await Promise.all(Array.from({ length: 16 }, (_, j) => put(e, round * 16 + j)));
      expect(rs.every((r) => r.succeeded)).toBe(true);
    }
    await eventually(() => expect(results.length).toBeGreaterThan(0));
    const all = await e.range("/k/", "/k0", {});
    expect(all.kvs).toHaveLength(320);
    expect(new Set(all.kvs.map((kv) => kv.modRevision)).size).toBe(320);
  });

  it("with checkpointer: false leaves the checkpoints to SQLite (none below its 10,000 pages)", async () => {
    const e = open(false);
    for (let i = 0; i < 400; i++) await put(e, i);
    await new Promise((r) => setTimeout(r, 30));
    expect(walBytes(path)).toBeGreaterThan(2 << 20);
  });

  it("lets a process whose last step is closing the engine finish (the worker does not hold its exit up or cut it short)", () => {
    const script = fileURLToPath(new URL("../testdata/close-at-exit.mjs", import.meta.url));
    const r = spawnSync(process.execPath, [script, path], { encoding: "utf8", timeout: 120_000 });
    expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({ status: 0, stdout: "closed\n", stderr: "" });
  });

  it("opens the file by its absolute path (the process may change directory after the engine opened it)", async () => {
    const results: CheckpointResult[] = [];
    const cwd = process.cwd();
    process.chdir(dir);
    let e: KVEngine;
    try {
      e = createSqliteEngine({
        path: "state.db",
        pollIntervalMs: 1000,
        checkpointer: { startAfterCommits: 1, thresholdBytes: 1, pollMs: 5, onCheckpoint: (r) => results.push(r) },
      });
      engines.push(e);
    } finally {
      process.chdir(cwd);
    }
    // The worker starts with this commit, after the directory changed back: its first report is
    // either its first checkpoint or its failure to open "state.db" in the old directory.
    await put(e, 0);
    await eventually(() => expect(results.length).toBeGreaterThan(0));
    expect(results[0]!.ok).toBe(true);
  });

  it("does not start a worker before startAfterCommits", async () => {
    const results: CheckpointResult[] = [];
    const e = open({ thresholdBytes: 1, pollMs: 1, startAfterCommits: 1000, onCheckpoint: (r) => results.push(r) });
    for (let i = 0; i < 20; i++) await put(e, i);
    await new Promise((r) => setTimeout(r, 30));
    expect(results).toEqual([]);
  });
});

describe("Checkpointer", () => {
  it("reports a worker that cannot open the file once and does not start another", async () => {
    const results: CheckpointResult[] = [];
    const c = new Checkpointer({
      path: join(tmpdir(), `servicenet-missing-${process.pid}`, "nothing.db"),
      thresholdBytes: 1,
      pollMs: 1,
      startAfterCommits: 1,
      busyTimeoutMs: 10,
      onCheckpoint: (r) => results.push(r),
    });
    c.committed();
    await eventually(() => expect(results).toHaveLength(1));
    expect(results[0]!.ok).toBe(false);
    for (let i = 0; i < 10; i++) c.committed();
    await new Promise((r) => setTimeout(r, 50));
    expect(results).toHaveLength(1);
    await c.close();
  });

  it("checkpointNow runs one checkpoint and close() ends the worker", async () => {
    const dir = mkdtempSync(join(tmpdir(), "servicenet-ckpt-"));
    const path = join(dir, "x.db");
    const db = new Database(path);
    db.pragma("journal_mode = WAL");
    db.pragma("wal_autocheckpoint = 0");
    db.exec("CREATE TABLE t (v TEXT)");
    const insert = db.prepare("INSERT INTO t VALUES (?)");
    for (let i = 0; i < 100; i++) insert.run(value(i));
    const c = new Checkpointer({ path, thresholdBytes: 1 << 30, pollMs: 1000, startAfterCommits: 1, busyTimeoutMs: 100 });
    try {
      expect(walBytes(path)).toBeGreaterThan(100 * 4000);
      const r = await c.checkpointNow();
      expect(r.ok).toBe(true);
      expect(r.passive!.checkpointed).toBe(r.passive!.log);
      expect(walBytes(path)).toBe(0);
      await c.close();
      expect((await c.checkpointNow()).ok).toBe(false);
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
