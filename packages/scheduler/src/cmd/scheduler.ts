#!/usr/bin/env node
/**
 * servicenet-scheduler: schedules Pods on the apiserver named by --kubeconfig.
 * Exit codes: 0 stopped by SIGINT/SIGTERM, 1 fatal error, 2 usage error.
 */
import { KubeconfigError, loadKubeConfig } from "@servicenet/client/tools/clientcmd";
import { jsonLogger } from "@servicenet/component-base/logs";
import { parseOptions, usage, UsageError } from "../app/options.ts";
import { runScheduler } from "../app/run.ts";

async function main(argv: readonly string[]): Promise<number> {
  let opts;
  try {
    opts = parseOptions(argv);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`Error: ${err.message}\n${usage}\n`);
      return 2;
    }
    throw err;
  }
  if (opts.help) {
    process.stdout.write(`${usage}\n`);
    return 0;
  }
  let kubeConfig;
  try {
    kubeConfig = loadKubeConfig(opts.kubeconfig);
  } catch (err) {
    if (err instanceof KubeconfigError) {
      process.stderr.write(`F ${err.message}\n`);
      return 1;
    }
    throw err;
  }
  const log = jsonLogger("scheduler", { verbosity: opts.verbosity });
  const stop = new AbortController();
  const onSignal = (sig: NodeJS.Signals) => {
    if (stop.signal.aborted) process.exit(1);
    log.info("received signal, shutting down", { signal: sig });
    stop.abort();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  log.info("starting", { server: kubeConfig.getCurrentCluster()?.server });
  await runScheduler({ kubeConfig, logger: log }, stop.signal);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`F ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
