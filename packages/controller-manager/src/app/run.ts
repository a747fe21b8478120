/**
 * Wires informers, controllers and (optionally) leader election into one
 * running controller-manager, as cmd/kube-controller-manager/app does.
 */
import { hostname } from "node:os";
import type { KubeConfig } from "@kubernetes/client-node";
import { EndpointsController } from "../endpoint/endpoints-controller.ts";
import { endpointsClient } from "../endpoint/endpoints-client.ts";
import { EndpointSliceController, endpointSliceControllerEventSource } from "../endpointslice/endpointslice-controller.ts";
import { endpointSliceClient } from "../endpointslice/endpointslice-client.ts";
import { newEndpointSliceMetrics } from "../endpointslice/metrics/metrics.ts";
import {
  EndpointSliceMirroringController,
  endpointSliceMirroringControllerEventSource,
} from "../endpointslicemirroring/endpointslicemirroring-controller.ts";
import { newEndpointSliceMirroringMetrics } from "../endpointslicemirroring/metrics/metrics.ts";
import type { SharedInformer, ObjectWithMeta } from "@servicenet/client/tools/cache";
import { LeaderElector, leaseLock } from "@servicenet/client/tools/leaderelection";
import { noopLogger, type Logger } from "@servicenet/component-base/logs";
import { describeError } from "@servicenet/client/errors";
import { newRESTClient, setUserAgent, withRateLimit, type ClientConnectionLimits } from "@servicenet/client/rest";
import { NamespacedResourcesDeleter } from "../namespace/deletion/namespaced-resources-deleter.ts";
import { NamespaceController } from "../namespace/namespace-controller.ts";
import { ServiceCIDRController } from "../servicecidrs/servicecidrs-controller.ts";
import { serviceCIDRClient } from "../servicecidrs/servicecidrs-client.ts";
import { garbageCollectorEventSource, invalidOwnerRefEventReporter } from "../garbagecollector/events.ts";
import { clientNodeEventSink, EventBroadcaster } from "@servicenet/client/tools/record";
import { GarbageCollectorController } from "../garbagecollector/garbagecollector-controller.ts";
import { ClusterRoleAggregationController } from "../clusterroleaggregation/clusterroleaggregation-controller.ts";
import { clusterRoleClient } from "../clusterroleaggregation/clusterroles-client.ts";
import { ServiceAccountsController } from "../serviceaccount/serviceaccounts-controller.ts";
import type { TokensController } from "../serviceaccount/tokens-controller.ts";
import { startServiceAccountTokenController } from "./serviceaccount-token.ts";
import { serviceAccountClient } from "../serviceaccount/serviceaccounts-client.ts";
import { DeploymentController, deploymentControllerEventSource } from "../deployment/deployment-controller.ts";
import { deploymentClient } from "../deployment/deployment-client.ts";
import { ReplicaSetController } from "../replicaset/replica-set.ts";
import { DisruptionController } from "../disruption/disruption.ts";
import { disruptionClient } from "../disruption/disruption-client.ts";
import { podClient, replicaSetClient } from "../replicaset/replicaset-client.ts";
import { StatefulSetController, statefulSetControllerEventSource } from "../statefulset/stateful-set.ts";
import { StatefulPodControl } from "../statefulset/stateful-pod-control.ts";
import { statefulSetClient } from "../statefulset/statefulset-client.ts";
import { DaemonSetController, daemonSetControllerEventSource } from "../daemon/daemon-controller.ts";
import { daemonSetClient } from "../daemon/daemon-client.ts";
import { RealPodControl } from "../controller/pod-control.ts";
import { NodeLifecycleController } from "../controller/nodelifecycle/node-lifecycle-controller.ts";
import { nodeLifecycleClient } from "../controller/nodelifecycle/node-lifecycle-client.ts";
import type { NodeLifecycleConfig } from "../controller/nodelifecycle/config.ts";
import { TaintEvictionController, taintEvictionControllerName } from "../controller/tainteviction/taint-eviction.ts";
import { taintEvictionClient } from "../controller/tainteviction/taint-eviction-client.ts";
import { newTaintEvictionMetrics } from "../controller/tainteviction/metrics/metrics.ts";
import { makeInformers, typedInformerKey, type InformerSet } from "./informers.ts";
import { dynamicClientBuilder, simpleClientBuilder } from "./client-builder.ts";
import { defaultLeaseTimings, type ControllerName } from "./options.ts";
import { startNodeIpamController, type NodeIpamOptions } from "./core.ts";
import type { MetricsRegistry } from "@servicenet/component-base/metrics";
import type { ServingOptions } from "./options-serving.ts";
import { startObservability, type Observability } from "./observability.ts";
import { controllerUserAgent } from "../controller/user-agent.ts";
import { Publisher } from "../controller/certificates/rootcacertpublisher/publisher.ts";
import { publisherClient } from "../controller/certificates/rootcacertpublisher/publisher-client.ts";
import { rootCABundle } from "./certificates.ts";
import { JobController } from "../job/job-controller.ts";
import { jobClient } from "../job/job-client.ts";
import { CronJobController } from "../cronjob/cronjob-controller.ts";
import { cronJobClient } from "../cronjob/cronjob-client.ts";
import { TTLAfterFinishedController } from "../ttlafterfinished/ttlafterfinished-controller.ts";
import { ttlJobClient } from "../ttlafterfinished/ttl-job-client.ts";

