#!/usr/bin/env node
// The `servicenet-scheduler` command. This file is in git, not built: npm links a workspace's bins at
// `npm ci` time, before the build has written dist/, and skips a bin whose file is missing then
// (so `npx servicenet-scheduler` would ask the public registry). The command itself is dist/cmd/scheduler.js.
import { existsSync } from "node:fs";

const entry = new URL("../dist/cmd/scheduler.js", import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write(
    "servicenet-scheduler: not built yet (no dist/cmd/scheduler.js): run `npm run build` or `npm start` in the servicenet repository\n",
  );
  process.exit(1);
}
await import(entry.href);
