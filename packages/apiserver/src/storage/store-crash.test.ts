import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createStore } from "./storage.ts";
import { availableBackends, openTestStore, type TestStore } from "./testing.ts";

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

  it.skipIf(!available)("a writer killed with SIGKILL mid-burst loses no acknowledged write", { timeout: 30_000 }, async () => {
    t = await openTestStore(backend);
    // The parent's store only owns the data location; the child writes through its own connection.
    const acked = await writeThenKill(t.config, 400);
    expect(acked.length).toBeGreaterThanOrEqual(400);
    const reopened = await createStore(t.config);
    try {
      const present = new Set((await reopened.list("/registry/configmaps/crash")).items.map((o) => `/registry/configmaps/crash/${o.metadata.name}`));
      const lost = acked.filter((k) => !present.has(k));
      expect(lost).toEqual([]);
      expect(present.size).toBeGreaterThanOrEqual(acked.length);
    } finally {
      await reopened.close();
    }
  });
});
