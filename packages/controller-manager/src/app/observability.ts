/**
 * What kube-controller-manager's `Run` sets up before the election (cmd/kube-controller-manager/app
 * `controllermanager.go`): the metrics registry with the work queues' metrics, the `/healthz`
 * checks (`leaderElection` when elected; each started controller adds its own), and the secure
 * server. Controllers get the queue metrics from here instead of a process-global provider.
 */
import { namedCheck } from "@servicenet/component-base/healthz";
import { MetricsRegistry, workqueueMetricsProvider } from "@servicenet/component-base/metrics";
import type { Logger } from "@servicenet/component-base/logs";
import type { KubeConfig } from "@kubernetes/client-node";
import { loadKubeConfig } from "@servicenet/client/tools/clientcmd";
import { LeaderHealthzAdaptor } from "@servicenet/client/tools/leaderelection";
import { RateLimitingQueue, type MetricsProvider } from "@servicenet/client/util/workqueue";
import type { ControllerName } from "./options.ts";
import type { ServingOptions } from "./options-serving.ts";
import { MutableHealthz, serveSecurely, type SecureServer } from "./serve.ts";

/** The health check names of the controllers (cmd/kube-controller-manager/names/controller_names.go). */
export const controllerHealthNames: Readonly<Record<ControllerName, string>> = {
  endpoint: "endpoints-controller",
  endpointslice: "endpointslice-controller",
  endpointslicemirroring: "endpointslice-mirroring-controller",
  namespace: "namespace-controller",
  servicecidr: "service-cidr-controller",
  garbagecollector: "garbage-collector-controller",
  "clusterrole-aggregation": "clusterrole-aggregation-controller",
  nodeipam: "node-ipam-controller",
  deployment: "deployment-controller",
  replicaset: "replicaset-controller",
  statefulset: "statefulset-controller",
  daemonset: "daemonset-controller",
  serviceaccount: "serviceaccount-controller",
  "node-lifecycle-controller": "node-lifecycle-controller",
  "taint-eviction-controller": "taint-eviction-controller",
  "root-ca-certificate-publisher-controller": "root-ca-certificate-publisher-controller",
  disruption: "disruption-controller",
  "job-controller": "job-controller",
  "cronjob-controller": "cronjob-controller",
  "ttl-after-finished-controller": "ttl-after-finished-controller",
  "serviceaccount-token-controller": "serviceaccount-token-controller",
};

/** upstream `NewLeaderHealthzAdaptor(time.Second * 20)` in kube-controller-manager's Run. */
const leaderElectionHealthTimeoutMs = 20_000;

export interface Observability {
  readonly metrics: MetricsRegistry;
  readonly health: MutableHealthz;
  readonly queueMetrics: MetricsProvider;
  /** Set when --leader-elect: the elector is handed to it once made. */
  readonly election: LeaderHealthzAdaptor | undefined;
  readonly server: SecureServer | undefined;
  /** A rate-limited queue named `name` that reports the workqueue metrics. */
  queue(name: string): RateLimitingQueue<string>;
  /** upstream `controllerhealthz.NamedPingChecker` for each started controller. */
  controllersStarted(names: readonly ControllerName[]): void;
}

export async function startObservability(o: {
  kubeConfig: KubeConfig;
  leaderElect?: boolean;
  serving?: ServingOptions;
  metrics?: MetricsRegistry;
  logger: Logger;
}): Promise<Observability> {
  const metrics = o.metrics ?? new MetricsRegistry();
  const queueMetrics = workqueueMetricsProvider(metrics);
  const election = o.leaderElect === true ? new LeaderHealthzAdaptor(leaderElectionHealthTimeoutMs) : undefined;
  const health = new MutableHealthz(...(election !== undefined ? [election] : []));
  const server =
    o.serving !== undefined
      ? await serveSecurely(o.serving, { health, metrics, kubeConfig: o.kubeConfig, loadKubeConfig, logger: o.logger })
      : undefined;
  return {
    metrics,
    health,
    queueMetrics,
    election,
    server,
    queue: (name) => new RateLimitingQueue<string>(name, undefined, undefined, queueMetrics),
    controllersStarted: (names) => health.addHealthChecker(...names.map((n) => namedCheck(controllerHealthNames[n], () => {}))),
  };
}
