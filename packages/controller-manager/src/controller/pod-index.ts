/**
 * The Pod and controller indexes of pkg/controller/controller_utils.go (`PodControllerUIDIndex`,
 * `FilterPodsByOwner`) and pkg/controller/replicaset (`controllerUIDIndex`): a workload controller
 * finds its own Pods (and the orphans it might adopt) without scanning its namespace.
 */
import type { OwnerReference, Pod, ReplicaSet } from "@servicenet/api";
import type { IndexInformer } from "@servicenet/client/tools/cache";

/** `PodControllerUIDIndex`: Pods by their controller's uid, orphans by namespace. */
export const podControllerUIDIndex = "podControllerUID";

/** `controllerUIDIndex`: controllers (ReplicaSets) by the uid of their own controller (a Deployment). */
export const controllerUIDIndex = "controllerUID";

/** `OrphanPodIndexKey`. */
export const orphanPodIndexKey = "_ORPHAN_POD";

/** `OrphanPodIndexKeyForNamespace`. */
export const orphanPodIndexKeyForNamespace = (namespace: string): string => `${orphanPodIndexKey}/${namespace}`;

const controllerOf = (o: { metadata: { ownerReferences?: OwnerReference[] | undefined } }) =>
  o.metadata.ownerReferences?.find((r) => r.controller === true);

/** The index function `AddPodControllerUIDIndexer` adds. */
export function podControllerUIDIndexFunc(pod: Pod): string[] {
  const ref = controllerOf(pod);
  return [ref !== undefined ? ref.uid : orphanPodIndexKeyForNamespace(pod.metadata.namespace ?? "")];
}

/** The ReplicaSet informer's `controllerUIDIndex` function: nothing for a ReplicaSet without a controller. */
export function controllerUIDIndexFunc(rs: ReplicaSet): string[] {
  const ref = controllerOf(rs);
  return ref === undefined ? [] : [ref.uid];
}

/**
 * `FilterPodsByOwner`: the Pods controlled by `owner` and, with `includeOrphanedPods`, the orphans
 * of its namespace.
 * @throws Error without an owner namespace or uid, as upstream.
 */
export function filterPodsByOwner(
  pods: IndexInformer<Pod>,
  owner: { namespace?: string | undefined; uid?: string | undefined },
  includeOrphanedPods: boolean,
): Pod[] {
  if ((owner.namespace ?? "") === "") throw new Error("no owner namespace provided");
  if ((owner.uid ?? "") === "") throw new Error("no owner uid provided");
  const keys = [owner.uid!, ...(includeOrphanedPods ? [orphanPodIndexKeyForNamespace(owner.namespace!)] : [])];
  return keys.flatMap((k) => pods.byIndex(podControllerUIDIndex, k));
}

/** `nodeNameKeyIndex` (pkg/controller/nodelifecycle): Pods by the Node they are bound to; unbound Pods are not indexed. */
export const podNodeNameIndex = "spec.nodeName";

/** The index function of `podNodeNameIndex`. */
export function podNodeNameIndexFunc(pod: Pod): string[] {
  const node = pod.spec.nodeName ?? "";
  return node === "" ? [] : [node];
}
