/**
 * kube-scheduler wired as cmd/kube-scheduler/app does it, for the default profile: shared
 * informers for Nodes, Services and the Pods that are not terminal (upstream's
 * `status.phase!=Succeeded,status.phase!=Failed`), the cache and the scheduling queue fed by
 * them (pkg/scheduler/eventhandlers.go), one scheduling loop, asynchronous binding, and the
 * process's one event broadcaster (`default-scheduler`). Everything goes over HTTP.
 */
import { CoreV1Api, type KubeConfig } from "@kubernetes/client-node";
import { NodeSchema, PodSchema, ServiceSchema, type Node, type Pod, type Service } from "@servicenet/api";
import { describeError, isNotFound } from "@servicenet/client/errors";
import {
  newRESTClient,
  toPlain,
  setUserAgent,
  withRateLimit,
  type ClientConnectionLimits,
  defaultKubernetesUserAgent,
  addUserAgent,
} from "@servicenet/client/rest";
import { GenericLister, SharedInformer, waitForCacheSync, type PlainList } from "@servicenet/client/tools/cache";
import { clientNodeEventSink, EventBroadcaster, getReference, type EventRecorder } from "@servicenet/client/tools/record";
import { realClock, type Clock } from "@servicenet/component-base/clock";
import { noopLogger, V, type Logger } from "@servicenet/component-base/logs";
import { SchedulingQueue } from "../backend/queue/scheduling-queue.ts";
import { addAllEventHandlers, podKey as keyOf } from "../eventhandlers.ts";
import { defaultProfile, serviceSelector } from "../framework/plugins/registry.ts";
import { Algorithm } from "../scheduler.ts";
import { unschedulablePatch } from "./pod-condition.ts";

/**
 * The scheduler's clientConnection QPS and Burst defaults (pkg/scheduler/apis/config/v1/defaults.go
 * `SetDefaults_KubeSchedulerConfiguration`): bindings beyond the burst go out at 50 a second.
 */
export const defaultClientQPS = 50;
export const defaultClientBurst = 100;

/** clientConnection's QPS and Burst of the scheduler's client (its informers, bindings and status writes). */
export function clientConnection(o: Pick<RunOptions, "qps" | "burst">): ClientConnectionLimits {
  return { qps: o.qps ?? defaultClientQPS, burst: o.burst ?? defaultClientBurst };
}

/** `v1.DefaultSchedulerName`. */
export const defaultSchedulerName = "default-scheduler";

export interface RunOptions {
  kubeConfig: KubeConfig;
  /** Pods with this `spec.schedulerName` are ours (default `default-scheduler`). */
  schedulerName?: string;
  clock?: Clock;
  logger?: Logger;
  /** clientConnection.qps and .burst of the scheduler's client (default 50 and 100). */
  qps?: number;
  burst?: number;
  /** Called once the informers have synced. */
  onReady?: (s: { algorithm: Algorithm }) => void;
}

const podPath = (p: Pod) =>
  `/api/v1/namespaces/${encodeURIComponent(p.metadata.namespace ?? "")}/pods/${encodeURIComponent(p.metadata.name ?? "")}`;

