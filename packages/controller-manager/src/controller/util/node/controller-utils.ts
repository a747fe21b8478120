/**
 * The node helpers of pkg/controller/util/node/controller_utils.go (MarkPodsNotReady,
 * RecordNodeStatusChange, GetNodeCondition) and the taint swap of pkg/controller/controller_utils.go
 * (SwapNodeControllerTaint, AddOrUpdateTaintOnNode, RemoveTaintOffNode, PatchNodeTaints).
 */
import { formatTime, type Node, type NodeCondition, type Pod, type PodCondition, type Taint } from "@servicenet/api";
import { describeError, isConflict, isNotFound } from "@servicenet/client/errors";
import { getReference, type EventRecorder } from "@servicenet/client/tools/record";
import { noopLogger, V, type Logger } from "@servicenet/component-base/logs";

/** The API calls the node lifecycle helpers make. */
export interface NodeLifecycleClient {
  getNode(name: string): Promise<Node>;
  /** `PatchNodeTaints`: `spec.taints` replaced, guarded by the resourceVersion they were computed from. */
  patchNodeTaints(name: string, resourceVersion: string, taints: Taint[]): Promise<void>;
  updateNodeStatus(node: Node): Promise<Node>;
  updatePodStatus(pod: Pod): Promise<Pod>;
}

/** `GetNodeCondition`: the condition of `type`, or undefined. */
export function getNodeCondition(node: Node, type: string): NodeCondition | undefined {
  return node.status?.conditions?.find((c) => c.type === type);
}

// RecordNodeStatusChange's reference: APIVersion v1, the Node's name and UID.
const nodeRef = (node: Node) => ({
  apiVersion: "v1",
  kind: "Node",
  name: node.metadata.name ?? "",
  uid: node.metadata.uid ?? "",
  namespace: "",
});

/** `RecordNodeStatusChange`: a Normal event on the Node ("Node <name> status is now: <status>"). */
export function recordNodeStatusChange(recorder: EventRecorder, node: Node, newStatus: string): void {
  recorder.event(nodeRef(node), "Normal", newStatus, `Node ${node.metadata.name ?? ""} status is now: ${newStatus}`);
}

/**
 * `podutil.UpdatePodCondition` (pkg/api/v1/pod/util.go): sets the condition; the transition time
 * only moves when the status does. Returns whether anything changed.
 */
export function updatePodCondition(pod: Pod, condition: PodCondition, now: number): boolean {
  const status = (pod.status ??= {});
  const conditions = (status.conditions ??= []);
  const c: PodCondition = { ...condition, lastTransitionTime: formatTime(new Date(now)) };
  const i = conditions.findIndex((x) => x.type === c.type);
  const old = conditions[i];
  if (old === undefined) {
    conditions.push(c);
    return true;
  }
  if (c.status === old.status) c.lastTransitionTime = old.lastTransitionTime;
  const equal =
    c.status === old.status &&
    c.reason === old.reason &&
    c.message === old.message &&
    c.lastProbeTime === old.lastProbeTime &&
    c.lastTransitionTime === old.lastTransitionTime;
  conditions[i] = c;
  return !equal;
}

/**
 * `MarkPodsNotReady`: the Ready condition of every Pod bound to `nodeName` set to False through
 * pods/status, with a `NodeNotReady` Warning event; Pods already gone are skipped.
 * @throws Error aggregating the failed updates.
 */
export async function markPodsNotReady(
  client: NodeLifecycleClient,
  recorder: EventRecorder,
  pods: readonly Pod[],
  nodeName: string,
  now: number,
  log: Logger = noopLogger,
): Promise<void> {
  V(log, 2).info("Update ready status of pods on node", { node: nodeName });
  const errs: string[] = [];
  for (const p of pods) {
    if (p.spec.nodeName !== nodeName) continue;
    const pod = structuredClone(p);
    const ready = pod.status?.conditions?.find((c) => c.type === "Ready");
    if (ready === undefined) continue;
    if (!updatePodCondition(pod, { ...ready, status: "False" }, now)) continue;
    V(log, 2).info("Updating ready status of pod to false", { pod: `${pod.metadata.namespace ?? ""}/${pod.metadata.name ?? ""}` });
    try {
      await client.updatePodStatus(pod);
    } catch (err) {
      if (isNotFound(err)) continue;
      log.info("Failed to update status for pod", { pod: pod.metadata.name, err: describeError(err) });
      errs.push(describeError(err));
      continue;
    }
    // Recorded after the update, so the Pod is known to still exist.
    recorder.event(getReference(pod, "Pod", "v1"), "Warning", "NodeNotReady", "Node is not ready");
  }
  if (errs.length > 0) throw new Error(errs.length === 1 ? errs[0] : `[${errs.join(", ")}]`);
}

/** `Taint.MatchTaint`: same key and effect. */
export const matchTaint = (a: Taint, b: Taint): boolean => a.key === b.key && a.effect === b.effect;

/** `taintutils.TaintExists`. */
export const taintExists = (taints: readonly Taint[] | undefined, t: Taint): boolean => (taints ?? []).some((x) => matchTaint(x, t));

/** The taints after adding (or updating) `add` and removing `remove` (AddOrUpdateTaint / DeleteTaint). */
export function swappedTaints(current: readonly Taint[], add: readonly Taint[], remove: readonly Taint[]): Taint[] {
  let out = current.filter((t) => !remove.some((r) => matchTaint(r, t)));
  for (const a of add) out = [...out.filter((t) => !matchTaint(t, a)), a];
  return out;
}

/** upstream's `UpdateTaintBackoff`: 5 steps. */
const updateTaintSteps = 5;

/**
 * `SwapNodeControllerTaint`: adds `add` (each stamped with `timeAdded` now) and removes `remove`,
 * retrying conflicts on a fresh Node. Returns false (after logging) when it could not.
 */
export async function swapNodeControllerTaint(
  client: NodeLifecycleClient,
  add: readonly Taint[],
  remove: readonly Taint[],
  node: Node,
  now: number,
  log: Logger = noopLogger,
): Promise<boolean> {
  const stamped = add.map((t) => ({ ...t, timeAdded: formatTime(new Date(now)) }));
  const name = node.metadata.name ?? "";
  let current = node;
  for (let step = 0; step < updateTaintSteps; step++) {
    try {
      // The first try uses the cached Node (upstream reads it with ResourceVersion "0").
      if (step > 0) current = await client.getNode(name);
      const taints = current.spec.taints ?? [];
      const next = swappedTaints(taints, stamped, remove);
      const unchanged = next.length === taints.length && next.every((t, i) => JSON.stringify(t) === JSON.stringify(taints[i]));
      if (unchanged) return true;
      await client.patchNodeTaints(name, current.metadata.resourceVersion ?? "", next);
      V(log, 4).info("Added/removed taints to/from Node", {
        taintsToAdd: stamped.map((t) => t.key),
        taintsToRemove: remove.map((t) => t.key),
        node: name,
      });
      return true;
    } catch (err) {
      if (isConflict(err) && step < updateTaintSteps - 1) continue;
      log.error("Failed to swap taints of Node", { node: name, err: describeError(err) });
      return false;
    }
  }
  return false;
}
