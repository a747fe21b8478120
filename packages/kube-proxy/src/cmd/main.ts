#!/usr/bin/env node
/** `servicenet-kube-proxy`: runs until SIGINT/SIGTERM. */
import { parseOptions, usage } from "./options.ts";
import { cleanupAndExit, writeConfigFile } from "./run-options.ts";
import { stderrLogger } from "./logger.ts";
import { runProxyServer } from "./server.ts";

async function main(): Promise<void> {
  let opts;
  try {
    opts = parseOptions(process.argv.slice(2));
  } catch (err) {
    console.error(`${(err as Error).message}\n${usage}`);
    process.exit(2);
  }
  const logger = stderrLogger(opts.verbosity);
  try {
    // Options.Run: --write-config-to first, then --cleanup, each exiting when done.
    if (opts.writeConfigTo !== undefined) {
      await writeConfigFile(opts, logger);
      process.exit(0);
    }
    if (opts.cleanup) {
      await cleanupAndExit(opts, logger);
      process.exit(0);
    }
    const server = await runProxyServer(opts, logger);
    // Handlers before the status line: a supervisor may signal the moment it reads it.
    const shutdown = () => void server.stop().then(() => process.exit(0));
    process.once("SIGINT", shutdown);
    process.once("SIGTERM", shutdown);
    const where = opts.dryRunDir === undefined ? "programming the kernel" : `dry-run, writing rules to ${opts.dryRunDir}`;
    console.error(
      `servicenet-kube-proxy: ${opts.proxyMode} mode, node ${opts.hostnameOverride}, ${where}; metrics on ${server.metricsAddress ?? "(off)"}, healthz on ${server.healthzAddress ?? "(off)"}`,
    );
  } catch (err) {
    console.error(`servicenet-kube-proxy: ${(err as Error).message}`);
    process.exit(1);
  }
}

void main();
