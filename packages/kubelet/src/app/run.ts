/**
 * One servicenet-kubelet process running many Nodes, as kwok does, wired as a kubelet is
 * (cmd/kubelet/app/server.go `RunKubelet`): register the Nodes, then one shared Node informer
 * and one shared Pod informer (`spec.nodeName!=`: every bound Pod) for the whole process, the pod
 * workers, and the node lease controller. Everything goes over HTTP with the kubeconfig.
 */
import { CoreV1Api, type KubeConfig } from "@kubernetes/client-node";
import { NodeSchema, PodSchema, type Node, type Pod } from "@servicenet/api";
import { describeError } from "@servicenet/client/errors";
import {
  newRESTClient,
  setUserAgent,
  toPlain,
  withRateLimit,
  type ClientConnectionLimits,
  type RESTClient,
  defaultKubernetesUserAgent,
} from "@servicenet/client/rest";
import { setConnectionLimits } from "@servicenet/client/tools/clientcmd";
import { SharedInformer, type PlainList } from "@servicenet/client/tools/cache";
import { realClock, sleep, type Clock } from "@servicenet/component-base/clock";
import { noopLogger, V, type Logger } from "@servicenet/component-base/logs";
import { heartbeatTimeoutMs, nodeSockets, processClientLimits } from "./client-connection.ts";
import type { KubeletMetrics } from "../kubelet/metrics/metrics.ts";
import { NodeLeaseController } from "../kubelet/nodelease/controller.ts";
import { forEachLimited, registerNode } from "../kubelet/node-registration.ts";
import { NodeSet } from "../kubelet/node-set.ts";
import {
  defaultNodeStatusReportFrequencyMs,
  defaultNodeStatusUpdateFrequencyMs,
  NodeStatusUpdater,
} from "../kubelet/node-status-updater.ts";
import { podClient } from "../kubelet/pod-client.ts";
import { PodWorkers } from "../kubelet/pod-workers.ts";
import { rfc3339 } from "../kubelet/status/time.ts";
import { defaultNodeLeaseDurationSeconds, nodeIPs, nodeName, simulatedNode, type SimulatedNodeOptions } from "../nodestatus/setters.ts";

export interface RunOptions {
  kubeConfig: KubeConfig;
  nodes: number;
  node: SimulatedNodeOptions;
  /** The only Node's name (--hostname-override, with one Node). */
  hostnameOverride?: string;
  workers?: number;
  clock?: Clock;
  logger?: Logger;
  /** Called once every Node is registered and the informers have synced. */
  onReady?: (k: RunningKubelet) => void;
  leaseRenewIntervalMs?: number;
  /**
   * --kube-api-qps and --kube-api-burst of each Node's main client (registration, informers, Pod
   * writes), one bucket for all Nodes (client-connection.ts); not throttled when undefined. Leases
   * go through the heartbeat client, never throttled.
   */
  clientConnection?: ClientConnectionLimits;
  /** The kubelet's metrics (served on the read-only port); none when undefined. */
  metrics?: KubeletMetrics;
}

/** What a running process exposes (tests and the bench read it). */
export interface RunningKubelet {
  nodeNames: string[];
  workers: PodWorkers;
  leases: NodeLeaseController;
  statuses: NodeStatusUpdater;
  /**
   * Node `name`'s kubelet dies, as a machine that lost power or network: no more Lease renewals,
   * status reports or Pod status writes. What the node lifecycle controller then does is the point.
   */
  stopNode(name: string): void;
}

/** The Nodes' names, in index order. */
export function nodeNamesOf(o: Pick<RunOptions, "nodes" | "node" | "hostnameOverride">): string[] {
  return Array.from({ length: o.nodes }, (_, i) => (o.hostnameOverride ? o.hostnameOverride : nodeName(o.node, i)));
}

async function registerAll(o: RunOptions, kubeConfig: KubeConfig, names: string[], signal: AbortSignal, log: Logger): Promise<Node[]> {
  const rest = newRESTClient(kubeConfig, { userAgent: defaultKubernetesUserAgent("kubelet") });
  const clock = o.clock ?? realClock;
  const out: Node[] = [];
  await forEachLimited(names, 16, async (name, i) => {
    // As the kubelet: retry registration until it works (the apiserver may still be starting).
    for (let delay = 100; !signal.aborted; delay = Math.min(delay * 2, 7000)) {
      try {
        out[i] = await registerNode(rest, simulatedNode(o.node, i, rfc3339(clock.now()), name));
        V(log, 2).info("Successfully registered node", { node: name });
        return;
      } catch (err) {
        log.error("Unable to register node with API server", { node: name, err: describeError(err) });
        await sleep(clock, delay, signal);
      }
    }
  });
  return out;
}

// Node status updates through the heartbeat client (never throttled), against the informer's Nodes.
function nodeStatusUpdater(o: RunOptions, heartbeat: RESTClient, nodes: SharedInformer<Node>, log: Logger): NodeStatusUpdater {
  const clock = o.clock ?? realClock;
  return new NodeStatusUpdater({
    clock,
    logger: log,
    get: (name) => nodes.get(name),
    owned: (i, name) => {
      const { conditions: _, ...owned } = simulatedNode(o.node, i, rfc3339(clock.now()), name).status ?? {};
      return owned;
    },
    patchStatus: (name, patch) =>
      heartbeat.request("PATCH", `/api/v1/nodes/${encodeURIComponent(name)}/status`, patch, "application/strategic-merge-patch+json"),
  });
}

