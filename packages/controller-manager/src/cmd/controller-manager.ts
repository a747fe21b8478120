#!/usr/bin/env node
/**
 * servicenet-controller-manager: runs the endpoint, endpointslice and
 * servicecidr controllers against an apiserver named by --kubeconfig.
 * Exit codes: 0 stopped by SIGINT/SIGTERM, 1 fatal error, 2 usage error.
 */
import { loadKubeConfig, KubeconfigError } from "@servicenet/client/tools/clientcmd";
import { jsonLogger } from "@servicenet/component-base/logs";
import { parseOptions, usage, UsageError } from "../app/options.ts";
import { ControllerStartError, runControllerManager } from "../app/run.ts";

async function main(argv: readonly string[]): Promise<number> {
  let opts;
  try {
    opts = parseOptions(argv);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`error: ${err.message}\n${usage}\n`);
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
  const log = jsonLogger("controller-manager", { verbosity: opts.verbosity });
  const stop = new AbortController();
  const onSignal = (sig: NodeJS.Signals) => {
    if (stop.signal.aborted) process.exit(1); // a second signal forces exit
    log.info("received signal, shutting down", { signal: sig });
    stop.abort();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  log.info("starting", { server: kubeConfig.getCurrentCluster()?.server, controllers: opts.controllers, leaderElect: opts.leaderElect });
  const outcome = await runControllerManager(
    {
      kubeConfig,
      controllers: opts.controllers,
      workers: opts.workers,
      gcWorkers: opts.gcWorkers,
      deploymentWorkers: opts.deploymentWorkers,
      replicaSetWorkers: opts.replicaSetWorkers,
      leaderElect: opts.leaderElect,
      useServiceAccountCredentials: opts.useServiceAccountCredentials,
      leaseNamespace: opts.leaseNamespace,
      leaseName: opts.leaseName,
      leaseDurationMs: opts.leaseDurationMs,
      renewDeadlineMs: opts.renewDeadlineMs,
      retryPeriodMs: opts.retryPeriodMs,
      maxEndpointsPerSlice: opts.maxEndpointsPerSlice,
      endpointUpdatesBatchPeriodMs: opts.endpointUpdatesBatchPeriodMs,
      mirroringMaxEndpointsPerSubset: opts.mirroringMaxEndpointsPerSubset,
      mirroringEndpointUpdatesBatchPeriodMs: opts.mirroringEndpointUpdatesBatchPeriodMs,
      nodeIpam: opts.nodeIpam,
      serving: opts.serving,
      logger: log,
    },
    stop.signal,
  );
  if (outcome === "lost") {
    // As kube-controller-manager: losing the lease is fatal, a supervisor restarts us.
    log.error("leaderelection lost");
    return 1;
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    // A controller that cannot start is a configuration problem: its message, not a stack.
    const text = err instanceof ControllerStartError ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err);
    process.stderr.write(`F ${text}\n`);
    process.exit(1);
  },
);
