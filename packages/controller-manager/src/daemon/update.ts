/**
 * pkg/controller/daemon/update.go: a DaemonSet's history (constructHistory, snapshot,
 * cleanupHistory) and one step of its RollingUpdate (rollingUpdate, findUpdatedPodsOnNode,
 * updatedDesiredNodeCounts), with maxUnavailable or, when maxSurge is set, new Pods first.
 */
import type { ControllerRevision, DaemonSet, Node, Pod } from "@servicenet/api";
import { isAlreadyExists } from "@servicenet/client/errors";
import { canonicalJSON, computeHash } from "../controller/compute-hash.ts";
import { newControllerRef } from "../controller/controller-ref-manager.ts";
import { templatePatch } from "../controller/history/controller-history.ts";
import { getScaledValueFromIntOrPercent } from "../deployment/util/replicas.ts";
import { isPodAvailable } from "../replicaset/replica-set-utils.ts";
import type { DaemonSetClient } from "./daemon-client.ts";
import { defaultDaemonSetUniqueLabelKey, getTemplateGeneration, isPodUpdated, nodeShouldRunDaemonPod } from "./util/daemonset-util.ts";

export const daemonSetKind = { apiVersion: "apps/v1", kind: "DaemonSet" } as const;

const isDeleting = (o: { metadata: { deletionTimestamp?: unknown } }) =>
  o.metadata.deletionTimestamp !== undefined && o.metadata.deletionTimestamp !== null;

/** `Match`: the revision holds the set's current template (compared as canonical JSON, see controller-history.ts). */
export function matchRevision(ds: DaemonSet, cr: ControllerRevision): boolean {
  return canonicalJSON(JSON.parse(templatePatch(ds.spec.template))) === canonicalJSON(cr.data ?? null);
}

/**
 * `constructHistory`: the current revision (made when missing, renumbered to be the newest) and
 * the old ones. @throws a failed write, or a hash collision after bumping status.collisionCount.
 */
export async function constructHistory(
  client: DaemonSetClient,
  ds: DaemonSet,
  histories: readonly ControllerRevision[],
): Promise<{ cur: ControllerRevision; old: ControllerRevision[] }> {
  const current = histories.filter((h) => matchRevision(ds, h));
  const old = histories.filter((h) => !matchRevision(ds, h));
  const next = Math.max(0, ...old.map((h) => h.revision)) + 1;
  if (current.length === 0) return { cur: await snapshot(client, ds, next), old };
  // dedupCurHistories: keep the newest, delete the others.
  const sorted = [...current].sort((a, b) => b.revision - a.revision);
  for (const dup of sorted.slice(1)) await client.deleteRevision(dup.metadata.namespace ?? "", dup.metadata.name ?? "");
  let cur = sorted[0]!;
  if (cur.revision < next) cur = await client.updateRevision({ ...cur, revision: next });
  return { cur, old };
}

/** `snapshot`: the set's template as revision `revision`, named `<set>-<ComputeHash(template, collisionCount)>`. */
async function snapshot(client: DaemonSetClient, ds: DaemonSet, revision: number): Promise<ControllerRevision> {
  const hash = computeHash(ds.spec.template, ds.status?.collisionCount);
  const ns = ds.metadata.namespace ?? "";
  const cr: ControllerRevision = {
    metadata: {
      name: `${ds.metadata.name ?? ""}-${hash}`,
      namespace: ns,
      labels: { ...ds.spec.template.metadata.labels, [defaultDaemonSetUniqueLabelKey]: hash },
      ...(ds.metadata.annotations !== undefined ? { annotations: { ...ds.metadata.annotations } } : {}),
      ownerReferences: [newControllerRef({ ...daemonSetKind, metadata: ds.metadata })],
    },
    data: JSON.parse(templatePatch(ds.spec.template)) as unknown,
    revision,
  };
  try {
    return await client.createRevision(ns, cr);
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
    const existing = await client.getRevision(ns, cr.metadata.name ?? "");
    if (matchRevision(ds, existing)) return existing;
    // A hash collision: bump the collision count so the next sync hashes to another name.
    const fresh = await client.getDaemonSet(ns, ds.metadata.name ?? "");
    fresh.status = { ...fresh.status!, collisionCount: (fresh.status?.collisionCount ?? 0) + 1 };
    await client.updateStatus(fresh);
    throw new Error(`found a stale revision ${cr.metadata.name ?? ""} with a different template; bumped collisionCount`, { cause: err });
  }
}

