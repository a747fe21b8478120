#!/usr/bin/env node
// The `servicenet-kubectl` command. This file is in git, not built: npm links a workspace's bins at
// `npm ci` time, before the build has written dist/, and skips a bin whose file is missing then
// (so `npx servicenet-kubectl` would ask the public registry). The command itself is dist/cmd/kubectl.js.
import { existsSync } from "node:fs";

const entry = new URL("../dist/cmd/kubectl.js", import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write(
    "servicenet-kubectl: not built yet (no dist/cmd/kubectl.js): run `npm run build` or `npm start` in the servicenet repository\n",
  );
  process.exit(1);
}
const { runProcess } = await import(entry.href);
await runProcess();
