#!/usr/bin/env node
/**
 * servicenet-kubelet: runs --nodes simulated Nodes against the apiserver named by --kubeconfig.
 * Exit codes: 0 stopped by SIGINT/SIGTERM, 1 fatal error, 2 usage error.
 */
import { main } from "@servicenet/component-base/cli";
import { KubeconfigError, loadKubeConfig } from "@servicenet/client/tools/clientcmd";
import { parseOptions, usage } from "../app/options.ts";
import { runKubelet } from "../app/run.ts";
import { newKubeletMetrics } from "../kubelet/metrics/metrics.ts";
import { listenAndServeReadOnly, type ReadOnlyServer } from "../kubelet/server/server.ts";

main({
  name: "kubelet",
  usage,
  usageErrorLabel: "Error",
  parse: parseOptions,
  fatalMessage: (err) => (err instanceof KubeconfigError ? err.message : undefined),
  async run(opts, log, signal) {
    const kubeConfig = loadKubeConfig(opts.kubeconfig);
    log.info("starting", { server: kubeConfig.getCurrentCluster()?.server, nodes: opts.nodes });
    const metrics = newKubeletMetrics();
    let readOnly: ReadOnlyServer | undefined;
    if (opts.readOnlyPort > 0) {
      readOnly = await listenAndServeReadOnly(opts.address, opts.readOnlyPort, metrics.registry);
      log.info("Starting to listen read-only", { address: opts.address, port: opts.readOnlyPort });
    }
    await runKubelet(
      {
        kubeConfig,
        nodes: opts.nodes,
        node: opts.node,
        ...(opts.hostnameOverride !== "" ? { hostnameOverride: opts.hostnameOverride } : {}),
        workers: opts.workers,
        clientConnection: { qps: opts.kubeAPIQPS, burst: opts.kubeAPIBurst },
        logger: log,
        metrics,
      },
      signal,
    );
    await readOnly?.close();
    return 0;
  },
});
