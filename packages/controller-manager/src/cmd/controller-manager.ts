#!/usr/bin/env node
/**
 * servicenet-controller-manager: runs the controllers against an apiserver named by --kubeconfig.
 * Exit codes: 0 stopped by SIGINT/SIGTERM, 1 fatal error, 2 usage error.
 */
import { main } from "@servicenet/component-base/cli";
import { KubeconfigError, loadKubeConfig } from "@servicenet/client/tools/clientcmd";
import { parseOptions, usage } from "../app/options.ts";
import { ControllerStartError, runControllerManager } from "../app/run.ts";

main({
  name: "controller-manager",
  usage,
  parse: parseOptions,
  // A bad kubeconfig or a controller that cannot start is a configuration problem: its message, not a stack.
  fatalMessage: (err) => (err instanceof KubeconfigError || err instanceof ControllerStartError ? err.message : undefined),
  async run(opts, log, signal) {
    const kubeConfig = loadKubeConfig(opts.kubeconfig);
    log.info("starting", { server: kubeConfig.getCurrentCluster()?.server, controllers: opts.controllers, leaderElect: opts.leaderElect });
    const outcome = await runControllerManager(
      {
        kubeConfig,
        controllers: opts.controllers,
        workers: opts.workers,
        gcWorkers: opts.gcWorkers,
        deploymentWorkers: opts.deploymentWorkers,
        replicaSetWorkers: opts.replicaSetWorkers,
        jobWorkers: opts.jobWorkers,
        statefulSetWorkers: opts.statefulSetWorkers,
        daemonSetWorkers: opts.daemonSetWorkers,
        leaderElect: opts.leaderElect,
        useServiceAccountCredentials: opts.useServiceAccountCredentials,
        rootCAFile: opts.rootCAFile,
        serviceAccountKeyFile: opts.serviceAccountKeyFile,
        serviceAccountTokenWorkers: opts.serviceAccountTokenWorkers,
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
        nodeLifecycle: opts.nodeLifecycle,
        clientConnection: { qps: opts.kubeAPIQPS, burst: opts.kubeAPIBurst },
        serving: opts.serving,
        logger: log,
      },
      signal,
    );
    if (outcome === "lost") {
      // As kube-controller-manager: losing the lease is fatal, a supervisor restarts us.
      log.error("leaderelection lost");
      return 1;
    }
    return 0;
  },
});
