#!/usr/bin/env node
// The `servicenet-kube-proxy` command. This file is in git, not built: npm links a workspace's bins at
// `npm ci` time, before the build has written dist/, and skips a bin whose file is missing then
// (so `npx servicenet-kube-proxy` would ask the public registry). The command itself is dist/cmd/main.js.
import { existsSync } from "node:fs";

const entry = new URL("../dist/cmd/main.js", import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write(
    "servicenet-kube-proxy: not built yet (no dist/cmd/main.js): run `npm run build` or `npm start` in the servicenet repository\n",
  );
  process.exit(1);
}
await import(entry.href);