/** Runs the kubelet until `signal` aborts. */
export async function runKubelet(o: RunOptions, signal: AbortSignal): Promise<void> {
  const log = o.logger ?? noopLogger;
  const names = nodeNamesOf(o);
  const unthrottled = { qps: -1, burst: 0 };
  // Every clientset of the kubelet carries its rest.Config's default User-Agent (kubelet/<version> ...):
  // the apiserver records the Nodes' and Pods' writes under the field manager kubelet.
  const userAgent = defaultKubernetesUserAgent("kubelet");
  const kubeConfig = setUserAgent(
    withRateLimit(o.kubeConfig, o.clientConnection ? processClientLimits(o.clientConnection, names.length) : unthrottled),
    userAgent,
  );
  // The heartbeat client (buildKubeletClientConfig: QPS -1) is a clientset of its own, with its own
  // connections: Leases never queue for a socket behind the Pods' status writes. Both pools have a
  // socket per Node, so no Node's write waits for another Node's (client-connection.ts).
  const heartbeatConfig = setUserAgent(withRateLimit(o.kubeConfig, unthrottled), userAgent);
  const sockets = nodeSockets(names.length);
  for (const kc of [kubeConfig, heartbeatConfig]) setConnectionLimits(kc, { maxSockets: sockets, maxFreeSockets: sockets });
  const registered = await registerAll(o, kubeConfig, names, signal, log);
  if (signal.aborted) return;
  const nodes = new NodeSet(names.map((name, i) => ({ name, hostIPs: nodeIPs(o.node, i) })));
  const core = kubeConfig.makeApiClient(CoreV1Api);
  const clock = o.clock ? { clock: o.clock } : {};
  const base = { kubeConfig, logger: log, ...clock };
  const nodeInformer = new SharedInformer<Node>({
    ...base,
    path: "/api/v1/nodes",
    list: async () => toPlain<PlainList<Node>>(await core.listNode(), "V1NodeList"),
    transform: (x) => NodeSchema.parse(x),
  });
  const bound = "spec.nodeName!=";
  const podInformer = new SharedInformer<Pod>({
    ...base,
    path: "/api/v1/pods",
    fieldSelector: bound,
    list: async () => toPlain<PlainList<Pod>>(await core.listPodForAllNamespaces({ fieldSelector: bound }), "V1PodList"),
    transform: (x) => PodSchema.parse(x),
  });
  const workers = new PodWorkers({
    pods: podInformer,
    nodes,
    client: podClient(kubeConfig),
    logger: log,
    ...(o.clock ? { clock: o.clock } : {}),
    ...(o.metrics ? { metrics: o.metrics } : {}),
  });
  for (const name of names) o.metrics?.nodeName.set({ node: name }, 1);
  const onNode = (n: Node) => {
    if (nodes.observe(n)) workers.enqueueNode(n.metadata.name ?? "");
  };
  nodeInformer.addEventHandler({ onAdd: onNode, onUpdate: (_old, n) => onNode(n) });
  // One heartbeat client for Leases and Node status, with upstream's timeout (client-connection.ts).
  const heartbeat = newRESTClient(heartbeatConfig, {
    timeoutMs: heartbeatTimeoutMs(defaultNodeStatusUpdateFrequencyMs, defaultNodeLeaseDurationSeconds),
  });
  const leases = new NodeLeaseController({
    kubeConfig: heartbeatConfig,
    client: heartbeat,
    logger: log,
    ...clock,
    ...(o.leaseRenewIntervalMs !== undefined ? { renewIntervalMs: o.leaseRenewIntervalMs } : {}),
  });
  for (const n of registered) leases.add(n.metadata.name ?? "", n.metadata.uid ?? "");
  leases.start();
  const statuses = nodeStatusUpdater(o, heartbeat, nodeInformer, log);
  // The Nodes' first reports spread over one report period, as Nodes registered at different times.
  const t = (o.clock ?? realClock).now();
  names.forEach((name, i) => statuses.add(name, t - Math.floor((i * defaultNodeStatusReportFrequencyMs) / names.length)));
  const running = workers.run(signal, o.workers ?? 20);
  await Promise.all([nodeInformer.start(), podInformer.start()]);
  await Promise.all([nodeInformer.waitForSync(), podInformer.waitForSync()]);
  log.info("kubelet started", { nodes: names.length });
  statuses.start();
  const stopNode = (name: string) => {
    leases.remove(name);
    statuses.remove(name);
    nodes.remove(name);
    workers.stopNode(name);
    log.info("Node's kubelet stopped", { node: name });
  };
  o.onReady?.({ nodeNames: names, workers, leases, statuses, stopNode });
  await running;
  leases.stop();
  statuses.stop();
  await Promise.all([nodeInformer.stop(), podInformer.stop()]);
}
