// A short-lived user of the SQLite engine: past the checkpointer's start, it closes the engine and
// prints "closed" as its last step. Nothing else keeps the process alive, so a close() that waits
// for an unreferenced worker would leave the top-level await unsettled (exit code 13, no "closed").
// argv[2]: the database path.
import { register } from "node:module";

register("./ts-hooks.mjs", import.meta.url);
const { createSqliteEngine } = await import("../sqlite/sqlite-engine.ts");
const engine = createSqliteEngine({ path: process.argv[2], pollIntervalMs: 1000, checkpointer: { startAfterCommits: 1, pollMs: 1 } });
for (let i = 0; i < 5; i++) await engine.txn([], [{ type: "put", key: `/k/${i}`, value: "v" }]);
await engine.close();
process.stdout.write("closed\n");
