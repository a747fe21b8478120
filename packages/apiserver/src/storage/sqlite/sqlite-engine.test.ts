import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Store, WatchEvent } from "../interfaces.ts";
import { createStore } from "../storage.ts";
import { collect, testObject } from "../testing.ts";
import { sql } from "./queries.ts";
import { schemaSql } from "./schema.ts";

const key = (name: string): string => `/registry/configmaps/default/${name}`;

describe("sqlite engine", () => {
  let dir: string;
  let path: string;
  const open: Store[] = [];
  const openStore = async (): Promise<Store> => {
    const s = await createStore({ backend: "sqlite", path, pollIntervalMs: 30 });
    open.push(s);
    return s;
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "servicenet-sqlite-"));
    path = join(dir, "state.db");
  });
  afterEach(async () => {
    for (const s of open.splice(0)) await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("uses WAL and a kine-shaped revision log", async () => {
    const store = await openStore();
    const a = await store.create(key("a"), testObject("a"));
    await store.guaranteedUpdate(key("a"), (cur) => ({ ...cur, data: { v: "2" } }));
    await store.delete(key("a"));
    const db = new Database(path, { readonly: true });
    try {
      expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
      const rows = db.prepare("SELECT id, name, created, deleted, create_revision, prev_revision FROM kine ORDER BY id").all();
      const r0 = Number(a.metadata.resourceVersion);
      expect(rows).toEqual([
        { id: r0, name: key("a"), created: 1, deleted: 0, create_revision: 0, prev_revision: 0 },
        { id: r0 + 1, name: key("a"), created: 0, deleted: 0, create_revision: r0, prev_revision: r0 },
        { id: r0 + 2, name: key("a"), created: 0, deleted: 1, create_revision: r0, prev_revision: r0 + 1 },
      ]);
    } finally {
      db.close();
    }
  });

  it("lets a second connection on the same file see writes through its watch (log polling)", async () => {
    const writer = await openStore();
    const reader = await openStore();
    await writer.create("/registry/unrelated/seed", testObject("seed"));
    const from = await reader.currentRevision();
    const watch = reader.watch("/registry/configmaps", { resourceVersion: String(from), recursive: true });
    setTimeout(() => void writer.create(key("a"), testObject("a")).then(() => writer.delete(key("a"))), 20);
    const evs = await collect(watch, 2);
    expect(evs.map((e) => e.type)).toEqual(["ADDED", "DELETED"]);
  });

  it("waits for another connection's write lock from the event loop, not inside SQLite's busy handler", async () => {
    const store = await openStore();
    await store.create(key("seed"), testObject("seed"));
    // Another writer (another process, in real life) holds the write lock.
    const other = new Database(path);
    other.exec("BEGIN IMMEDIATE");
    let committed = false;
    const created = store.create(key("a"), testObject("a")).then((o) => {
      committed = true;
      return o;
    });
    // With the blocking busy handler this timer could not fire until SQLite gave up after 30 s.
    const ticks = await new Promise<number>((resolve) => {
      let n = 0;
      const t = setInterval(() => {
        if (++n === 5) {
          clearInterval(t);
          resolve(n);
        }
      }, 2);
    });
    expect(ticks).toBe(5);
    expect(committed).toBe(false);
    // A second write queued while waiting is committed with the first, in order.
    const second = store.create(key("b"), testObject("b"));
    other.exec("COMMIT");
    other.close();
    const [a, b] = await Promise.all([created, second]);
    expect(Number(b.metadata.resourceVersion)).toBe(Number(a.metadata.resourceVersion) + 1);
    expect((await store.list("/registry/configmaps")).items.map((o) => o.metadata.name)).toEqual(["a", "b", "seed"]);
  });

  it("delivers its own commits without reading them back, in log order with another process's rows between", async () => {
    const a = await openStore();
    const b = await openStore();
    await a.create("/registry/unrelated/seed", testObject("seed")); // resourceVersion 0 would mean "current state"
    const from = await a.currentRevision();
    const live = a.watch("/registry/configmaps", { resourceVersion: String(from), recursive: true });
    // Writes through both connections interleave in the log; a's own come as events, b's as rows.
    for (let i = 0; i < 6; i++) {
      const w = i % 3 === 2 ? b : a;
      await w.create(key(`k${i}`), testObject(`k${i}`));
      await Promise.all([
        a.guaranteedUpdate(key(`k${i}`), (cur) => ({ ...cur, data: { i: String(i) } })),
        b.create(key(`o${i}`), testObject(`o${i}`)),
      ]);
      if (i % 2 === 1) await w.delete(key(`k${i}`));
    }
    const n = 6 * 3 + 3;
    const got = await collect(live, n);
    // The same range replayed from the table (rows only) must be identical, event for event.
    const replayed = await collect(a.watch("/registry/configmaps", { resourceVersion: String(from), recursive: true }), n);
    expect(got).toEqual(replayed);
    // Own writes come from the writers' decoded values (codec.ts decodeKV): the same text, key order included.
    expect(JSON.stringify(got)).toBe(JSON.stringify(replayed));
    const revs = got.map((e) => Number(e.object.metadata.resourceVersion));
    expect(revs).toEqual([...revs].sort((x, y) => x - y));
    expect(new Set(got.map((e) => e.type))).toEqual(new Set(["ADDED", "MODIFIED", "DELETED"]));
  });

  it("hands its watchers the writer's decoded value of its own writes instead of parsing the value", async () => {
    const a = await openStore();
    await a.create("/registry/unrelated/seed", testObject("seed"));
    const from = await a.currentRevision();
    const live = collect(a.watch("/registry/configmaps", { resourceVersion: String(from), recursive: true }), 2);
    await new Promise((r) => setImmediate(r)); // the watch is open
    const parse = vi.spyOn(JSON, "parse");
    try {
      const created = await a.create(key("p"), testObject("p", { data: { v: "1" } }));
      // The update reads the current value (one parse of v 1), as it always did.
      const updated = await a.guaranteedUpdate(key("p"), (cur) => ({ ...cur, data: { v: "2" } }));
      const got = await live;
      expect(got.map((e) => e.object)).toEqual([created, updated]);
      const parsed = parse.mock.calls.map(([text]) => text).filter((text) => typeof text === "string" && text.includes('"name":"p"'));
      expect(parsed).toEqual([expect.stringContaining('"data":{"v":"1"}')]);
    } finally {
      parse.mockRestore();
    }
  });

  it("compaction drops superseded rows and tombstones but keeps every live key", async () => {
    const store = await openStore();
    for (let i = 0; i < 5; i++) await store.create(key(`k${i}`), testObject(`k${i}`));
    for (let i = 0; i < 3; i++) await store.guaranteedUpdate(key("k0"), (cur) => ({ ...cur, data: { i: String(i) } }));
    await store.delete(key("k1"));
    await store.compact(await store.currentRevision());
    const db = new Database(path, { readonly: true });
    try {
      const names = db
        .prepare("SELECT name FROM kine ORDER BY name")
        .all()
        .map((r) => (r as { name: string }).name);
      expect(names).toEqual(["k0", "k2", "k3", "k4"].map(key));
    } finally {
      db.close();
    }
    expect((await store.list("/registry/configmaps")).items.map((o) => o.metadata.name)).toEqual(["k0", "k2", "k3", "k4"]);
    expect((await store.get(key("k0")))["data"]).toEqual({ i: "2" });
  });

  it("keeps data across reopen", async () => {
    const first = await openStore();
    const a = await first.create(key("a"), testObject("a"));
    await first.close();
    open.splice(open.indexOf(first), 1);
    const second = await openStore();
    expect(await second.get(key("a"))).toEqual(a);
    expect(await second.currentRevision()).toBe(Number(a.metadata.resourceVersion));
  });

  it("runs every statement on an index or the rowid, without a table scan or a sort", () => {
    const db = new Database(":memory:");
    try {
      db.exec(schemaSql);
      const checked: string[] = [];
      for (const [name, text] of Object.entries(sql)) {
        const named = text.includes("@");
        const args = named
          ? [{ start: "a", end: "b", rev: 1, limit: 1 }]
          : text
              .split("?")
              .slice(1)
              .map(() => 1);
        const plan = db
          .prepare(`EXPLAIN QUERY PLAN ${text}`)
          .all(...args)
          .map((r) => (r as { detail: string }).detail);
        // Plain inserts have no plan; sqlite_sequence holds one row per AUTOINCREMENT table.
        if (name === "insert" || name === "recordCompact" || name === "current") continue;
        expect(plan.join("; "), name).toMatch(/USING (COVERING )?INDEX|INTEGER PRIMARY KEY|PRIMARY KEY/);
        expect(plan.join("; "), name).not.toMatch(/^SCAN kine\b|; SCAN kine\b|TEMP B-TREE/);
        checked.push(name);
      }
      expect(checked).toEqual(["latest", "range", "count", "compacted", "after", "replay", "compactSuperseded", "compactTombstones"]);
    } finally {
      db.close();
    }
  });

  it("drops kine's redundant name index from a database made before, and keeps its data", async () => {
    const db = new Database(path);
    db.exec(schemaSql);
    db.exec("CREATE INDEX kine_name_index ON kine (name)");
    db.close();
    const first = await openStore();
    const a = await first.create(key("a"), testObject("a"));
    await first.guaranteedUpdate(key("a"), (cur) => ({ ...cur, data: { v: "2" } }));
    const check = new Database(path, { readonly: true });
    try {
      const indexes = check.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'kine' ORDER BY name").all();
      expect(indexes.map((r) => (r as { name: string }).name)).toEqual(["kine_name_prev_revision_uindex", "kine_prev_revision_index"]);
    } finally {
      check.close();
    }
    const latest = await first.get(key("a"));
    expect(latest["data"]).toEqual({ v: "2" });
    expect(Number(latest.metadata.resourceVersion)).toBe(Number(a.metadata.resourceVersion) + 1);
  });

  it("writes no old_value: watch events take the previous value from the prev_revision row, across compaction", async () => {
    const writer = await openStore();
    // Revision 0 would mean "from the current state": seed one row first.
    await writer.create("/registry/unrelated/seed", testObject("seed"));
    const a = await writer.create(key("a"), testObject("a", { data: { v: "1" } }));
    await writer.guaranteedUpdate(key("a"), (cur) => ({ ...cur, data: { v: "2" } }));
    await writer.delete(key("a"));
    await writer.create(key("a"), testObject("a", { data: { v: "3" } }));
    const r0 = Number(a.metadata.resourceVersion);
    const db = new Database(path, { readonly: true });
    try {
      expect(db.prepare("SELECT COUNT(*) AS n FROM kine WHERE old_value IS NOT NULL").get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
    // Another connection reads the rows back (the replay and poll queries), as a second process would.
    const reader = await openStore();
    const seen = (evs: WatchEvent[]) => evs.map((e) => [e.type, (e.object as Record<string, unknown>)["data"]]);
    const all = await collect(reader.watch("/registry/configmaps", { resourceVersion: String(r0 - 1), recursive: true }), 4);
    expect(seen(all)).toEqual([
      ["ADDED", { v: "1" }],
      ["MODIFIED", { v: "2" }],
      ["DELETED", { v: "2" }],
      // A create after a delete: its prev_revision is the tombstone, which is no previous value.
      ["ADDED", { v: "3" }],
    ]);
    await writer.compact(r0 + 1);
    const after = await collect(reader.watch("/registry/configmaps", { resourceVersion: String(r0 + 1), recursive: true }), 2);
    expect(seen(after)).toEqual([
      ["DELETED", { v: "2" }],
      ["ADDED", { v: "3" }],
    ]);
  });

  it("still reads old_value from rows written by earlier versions", async () => {
    const store = await openStore();
    await store.create("/registry/unrelated/seed", testObject("seed"));
    const from = await store.currentRevision();
    const db = new Database(path);
    try {
      const v1 = JSON.stringify(testObject("old", { data: { v: "1" } }));
      const v2 = JSON.stringify(testObject("old", { data: { v: "2" } }));
      const ins = db.prepare(sql.insert);
      const first = Number(ins.run(key("old"), 1, 0, 0, 0, v1, null).lastInsertRowid);
      // An earlier version's update row: the previous value copied into old_value.
      ins.run(key("old"), 0, 0, first, first, v2, v1);
      db.prepare("DELETE FROM kine WHERE id = ?").run(first);
    } finally {
      db.close();
    }
    const evs = await collect(store.watch("/registry/configmaps", { resourceVersion: String(from), recursive: true }), 1);
    expect(evs.map((e) => [e.type, (e.object as Record<string, unknown>)["data"]])).toEqual([["MODIFIED", { v: "2" }]]);
  });

  it("finds a key's newest row across delete, re-create and compaction (rows chain by prev_revision)", async () => {
    const store = await openStore();
    await store.create(key("a"), testObject("a"));
    await store.delete(key("a"));
    await store.compact(await store.currentRevision());
    const b = await store.create(key("a"), testObject("a", { data: { v: "b" } }));
    await store.delete(key("a"));
    const c = await store.create(key("a"), testObject("a", { data: { v: "c" } }));
    const d = await store.guaranteedUpdate(key("a"), (cur) => ({ ...cur, data: { v: "d" } }));
    expect(Number(c.metadata.resourceVersion)).toBeGreaterThan(Number(b.metadata.resourceVersion));
    expect(await store.get(key("a"))).toEqual(d);
    expect(d.metadata.uid).toBe(c.metadata.uid);
  });
});
