import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { createStore } from "./storage.ts";
import type { WatchEvent } from "./interfaces.ts";
import { availableBackends, lockSharedHistory, openTestStore, type TestStore } from "./testing.ts";

// etcd round trips on a shared 2-core machine can be slow; correctness, not speed, is tested here.
vi.setConfig({ testTimeout: 20_000 });

const writer = fileURLToPath(new URL("./testdata/crash-writer.mjs", import.meta.url));

/** Runs the writer until it acknowledged `minAcks` creates, SIGKILLs it, returns the acked keys. */
function writeThenKill(config: object, minAcks: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [writer, JSON.stringify(config)], { stdio: ["ignore", "pipe", "pipe"] });
    const acked: string[] = [];
    let buf = "";
    let err = "";
    let killed = false;
    child.stdout.on("data", (chunk: Buffer) => {
      buf += chunk.toString("utf8");
      const lines = buf.split("\n");
      buf = lines.pop() ?? "";
      for (const line of lines) if (line.startsWith("ack ")) acked.push(line.slice(4));
      if (!killed && acked.length >= minAcks) {
        killed = true;
        child.kill("SIGKILL");
      }
    });
    child.stderr.on("data", (c: Buffer) => (err += c.toString("utf8")));
    child.on("exit", (code, signal) => {
      if (signal === "SIGKILL") resolve(acked);
      else reject(new Error(`writer exited with ${code}: ${err}`));
    });
  });
}

const durable = availableBackends().filter((b) => b.backend !== "memory");

describe.each(durable)("crash safety on $backend", ({ backend, available }) => {
  let t: TestStore | undefined;
  afterEach(async () => {
    await t?.cleanup();
    t = undefined;
  });

  it.skipIf(!available)("a writer killed with SIGKILL mid-burst loses no acknowledged write", { timeout: 120_000 }, async () => {
    t = await openTestStore(backend);
    // The parent's store only owns the data location; the child writes through its own connection.
    const acked = await writeThenKill(t.config, 200);
    expect(acked.length).toBeGreaterThanOrEqual(200);
    const reopened = await createStore(t.config);
    try {
      const present = new Set(
        (await reopened.list("/registry/configmaps/crash")).items.map((o) => `/registry/configmaps/crash/${o.metadata.name}`),
      );
      const lost = acked.filter((k) => !present.has(k));
      expect(lost).toEqual([]);
      expect(present.size).toBeGreaterThanOrEqual(acked.length);
    } finally {
      await reopened.close();
    }
  });

  it.skipIf(!available)("a watcher in another process sees the writer's events in revision order", { timeout: 120_000 }, async () => {
    const unlock = await lockSharedHistory(backend);
    onTestFinished(unlock);
    t = await openTestStore(backend);
    await t.store.create("/registry/unrelated/seed", { metadata: { name: "seed" } });
    const from = await t.store.currentRevision();
    const ac = new AbortController();
    const seen: WatchEvent[] = [];
    const done = (async () => {
      for await (const ev of t.store.watch("/registry/configmaps/crash", {
        resourceVersion: String(from),
        recursive: true,
        signal: ac.signal,
      }))
        seen.push(ev);
    })();
    const acked = await writeThenKill(t.config, 100);
    // A ceiling: the loop ends as soon as every acknowledged write was seen.
    const deadline = Date.now() + 60_000;
    const names = (): Set<string> =>
      new Set(seen.map((e) => (e.type === "ERROR" ? "" : `/registry/configmaps/crash/${e.object.metadata.name}`)));
    while (acked.some((k) => !names().has(k)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    ac.abort();
    await done;
    expect(acked.filter((k) => !names().has(k))).toEqual([]);
    expect(seen.every((e) => e.type === "ADDED")).toBe(true);
    const revs = seen.map((e) => Number((e.object as { metadata: { resourceVersion: string } }).metadata.resourceVersion));
    expect(revs).toEqual([...revs].sort((a, b) => a - b));
  });
});