/** Runs the scheduler until `signal` aborts. */
export async function runScheduler(o: RunOptions, signal: AbortSignal): Promise<void> {
  const log = o.logger ?? noopLogger;
  const clock = o.clock ?? realClock;
  const name = o.schedulerName ?? defaultSchedulerName;
  // One clientset for the informers and the writes (createClients in cmd/kube-scheduler/app/options);
  // the throttle runs on the real clock: it paces requests on the wire, whatever clock tests step.
  // Both clientsets carry rest.AddUserAgent(kubeConfig, "scheduler"): the apiserver records the
  // scheduler's writes under the field manager kube-scheduler.
  const userAgent = addUserAgent(defaultKubernetesUserAgent("kube-scheduler"), "scheduler");
  const kubeConfig = setUserAgent(withRateLimit(o.kubeConfig, clientConnection(o)), userAgent);
  const core = kubeConfig.makeApiClient(CoreV1Api);
  const rest = newRESTClient(kubeConfig);
  const base = { kubeConfig, logger: log, clock };
  const nonTerminal = "status.phase!=Succeeded,status.phase!=Failed";
  const pods = new SharedInformer<Pod>({
    ...base,
    path: "/api/v1/pods",
    fieldSelector: nonTerminal,
    list: async () => toPlain<PlainList<Pod>>(await core.listPodForAllNamespaces({ fieldSelector: nonTerminal }), "V1PodList"),
    transform: (x) => PodSchema.parse(x),
  });
  const nodes = new SharedInformer<Node>({
    ...base,
    path: "/api/v1/nodes",
    list: async () => toPlain<PlainList<Node>>(await core.listNode(), "V1NodeList"),
    transform: (x) => NodeSchema.parse(x),
  });
  const services = new SharedInformer<Service>({
    ...base,
    path: "/api/v1/services",
    list: async () => toPlain<PlainList<Service>>(await core.listServiceForAllNamespaces(), "V1ServiceList"),
    transform: (x) => ServiceSchema.parse(x),
  });
  const algorithm = new Algorithm(defaultProfile(serviceSelector(new GenericLister(services))));
  const cache = algorithm.cache;
  const queue = new SchedulingQueue({ clock });
  const events = new EventBroadcaster({ logger: log, clock });
  // The event client is a clientset of its own (createClients' eventClient): a bucket of its own.
  events.startRecordingToSink(clientNodeEventSink(setUserAgent(withRateLimit(o.kubeConfig, clientConnection(o)), userAgent)));
  const recorder: EventRecorder = events.newRecorder({ component: name });

  const ours = (p: Pod) =>
    (p.spec.nodeName ?? "") === "" &&
    ((p.spec["schedulerName"] as string | undefined) ?? defaultSchedulerName) === name &&
    p.metadata.deletionTimestamp === undefined;
  addAllEventHandlers({ pods, nodes, cache, queue, responsibleForPod: ours });

  const bind = async (pod: Pod, node: string, cycle: number) => {
    try {
      await rest.request("POST", `${podPath(pod)}/binding`, {
        apiVersion: "v1",
        kind: "Binding",
        metadata: { name: pod.metadata.name, namespace: pod.metadata.namespace, uid: pod.metadata.uid },
        target: { apiVersion: "v1", kind: "Node", name: node },
      });
      queue.delete(keyOf(pod));
      recorder.event(getReference(pod, "Pod", "v1"), "Normal", "Scheduled", `Successfully assigned ${keyOf(pod)} to ${node}`);
    } catch (err) {
      // `handleBindingCycleError`: forget the assumed Pod, which frees its Node as a Pod deletion
      // would (so the unschedulable Pods are tried again), and retry it after a backoff.
      cache.removePod(pod);
      queue.moveAllToActiveOrBackoffQueue();
      if (isNotFound(err)) {
        queue.delete(keyOf(pod));
        return;
      }
      log.error("Error scheduling pod; retrying", { pod: keyOf(pod), err: describeError(err) });
      queue.addUnschedulableIfNotPresent(keyOf(pod), cycle, false);
    }
  };

  const failed = async (pod: Pod, message: string, cycle: number) => {
    const key = keyOf(pod);
    V(log, 2).info("Unable to schedule pod; no fit; waiting", { pod: key, err: message });
    recorder.event(getReference(pod, "Pod", "v1"), "Warning", "FailedScheduling", message);
    queue.addUnschedulableIfNotPresent(key, cycle, true);
    const patch = unschedulablePatch(pod, message, clock.now());
    if (patch === undefined) return;
    try {
      await rest.request("PATCH", `${podPath(pod)}/status`, patch, "application/merge-patch+json");
    } catch (err) {
      if (!isNotFound(err)) log.error("Error updating pod", { pod: key, err: describeError(err) });
    }
  };

  const loop = async () => {
    for (;;) {
      const popped = await queue.pop();
      if (popped === undefined) return;
      const { key, cycle } = popped;
      try {
        const pod = pods.get(key);
        if (pod === undefined || !ours(pod) || cache.isPlaced(pod)) continue;
        const result = algorithm.schedule(pod);
        if ("node" in result) {
          cache.addPod(pod, result.node);
          void bind(pod, result.node, cycle);
        } else await failed(pod, result.error, cycle);
      } finally {
        queue.done(key);
      }
    }
  };

  signal.addEventListener("abort", () => queue.shutDown(), { once: true });
  const informers = [nodes, services, pods];
  await Promise.all(informers.map((i) => i.start()));
  // cmd/kube-scheduler/app/server.go Run: WaitForCacheSync before sched.Run starts the queue and
  // the loop, or a Pod listed before the Nodes would be found to fit nowhere.
  if (await waitForCacheSync(signal, informers)) {
    log.info("scheduler started", { nodes: cache.size });
    o.onReady?.({ algorithm });
    await Promise.all([loop(), queue.run(signal)]);
  }
  events.shutdown();
  await Promise.all(informers.map((i) => i.stop()));
}
