#!/usr/bin/env node
// The `servicenet-kubelet` command. This file is in git, not built: npm links a workspace's bins at
// `npm ci` time, before the build has written dist/, and skips a bin whose file is missing then
// (so `npx servicenet-kubelet` would ask the public registry). The command itself is dist/cmd/kubelet.js.
import { existsSync } from "node:fs";

const entry = new URL("../dist/cmd/kubelet.js", import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write(
    "servicenet-kubelet: not built yet (no dist/cmd/kubelet.js): run `npm run build` or `npm start` in the servicenet repository\n",
  );
  process.exit(1);
}
await import(entry.href);
