#!/usr/bin/env node
// The `kubectl-servicenet` kubectl plugin. This file is in git, not built: npm links a workspace's
// bins at `npm ci` time, before the build has written dist/, and skips a bin whose file is missing
// then. The plugin itself is dist/cmd/kubectl-servicenet.js.
import { existsSync } from "node:fs";

const entry = new URL("../dist/cmd/kubectl-servicenet.js", import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write(
    "kubectl-servicenet: not built yet (no dist/cmd/kubectl-servicenet.js): run `npm run build` or `npm start` in the servicenet repository\n",
  );
  process.exit(1);
}
const { runPluginProcess } = await import(entry.href);
await runPluginProcess();