export interface RunOptions {
  kubeConfig: KubeConfig;
  controllers: readonly ControllerName[];
  workers?: number;
  /** Garbage-collector workers (kube-controller-manager's --concurrent-gc-syncs, default 20). */
  gcWorkers?: number;
  /** Deployment controller workers (--concurrent-deployment-syncs, default 5). */
  deploymentWorkers?: number;
  /** ReplicaSet workers (kube-controller-manager's --concurrent-replicaset-syncs, default 5). */
  replicaSetWorkers?: number;
  /** Job controller workers (--concurrent-job-syncs, default 5). */
  jobWorkers?: number;
  /** StatefulSet workers (kube-controller-manager's --concurrent-statefulset-syncs, default 5). */
  statefulSetWorkers?: number;
  /** DaemonSet workers (kube-controller-manager's --concurrent-daemonset-syncs, default 2). */
  daemonSetWorkers?: number;
  leaderElect?: boolean;
  leaseNamespace?: string;
  leaseName?: string;
  /** Lease timings in ms; default kube-controller-manager's 15s / 10s / 2s. */
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  /** Leader-election identity; default `<hostname>_<pid>`. */
  identity?: string;
  logger?: Logger;
  /** --use-service-account-credentials: each controller under its own identity (client-builder.ts). */
  useServiceAccountCredentials?: boolean;
  /** --root-ca-file: the bundle the root CA publisher publishes and token Secrets get (default the kubeconfig cluster's CA). */
  rootCAFile?: string;
  /** --service-account-private-key-file: the tokens controller's signing key (none: it does not run). */
  serviceAccountKeyFile?: string;
  /** --concurrent-serviceaccount-token-syncs (default 5). */
  serviceAccountTokenWorkers?: number;
  /** The namespace controller's wait before it processes a deleted namespace (default upstream's 5 s). */
  namespaceDeletionGracePeriodMs?: number;
  /** --max-endpoints-per-slice / --endpointslice-updates-batch-period. */
  maxEndpointsPerSlice?: number;
  endpointUpdatesBatchPeriodMs?: number;
  /** --mirroring-max-endpoints-per-subset / --mirroring-endpointslice-updates-batch-period. */
  mirroringMaxEndpointsPerSubset?: number;
  mirroringEndpointUpdatesBatchPeriodMs?: number;
  /**
   * --kube-api-qps and --kube-api-burst: each controller's client, the shared informers' and the
   * event sink's has a token bucket of these (upstream's client builders); none when undefined.
   */
  clientConnection?: ClientConnectionLimits;
  /** The node IPAM flags; the `nodeipam` controller runs only with `allocateNodeCIDRs`. */
  nodeIpam?: NodeIpamOptions;
  /** --node-monitor-period, --node-monitor-grace-period and the rest (default kube-controller-manager 1.33's). */
  nodeLifecycle?: Partial<NodeLifecycleConfig>;
  /** --secure-port and the rest: `/healthz` and `/metrics` over HTTPS; none when undefined. */
  serving?: ServingOptions;
  /** Called with the `host:port` they listen on. */
  onServing?: (address: string) => void;
  /** The process's metrics registry (default a new one). */
  metrics?: MetricsRegistry;
}

