#!/usr/bin/env node
/**
 * servicenet-scheduler: schedules Pods on the apiserver named by --kubeconfig.
 * Exit codes: 0 stopped by SIGINT/SIGTERM, 1 fatal error, 2 usage error.
 */
import { main } from "@servicenet/component-base/cli";
import { KubeconfigError, loadKubeConfig } from "@servicenet/client/tools/clientcmd";
import { parseOptions, usage } from "../app/options.ts";
import { runScheduler } from "../app/run.ts";

main({
  name: "scheduler",
  usage,
  usageErrorLabel: "Error",
  parse: parseOptions,
  fatalMessage: (err) => (err instanceof KubeconfigError ? err.message : undefined),
  async run(opts, log, signal) {
    const kubeConfig = loadKubeConfig(opts.kubeconfig);
    log.info("starting", { server: kubeConfig.getCurrentCluster()?.server });
    await runScheduler({ kubeConfig, logger: log, qps: opts.kubeAPIQPS, burst: opts.kubeAPIBurst }, signal);
    return 0;
  },
});
