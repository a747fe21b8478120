/**
 * The informers' event handlers (pkg/scheduler/eventhandlers.go `addAllEventHandlers`): bound Pods
 * and Nodes feed the cache, unbound Pods of this scheduler feed the scheduling queue, and the
 * events that can make a rejected Pod fit move the unschedulable Pods.
 */
import { isDeepStrictEqual } from "node:util";
import type { Node, Pod } from "@servicenet/api";
import type { Informer } from "@servicenet/client/tools/cache";
import type { SchedulerCache } from "./backend/cache/cache.ts";
import type { SchedulingQueue } from "./backend/queue/scheduling-queue.ts";
import { podPriority } from "./framework/plugins/queuesort/priority-sort.ts";

export interface EventHandlerOptions {
  pods: Informer<Pod>;
  nodes: Informer<Node>;
  cache: SchedulerCache;
  queue: SchedulingQueue;
  /** True for a Pod this scheduler is to place (unbound, its schedulerName, not being deleted). */
  responsibleForPod: (p: Pod) => boolean;
}

/** `namespace/name`, the queue's key of a Pod. */
export const podKey = (p: Pod): string => `${p.metadata.namespace ?? ""}/${p.metadata.name ?? ""}`;

const assigned = (p: Pod) => (p.spec.nodeName ?? "") !== "";

/** Registers the Pod and Node handlers on the informers. */
export function addAllEventHandlers(o: EventHandlerOptions): void {
  const { cache, queue } = o;
  o.pods.addEventHandler({
    onAdd: (p) => {
      if (assigned(p)) cache.addPod(p);
      else if (o.responsibleForPod(p)) queue.add(podKey(p), podPriority(p));
    },
    onUpdate: (old, p) => updatePod(o, old, p),
    onDelete: (p) => {
      queue.delete(podKey(p));
      // An assigned Pod's deletion frees room on its Node (EventAssignedPodDelete).
      if (cache.isPlaced(p)) {
        cache.removePod(p);
        queue.moveAllToActiveOrBackoffQueue();
      }
    },
  });
  o.nodes.addEventHandler({
    onAdd: (n) => {
      cache.setNode(n);
      queue.moveAllToActiveOrBackoffQueue();
    },
    onUpdate: (old, n) => {
      cache.setNode(n);
      // The Node changes a filter looks at (nodeSchedulingPropertiesChange); not heartbeats or conditions.
      if (
        !isDeepStrictEqual(old.spec, n.spec) ||
        !isDeepStrictEqual(old.metadata.labels, n.metadata.labels) ||
        !isDeepStrictEqual(old.status?.allocatable, n.status?.allocatable)
      )
        queue.moveAllToActiveOrBackoffQueue();
    },
    onDelete: (n) => cache.removeNode(n),
  });
}

function updatePod({ cache, queue, responsibleForPod }: EventHandlerOptions, old: Pod, p: Pod): void {
  const key = podKey(p);
  if (assigned(p)) {
    cache.addPod(p);
    queue.delete(key);
    if (old.metadata.deletionTimestamp === undefined && p.metadata.deletionTimestamp !== undefined) queue.moveAllToActiveOrBackoffQueue();
    return;
  }
  if (!responsibleForPod(p)) {
    queue.delete(key);
    return;
  }
  // A Pod waiting as unschedulable comes back only for a change that could make it fit (isPodUpdated: not its own status).
  if (queue.isUnschedulable(key) && isDeepStrictEqual(old.spec, p.spec) && isDeepStrictEqual(old.metadata.labels, p.metadata.labels))
    return;
  queue.update(key, podPriority(p));
}