/** A controller that could not start (upstream's "Error starting controller"): fatal, exit 1. */
export class ControllerStartError extends Error {
  override readonly name = "ControllerStartError";
  readonly controller: string;
  constructor(controller: string, cause: unknown) {
    super(`error starting controller ${JSON.stringify(controller)}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.controller = controller;
  }
}

/** Starts the selected controllers; resolves when `signal` aborts (or leadership is lost, returning "lost"). */
export async function runControllerManager(o: RunOptions, signal: AbortSignal): Promise<"stopped" | "lost"> {
  const log = o.logger ?? noopLogger;
  // As kube-controller-manager: /healthz and /metrics are served before (and without) leadership.
  const obs = await startObservability({ ...o, logger: log });
  if (obs.server !== undefined) o.onServing?.(obs.server.address);
  try {
    return await runElected(o, signal, log, obs);
  } finally {
    await obs.server?.close();
  }
}

async function runElected(o: RunOptions, signal: AbortSignal, log: Logger, obs: Observability): Promise<"stopped" | "lost"> {
  if (o.leaderElect !== true) {
    await runControllers(o, signal, log, obs);
    return "stopped";
  }
  const identity = o.identity ?? `${hostname()}_${process.pid}`;
  const elector = new LeaderElector({
    // leaderElectionClient: rest.AddUserAgent(c.Kubeconfig, "leader-election") (cmd/kube-controller-manager/app/controllermanager.go Run).
    client: leaseLock(
      setUserAgent(withRateLimit(o.kubeConfig, { qps: -1, burst: 0 }), controllerUserAgent("leader-election")),
      o.leaseNamespace ?? "kube-system",
      o.leaseName ?? "kube-controller-manager",
    ),
    identity,
    logger: log,
    leaseDurationSeconds: (o.leaseDurationMs ?? defaultLeaseTimings.leaseDurationMs) / 1000,
    renewDeadlineSeconds: (o.renewDeadlineMs ?? defaultLeaseTimings.renewDeadlineMs) / 1000,
    retryPeriodSeconds: (o.retryPeriodMs ?? defaultLeaseTimings.retryPeriodMs) / 1000,
    name: o.leaseName ?? "kube-controller-manager",
  });
  obs.election?.setLeaderElection(elector);
  log.info("attempting to acquire leader lease", { identity });
  let running: Promise<void> = Promise.resolve();
  // A controller that cannot start ends the run (and leadership) instead of leading with nothing running.
  const inner = new AbortController();
  signal.addEventListener("abort", () => inner.abort(), { once: true });
  let failure: unknown;
  const outcome = await elector.run(inner.signal, (leading) => {
    running = runControllers(o, leading, log, obs).catch((err: unknown) => {
      failure = err;
      inner.abort();
    });
  });
  await running;
  if (failure !== undefined) throw failure instanceof Error ? failure : new Error(describeError(failure));
  return outcome;
}

async function runControllers(o: RunOptions, signal: AbortSignal, log: Logger, obs: Observability): Promise<void> {
  // Informers and events use the controller-manager's own identity (upstream's "shared-informers" client).
  const limits = o.clientConnection;
  const root = simpleClientBuilder(o.kubeConfig, limits);
  const inf = makeInformers(root.configFor("shared-informers"), { logger: log });
  // Upstream warns: another controller-manager may be making the tokens; else its builder times out.
  if (o.useServiceAccountCredentials === true && (o.serviceAccountKeyFile ?? "") === "")
    log.info("Warning: --use-service-account-credentials was specified without providing a --service-account-private-key-file");
  const cb = o.useServiceAccountCredentials ? dynamicClientBuilder(o.kubeConfig, "kube-system", limits, { logger: log }) : root;
  const workers = o.workers ?? 5;
  const used = new Set<SharedInformer<ObjectWithMeta>>();
  let informersStarted = false;
  // An informer first used once the others have started (by the garbage collector, after its discovery) starts at once.
  const use = <K extends keyof InformerSet>(k: K): InformerSet[K] => {
    if (!used.has(inf[k])) {
      used.add(inf[k]);
      if (informersStarted) inf[k].start().catch((err: unknown) => log.error("informer failed to start", { err: describeError(err) }));
    }
    return inf[k];
  };
  const runs: Promise<void>[] = [];
  const controllers: { run(signal: AbortSignal, workers: number): Promise<void>; workers?: number }[] = [];
  // Controllers that start nothing (upstream's "Skipping controller") get no health check.
  const skipped = new Set<ControllerName>();
  // One event broadcaster for the process (kube-controller-manager's), writing through the kubeconfig's client.
  const events = new EventBroadcaster({ logger: log });
  events.startRecordingToSink(clientNodeEventSink(root.configFor("kube-controller-manager")));
  events.startStructuredLogging(3);
  if (o.controllers.includes("serviceaccount-token-controller")) {
    // Upstream starts it first (requiresSpecialHandling), always with the root credentials.
    let tc: TokensController | undefined;
    try {
      tc = startServiceAccountTokenController(o, root.configFor("tokens-controller"), use, obs, log);
    } catch (err) {
      events.shutdown();
      log.error("Error starting controller", { controller: "serviceaccount-token-controller", err: describeError(err) });
      throw new ControllerStartError("serviceaccount-token-controller", err);
    }
    if (tc === undefined) skipped.add("serviceaccount-token-controller");
    else controllers.push({ run: (s) => tc.run(s, o.serviceAccountTokenWorkers ?? 5) });
  }
  if (o.controllers.includes("nodeipam") && o.nodeIpam !== undefined) {
    try {
      const ipam = await startNodeIpamController(o.nodeIpam, {
        nodes: use("nodes"),
        kubeConfig: cb.configFor("node-controller"),
        recorder: events.newRecorder({ component: "cidrAllocator" }),
        logger: log,
        queueMetrics: obs.queueMetrics,
        metrics: obs.metrics,
      });
      if (ipam !== undefined) controllers.push({ run: (s) => ipam.run(s) });
      else skipped.add("nodeipam");
    } catch (err) {
      events.shutdown();
      log.error("Error starting controller", { controller: "nodeipam", err: describeError(err) });
      throw new ControllerStartError("nodeipam", err);
    }
  }
  if (o.controllers.includes("endpoint")) {
    controllers.push(
      new EndpointsController({
        services: use("services"),
        pods: use("pods"),
        endpoints: use("endpoints"),
        client: endpointsClient(cb.configFor("endpoint-controller")),
        queue: obs.queue("endpoint"),
        logger: log,
      }),
    );
  }
  if (o.controllers.includes("endpointslice")) {
    controllers.push(
      new EndpointSliceController({
        services: use("services"),
        pods: use("pods"),
        slices: use("endpointSlices"),
        nodes: use("nodes"),
        client: endpointSliceClient(cb.configFor("endpointslice-controller")),
        queue: obs.queue("endpoint_slice"),
        metrics: newEndpointSliceMetrics(obs.metrics),
        recorder: events.newRecorder(endpointSliceControllerEventSource),
        ...(o.maxEndpointsPerSlice !== undefined ? { maxEndpointsPerSlice: o.maxEndpointsPerSlice } : {}),
        ...(o.endpointUpdatesBatchPeriodMs !== undefined ? { endpointUpdatesBatchPeriodMs: o.endpointUpdatesBatchPeriodMs } : {}),
        logger: log,
      }),
    );
  }
  if (o.controllers.includes("endpointslicemirroring")) {
    controllers.push(
      new EndpointSliceMirroringController({
        endpoints: use("endpoints"),
        services: use("services"),
        slices: use("mirroredEndpointSlices"),
        client: endpointSliceClient(
          cb.configFor("endpointslicemirroring-controller"),
          controllerUserAgent("endpointslicemirroring-controller"),
        ),
        queue: obs.queue("endpoint_slice_mirroring"),
        metrics: newEndpointSliceMirroringMetrics(obs.metrics),
        recorder: events.newRecorder(endpointSliceMirroringControllerEventSource),
        ...(o.mirroringMaxEndpointsPerSubset !== undefined ? { maxEndpointsPerSubset: o.mirroringMaxEndpointsPerSubset } : {}),
        ...(o.mirroringEndpointUpdatesBatchPeriodMs !== undefined
          ? { endpointUpdatesBatchPeriodMs: o.mirroringEndpointUpdatesBatchPeriodMs }
          : {}),
        logger: log,
      }),
    );
  }
  if (o.controllers.includes("servicecidr")) {
    controllers.push(
      new ServiceCIDRController({
        serviceCIDRs: use("serviceCIDRs"),
        ipAddresses: use("ipAddresses"),
        client: serviceCIDRClient(cb.configFor("service-cidrs-controller")),
        queue: obs.queue("servicecidrs"),
        logger: log,
      }),
    );
  }
  if (o.controllers.includes("namespace")) {
    controllers.push(
      new NamespaceController({
        namespaces: use("namespaces"),
        queueMetrics: obs.queueMetrics,
        deleter: new NamespacedResourcesDeleter({ request: newRESTClient(cb.configFor("namespace-controller")).request, logger: log }),
        logger: log,
        ...(o.namespaceDeletionGracePeriodMs !== undefined ? { deletionGracePeriodMs: o.namespaceDeletionGracePeriodMs } : {}),
      }),
    );
  }
  if (o.controllers.includes("garbagecollector")) {
    // One monitor per deletable resource found through discovery (upstream's GraphBuilder monitors): the shared
    // informer where this process has one of the resource, its own metadata informer otherwise.
    controllers.push(
      new GarbageCollectorController({
        kubeConfig: cb.configFor("generic-garbage-collector"),
        reportInvalidOwnerRef: invalidOwnerRefEventReporter(events.newRecorder(garbageCollectorEventSource)),
        logger: log,
        workers: o.gcWorkers ?? 20,
        queueMetrics: obs.queueMetrics,
        sharedInformerFor: (r) => {
          const k = typedInformerKey(r);
          return k === undefined ? undefined : use(k);
        },
      }),
    );
  }
  if (o.controllers.includes("clusterrole-aggregation")) {
    controllers.push(
      new ClusterRoleAggregationController({
        clusterRoles: use("clusterRoles"),
        client: clusterRoleClient(cb.configFor("clusterrole-aggregation-controller")),
        queue: obs.queue("ClusterRoleAggregator"),
        logger: log,
      }),
    );
  }
  if (o.controllers.includes("serviceaccount")) {
    const sc = new ServiceAccountsController({
      namespaces: use("namespaces"),
      serviceAccounts: use("serviceAccounts"),
      client: serviceAccountClient(cb.configFor("service-account-controller")),
      queue: obs.queue("serviceaccount"),
      logger: log,
    });
    // startServiceAccountController runs one worker.
    controllers.push({ run: (s) => sc.run(s, 1) });
  }
  if (o.controllers.includes("deployment")) {
    const dc = new DeploymentController({
      deployments: use("deployments"),
      replicaSets: use("replicaSets"),
      pods: use("pods"),
      client: deploymentClient(cb.configFor("deployment-controller")),
      queue: obs.queue("deployment"),
      recorder: events.newRecorder(deploymentControllerEventSource),
      logger: log,
    });
    controllers.push({ run: (s) => dc.run(s, o.deploymentWorkers ?? 5) });
  }
  if (o.controllers.includes("replicaset")) {
    const kc = cb.configFor("replicaset-controller");
    controllers.push(
      new ReplicaSetController({
        replicaSets: use("replicaSets"),
        pods: use("pods"),
        podControl: new RealPodControl(podClient(kc), events.newRecorder({ component: "replicaset-controller" })),
        client: replicaSetClient(kc),
        queue: obs.queue("replicaset"),
        workers: o.replicaSetWorkers ?? 5,
        logger: log,
      }),
    );
  }
  if (o.controllers.includes("job-controller")) {
    // startJobController: the "job-controller" identity (bootstrap role system:controller:job-controller).
    const kc = cb.configFor("job-controller");
    const recorder = events.newRecorder({ component: "job-controller" });
    const jc = new JobController({
      jobs: use("jobs"),
      pods: use("pods"),
      podControl: new RealPodControl(podClient(kc, controllerUserAgent("job-controller")), recorder),
      client: jobClient(kc),
      recorder,
      queue: obs.queue("job"),
      logger: log,
    });
    controllers.push({ run: (s) => jc.run(s, o.jobWorkers ?? 5) });
  }
  if (o.controllers.includes("cronjob-controller")) {
    // startCronJobController: the "cronjob-controller" identity, --concurrent-cron-job-syncs (default 5).
    const cj = new CronJobController({
      cronJobs: use("cronJobs"),
      jobs: use("jobs"),
      client: cronJobClient(cb.configFor("cronjob-controller")),
      recorder: events.newRecorder({ component: "cronjob-controller" }),
      queue: obs.queue("cronjob"),
      logger: log,
    });
    controllers.push({ run: (s) => cj.run(s, 5) });
  }
  if (o.controllers.includes("ttl-after-finished-controller")) {
    // startTTLAfterFinishedController: --concurrent-ttl-after-finished-syncs (default 5).
    const ttl = new TTLAfterFinishedController({
      jobs: use("jobs"),
      client: ttlJobClient(cb.configFor("ttl-after-finished-controller")),
      queue: obs.queue("ttl_jobs_to_delete"),
      logger: log,
    });
    controllers.push({ run: (s) => ttl.run(s, 5) });
  }
  if (o.controllers.includes("statefulset")) {
    // startStatefulSetController: the "statefulset-controller" identity, one recorder for its Pod and claim events.
    const kc = cb.configFor("statefulset-controller");
    const recorder = events.newRecorder(statefulSetControllerEventSource);
    const client = statefulSetClient(kc);
    const ssc = new StatefulSetController({
      statefulSets: use("statefulSets"),
      pods: use("pods"),
      revisions: use("controllerRevisions"),
      client,
      statefulPodControl: new StatefulPodControl(client, recorder),
      podControl: new RealPodControl(podClient(kc, controllerUserAgent("statefulset-controller")), recorder),
      queue: obs.queue("statefulset"),
      logger: log,
    });
    controllers.push({ run: (s) => ssc.run(s, o.statefulSetWorkers ?? 5) });
  }
  if (o.controllers.includes("daemonset")) {
    // startDaemonSetController: the "daemon-set-controller" identity.
    const kc = cb.configFor("daemon-set-controller");
    const recorder = events.newRecorder(daemonSetControllerEventSource);
    const dsc = new DaemonSetController({
      daemonSets: use("daemonSets"),
      pods: use("pods"),
      nodes: use("nodes"),
      revisions: use("controllerRevisions"),
      client: daemonSetClient(kc),
      podControl: new RealPodControl(podClient(kc, controllerUserAgent("daemon-set-controller")), recorder),
      recorder,
      queue: obs.queue("daemonset"),
      logger: log,
    });
    controllers.push({ run: (s) => dsc.run(s, o.daemonSetWorkers ?? 2) });
  }
  if (o.controllers.includes("node-lifecycle-controller")) {
    // startNodeLifecycleController: the "node-controller" identity (bootstrap role system:controller:node-controller).
    const nlc = new NodeLifecycleController({
      nodes: use("nodes"),
      pods: use("pods"),
      leases: use("nodeLeases"),
      client: nodeLifecycleClient(cb.configFor("node-controller")),
      recorder: events.newRecorder({ component: "node-controller" }),
      ...(o.nodeLifecycle !== undefined ? { config: o.nodeLifecycle } : {}),
      queue: obs.queue("node_lifecycle_controller"),
      podQueue: obs.queue("node_lifecycle_controller_pods"),
      logger: log,
    });
    controllers.push({ run: (s) => nlc.run(s) });
  }
  if (o.controllers.includes("taint-eviction-controller")) {
    // startTaintEvictionController: "taint-manager uses existing cluster role from node-controller".
    const tec = new TaintEvictionController({
      nodes: use("nodes"),
      pods: use("pods"),
      client: taintEvictionClient(cb.configFor("node-controller")),
      recorder: events.newRecorder({ component: taintEvictionControllerName }),
      metrics: newTaintEvictionMetrics(obs.metrics),
      nodeQueue: obs.queue("noexec_taint_node"),
      podQueue: obs.queue("noexec_taint_pod"),
      logger: log,
    });
    controllers.push({ run: (s) => tec.run(s) });
  }
  if (o.controllers.includes("root-ca-certificate-publisher-controller")) {
    // startRootCACertPublisher: the "root-ca-cert-publisher" identity (bootstrap role system:controller:root-ca-cert-publisher).
    const kc = cb.configFor("root-ca-cert-publisher");
    let rootCA: string;
    try {
      rootCA = rootCABundle(o.rootCAFile ?? "", kc);
    } catch (err) {
      events.shutdown();
      log.error("Error starting controller", { controller: "root-ca-certificate-publisher-controller", err: describeError(err) });
      throw new ControllerStartError("root-ca-certificate-publisher-controller", err);
    }
    const pub = new Publisher({
      configMaps: use("configMaps"),
      namespaces: use("namespaces"),
      client: publisherClient(kc),
      rootCA,
      queue: obs.queue("root_ca_cert_publisher"),
      logger: log,
    });
    controllers.push({ run: (s) => pub.run(s, 1) });
  }
  if (o.controllers.includes("disruption")) {
    // startDisruptionController: the "disruption-controller" identity (system:controller:disruption-controller).
    const dc = new DisruptionController({
      pdbs: use("podDisruptionBudgets"),
      pods: use("pods"),
      replicaSets: use("replicaSets"),
      deployments: use("deployments"),
      client: disruptionClient(cb.configFor("disruption-controller")),
      recorder: events.newRecorder({ component: "controllermanager" }),
      queue: obs.queue("disruption"),
      stalePodDisruptionQueue: obs.queue("stale_pod_disruption"),
      logger: log,
    });
    // Run starts one worker (disruption.go Run: `go wait.UntilWithContext(ctx, dc.worker, time.Second)`).
    controllers.push({ run: (s) => dc.run(s, 1) });
  }
  for (const c of controllers)
    runs.push(c.run(signal, c.workers ?? workers).catch((err: unknown) => log.error("controller failed", { err: describeError(err) })));
  obs.controllersStarted(o.controllers.filter((c) => !skipped.has(c) && (c !== "nodeipam" || o.nodeIpam !== undefined)));
  // Informers start after every handler is registered, so no event is missed.
  informersStarted = true;
  await Promise.all(
    [...used].map((i) => i.start().catch((err: unknown) => log.error("informer failed to start", { err: describeError(err) }))),
  );
  await Promise.all(runs);
  events.shutdown();
  await Promise.all([...used].map((i) => i.stop()));
  log.info("informers stopped");
}
