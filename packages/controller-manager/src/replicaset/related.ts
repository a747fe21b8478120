/**
 * The lookups of pkg/controller/replicaset/replica_set.go between Pods and ReplicaSets:
 * `getPodReplicaSets` (which ReplicaSets select an orphan), `getReplicaSetsWithSameController` and
 * `getIndirectlyRelatedPods` (the siblings under one Deployment and their Pods, for the
 * scale-down ranking), and `controller.FilterActivePods`.
 */
import { everything, labelSelectorAsSelector, type LabelSelector, type Pod, type ReplicaSet } from "@servicenet/api";
import { listAllByNamespace, metaNamespaceKey, type IndexInformer } from "@servicenet/client/tools/cache";
import { noopLogger, V, type Logger } from "@servicenet/component-base/logs";
import { getControllerOf } from "../controller/controller-ref-manager.ts";
import { isPodActive } from "../controller/controller-utils.ts";
import { controllerUIDIndex } from "../controller/pod-index.ts";

/** `controller.PodKey`. */
export const podKey = (pod: Pod): string => `${pod.metadata.namespace ?? ""}/${pod.metadata.name ?? ""}`;

const emptySelector = (s: LabelSelector | undefined) =>
  Object.keys(s?.matchLabels ?? {}).length === 0 && (s?.matchExpressions ?? []).length === 0;

/** `GetPodReplicaSets`: the ReplicaSets of the Pod's namespace whose (non-empty) selector matches it. */
export function getPodReplicaSets(replicaSets: IndexInformer<ReplicaSet>, pod: Pod, log: Logger = noopLogger): ReplicaSet[] {
  const labels = pod.metadata.labels ?? {};
  if (Object.keys(labels).length === 0) return [];
  // The lister's ReplicaSets(pod.Namespace).List(labels.Everything()): one namespace, through its index.
  const rss = listAllByNamespace(replicaSets, pod.metadata.namespace ?? "", everything).filter((rs) => {
    if (emptySelector(rs.spec.selector)) return false;
    try {
      return labelSelectorAsSelector(rs.spec.selector)(labels);
    } catch {
      return false;
    }
  });
  if (rss.length > 1) log.error("user error! more than one ReplicaSet is selecting pods with labels", { labels, pod: podKey(pod) });
  return rss;
}

/** `getReplicaSetsWithSameController`: through the `controllerUID` index; none (and an error logged) without a controller. */
export function getReplicaSetsWithSameController(
  replicaSets: IndexInformer<ReplicaSet>,
  rs: ReplicaSet,
  log: Logger = noopLogger,
): ReplicaSet[] {
  const ref = getControllerOf(rs);
  if (ref === undefined) {
    log.error("ReplicaSet has no controller", { replicaSet: metaNamespaceKey(rs) });
    return [];
  }
  const related = replicaSets.byIndex(controllerUIDIndex, ref.uid);
  V(log, 2).info("Found related ReplicaSets", { replicaSet: metaNamespaceKey(rs), relatedReplicaSets: related.map(metaNamespaceKey) });
  return related;
}

/** `getIndirectlyRelatedPods`: the Pods selected by any ReplicaSet under the same controller, each once. */
export function getIndirectlyRelatedPods(
  pods: IndexInformer<Pod>,
  replicaSets: IndexInformer<ReplicaSet>,
  rs: ReplicaSet,
  log: Logger = noopLogger,
): Pod[] {
  const seen = new Set<string>();
  const related: Pod[] = [];
  for (const other of getReplicaSetsWithSameController(replicaSets, rs, log)) {
    let matches;
    try {
      matches = labelSelectorAsSelector(other.spec.selector);
    } catch {
      continue; // an invalid selector matches no Pods
    }
    for (const pod of listAllByNamespace(pods, other.metadata.namespace ?? "", matches)) {
      if (seen.has(pod.metadata.uid ?? "")) continue;
      seen.add(pod.metadata.uid ?? "");
      related.push(pod);
    }
  }
  V(log, 4).info("Found related pods", { replicaSet: metaNamespaceKey(rs), pods: related.map(podKey) });
  return related;
}

/** `controller.FilterActivePods`: without Succeeded, Failed and terminating Pods. */
export function filterActivePods(pods: readonly Pod[], logger: Logger = noopLogger): Pod[] {
  return pods.filter((p) => {
    const active = isPodActive(p);
    if (!active)
      V(logger, 4).info("Ignoring inactive pod", { pod: podKey(p), phase: p.status?.phase, deletionTime: p.metadata.deletionTimestamp });
    return active;
  });
}