/** `cleanupHistory`: deletes the oldest old revisions no Pod uses, down to revisionHistoryLimit. */
export async function cleanupHistory(
  client: DaemonSetClient,
  ds: DaemonSet,
  old: ControllerRevision[],
  pods: readonly Pod[],
): Promise<void> {
  let toKill = old.length - (ds.spec.revisionHistoryLimit ?? 10);
  if (toKill <= 0) return;
  const live = new Set(pods.map((p) => p.metadata.labels?.[defaultDaemonSetUniqueLabelKey] ?? "").filter((h) => h !== ""));
  for (const h of [...old].sort((a, b) => a.revision - b.revision)) {
    if (toKill <= 0) break;
    if (live.has(h.metadata.labels?.[defaultDaemonSetUniqueLabelKey] ?? "")) continue;
    await client.deleteRevision(h.metadata.namespace ?? "", h.metadata.name ?? "");
    toKill--;
  }
}

/** `findUpdatedPodsOnNode`: the node's one new and one old Pod; ok false with more than one of either. */
function findUpdatedPodsOnNode(ds: DaemonSet, pods: readonly Pod[], hash: string): { newPod?: Pod; oldPod?: Pod; ok: boolean } {
  let newPod: Pod | undefined;
  let oldPod: Pod | undefined;
  const generation = getTemplateGeneration(ds);
  for (const p of pods) {
    if (isDeleting(p)) continue;
    if (isPodUpdated(p, hash, generation)) {
      if (newPod !== undefined) return { ok: false };
      newPod = p;
    } else {
      if (oldPod !== undefined) return { ok: false };
      oldPod = p;
    }
  }
  return { ...(newPod ? { newPod } : {}), ...(oldPod ? { oldPod } : {}), ok: true };
}

/** `updatedDesiredNodeCounts`: maxSurge and maxUnavailable scaled to the Nodes that should run the set (1 unavailable when both are 0). */
function updatedDesiredNodeCounts(
  ds: DaemonSet,
  nodes: readonly Node[],
  nodeToPods: Map<string, Pod[]>,
): { maxSurge: number; maxUnavailable: number } {
  let desired = 0;
  for (const node of nodes) {
    if (!nodeShouldRunDaemonPod(node, ds).shouldRun) continue;
    desired++;
    if (!nodeToPods.has(node.metadata.name ?? "")) nodeToPods.set(node.metadata.name ?? "", []);
  }
  const ru = ds.spec.updateStrategy?.rollingUpdate;
  let maxUnavailable = getScaledValueFromIntOrPercent(ru?.maxUnavailable ?? 0, desired, true);
  const maxSurge = getScaledValueFromIntOrPercent(ru?.maxSurge ?? 0, desired, true);
  if (maxUnavailable === 0 && maxSurge === 0) maxUnavailable = 1;
  return { maxSurge, maxUnavailable };
}

/** `rollingUpdate`: the old Pods to delete and the Nodes to surge onto in this step. */
export function rollingUpdate(
  ds: DaemonSet,
  nodes: readonly Node[],
  nodeToPods: Map<string, Pod[]>,
  hash: string,
  now: number,
): { podsToDelete: string[]; nodesNeedingPods: string[] } {
  const { maxSurge, maxUnavailable } = updatedDesiredNodeCounts(ds, nodes, nodeToPods);
  const minReady = ds.spec.minReadySeconds ?? 0;
  const available = (p: Pod) => isPodAvailable(p, minReady, now);
  if (maxSurge === 0) {
    let numUnavailable = 0;
    const replacements: string[] = [];
    const candidates: string[] = [];
    for (const pods of nodeToPods.values()) {
      const { newPod, oldPod, ok } = findUpdatedPodsOnNode(ds, pods, hash);
      if (!ok || (oldPod === undefined) === (newPod === undefined)) numUnavailable++;
      else if (newPod !== undefined) {
        if (!available(newPod)) numUnavailable++;
      } else if (!available(oldPod!)) replacements.push(oldPod!.metadata.name ?? "");
      else if (numUnavailable < maxUnavailable) candidates.push(oldPod!.metadata.name ?? "");
    }
    const remaining = Math.min(Math.max(0, maxUnavailable - numUnavailable), candidates.length);
    return { podsToDelete: [...replacements, ...candidates.slice(0, remaining)], nodesNeedingPods: [] };
  }
  let numSurge = 0;
  const nodesNeedingPods: string[] = [];
  const podsToDelete: string[] = [];
  for (const [nodeName, pods] of nodeToPods) {
    const { newPod, oldPod, ok } = findUpdatedPodsOnNode(ds, pods, hash);
    if (!ok) {
      numSurge++;
      continue;
    }
    if (oldPod === undefined) continue;
    if (newPod === undefined) {
      if (!available(oldPod)) nodesNeedingPods.push(nodeName);
      else if (numSurge < maxSurge) {
        numSurge++;
        nodesNeedingPods.push(nodeName);
      }
    } else if (!available(newPod)) numSurge++;
    else podsToDelete.push(oldPod.metadata.name ?? "");
  }
  return { podsToDelete, nodesNeedingPods };
}
