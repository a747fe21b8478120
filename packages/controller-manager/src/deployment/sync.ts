/**
 * pkg/controller/deployment/sync.go: the new ReplicaSet (found or created, with revision and
 * annotations), scaling (proportional across ReplicaSets mid-rollout), history cleanup and status.
 */
import type { Deployment, DeploymentStatus, ReplicaSet } from "@servicenet/api";
import { hasStatusCause, isAlreadyExists } from "@servicenet/client/errors";
import { V } from "@servicenet/component-base/logs";
import { computeHash } from "../controller/compute-hash.ts";
import { getControllerOf, newControllerRef } from "../controller/controller-ref-manager.ts";
import { deploymentEvent, type DeploymentSyncContext } from "./context.ts";
import { getRollbackTo } from "./rollback-annotation.ts";
import { cleanupDeployment, scale } from "./scale.ts";
import * as au from "./util/annotations.ts";
import * as cu from "./util/conditions.ts";
import * as ru from "./util/replicas.ts";
import * as su from "./util/replicaset-util.ts";

/** `controllerKind`: apps/v1 Deployment. */
export const deploymentOwnerKind = { apiVersion: "apps/v1", kind: "Deployment" } as const;

/** `sync`: scaling and, for a paused Deployment without a rollback, history cleanup; then status. */
export async function sync(dc: DeploymentSyncContext, d: Deployment, rsList: ReplicaSet[]): Promise<void> {
  const [newRS, oldRSs] = await getAllReplicaSetsAndSyncRevision(dc, d, rsList, false);
  await scale(dc, d, newRS, oldRSs);
  if (d.spec.paused === true && getRollbackTo(d) === undefined) await cleanupDeployment(dc, oldRSs, d);
  await syncDeploymentStatus(dc, [...oldRSs, newRS], newRS, d);
}

/** `checkPausedConditions`: a Progressing condition saying paused/resumed, so a long pause is no timeout. */
export async function checkPausedConditions(dc: DeploymentSyncContext, d: Deployment): Promise<void> {
  if (!ru.hasProgressDeadline(d)) return;
  const cond = cu.getDeploymentCondition(d.status, cu.deploymentProgressing);
  if (cond?.reason === cu.timedOutReason) return;
  const pausedCondExists = cond?.reason === cu.pausedDeployReason;
  const now = dc.clock.now();
  const status = (d.status ??= {});
  if (d.spec.paused === true && !pausedCondExists)
    cu.setDeploymentCondition(
      status,
      cu.newDeploymentCondition(cu.deploymentProgressing, "Unknown", cu.pausedDeployReason, "Deployment is paused", now),
    );
  else if (d.spec.paused !== true && pausedCondExists)
    cu.setDeploymentCondition(
      status,
      cu.newDeploymentCondition(cu.deploymentProgressing, "Unknown", cu.resumedDeployReason, "Deployment is resumed", now),
    );
  else return;
  Object.assign(d, await dc.client.updateDeploymentStatus(d));
}

/** `getAllReplicaSetsAndSyncRevision`: the new ReplicaSet (created when asked) and all old ones. */
export async function getAllReplicaSetsAndSyncRevision(
  dc: DeploymentSyncContext,
  d: Deployment,
  rsList: ReplicaSet[],
  createIfNotExisted: boolean,
): Promise<[ReplicaSet | undefined, ReplicaSet[]]> {
  const [, allOldRSs] = su.findOldReplicaSets(d, rsList);
  const newRS = await getNewReplicaSet(dc, d, rsList, allOldRSs, createIfNotExisted);
  return [newRS, allOldRSs];
}

/**
 * `getNewReplicaSet`: the existing new ReplicaSet with its annotations and minReadySeconds brought
 * up to date (and the Deployment's revision), or a new one `<name>-<hash>` when asked; a name
 * taken by a different template bumps `status.collisionCount` and fails, so the next sync tries
 * the next hash.
 */
export async function getNewReplicaSet(
  dc: DeploymentSyncContext,
  d: Deployment,
  rsList: ReplicaSet[],
  oldRSs: ReplicaSet[],
  createIfNotExisted: boolean,
): Promise<ReplicaSet | undefined> {
  const existing = su.findNewReplicaSet(d, rsList);
  const newRevision = String(au.maxRevision(oldRSs) + 1);
  const now = dc.clock.now();
  if (existing !== undefined) {
    const rsCopy = structuredClone(existing);
    const annotationsUpdated = au.setNewReplicaSetAnnotations(d, rsCopy, newRevision, true, au.maxRevHistoryLengthInChars);
    if (annotationsUpdated || (rsCopy.spec.minReadySeconds ?? 0) !== (d.spec.minReadySeconds ?? 0)) {
      rsCopy.spec.minReadySeconds = d.spec.minReadySeconds ?? 0;
      return dc.client.updateReplicaSet(rsCopy);
    }
    let needsUpdate = au.setDeploymentRevision(d, rsCopy.metadata.annotations?.[au.revisionAnnotation] ?? "");
    if (ru.hasProgressDeadline(d) && cu.getDeploymentCondition(d.status, cu.deploymentProgressing) === undefined) {
      const msg = `Found new replica set ${JSON.stringify(rsCopy.metadata.name ?? "")}`;
      cu.setDeploymentCondition(
        (d.status ??= {}),
        cu.newDeploymentCondition(cu.deploymentProgressing, "True", cu.foundNewRSReason, msg, now),
      );
      needsUpdate = true;
    }
    if (needsUpdate) Object.assign(d, await dc.client.updateDeploymentStatus(d));
    return rsCopy;
  }
  if (!createIfNotExisted) return undefined;
  return createNewReplicaSet(dc, d, oldRSs, newRevision);
}

/** The create half of `getNewReplicaSet`. */
async function createNewReplicaSet(
  dc: DeploymentSyncContext,
  d: Deployment,
  oldRSs: ReplicaSet[],
  newRevision: string,
): Promise<ReplicaSet> {
  const template = structuredClone(d.spec.template);
  const hash = computeHash(template, d.status?.collisionCount);
  template.metadata.labels = su.cloneAndAddLabel(d.spec.template.metadata.labels, su.defaultDeploymentUniqueLabelKey, hash);
  const namespace = d.metadata.namespace ?? "default";
  const newRS: ReplicaSet = {
    metadata: {
      // Deterministic, so a retried create meets the first one.
      name: `${d.metadata.name ?? ""}-${hash}`,
      namespace,
      ownerReferences: [newControllerRef({ ...deploymentOwnerKind, metadata: d.metadata })],
      labels: template.metadata.labels,
    },
    spec: {
      replicas: 0,
      minReadySeconds: d.spec.minReadySeconds ?? 0,
      selector: su.cloneSelectorAndAddLabel(d.spec.selector, su.defaultDeploymentUniqueLabelKey, hash),
      template,
    },
  };
  const newReplicasCount = ru.newRSNewReplicas(d, [...oldRSs, newRS], newRS);
  newRS.spec.replicas = newReplicasCount;
  au.setNewReplicaSetAnnotations(d, newRS, newRevision, false, au.maxRevHistoryLengthInChars);
  const now = dc.clock.now();
  let created: ReplicaSet;
  let alreadyExists = false;
  try {
    created = await dc.client.createReplicaSet(namespace, newRS);
  } catch (err) {
    if (isAlreadyExists(err)) {
      alreadyExists = true;
      const rs = dc.replicaSets.get(`${namespace}/${newRS.metadata.name ?? ""}`);
      if (rs === undefined) throw new Error(`replicaset.apps ${JSON.stringify(newRS.metadata.name ?? "")} not found`, { cause: err });
      const ref = getControllerOf(rs);
      if (ref === undefined || ref.uid !== d.metadata.uid || !su.equalIgnoreHash(d.spec.template, rs.spec.template)) {
        const status = (d.status ??= {});
        const pre = status.collisionCount ?? 0;
        status.collisionCount = pre + 1;
        try {
          await dc.client.updateDeploymentStatus(d);
          V(dc.log, 2).info("Found a hash collision for deployment - bumping collisionCount to resolve it", {
            deployment: `${namespace}/${d.metadata.name ?? ""}`,
            oldCollisionCount: pre,
            newCollisionCount: pre + 1,
          });
        } catch {
          // The create's error is what requeues the Deployment.
        }
        throw err;
      }
      created = rs;
    } else if (hasStatusCause(err, "NamespaceTerminating")) throw err;
    else {
      const msg = `Failed to create new replica set ${JSON.stringify(newRS.metadata.name ?? "")}: ${err instanceof Error ? err.message : String(err)}`;
      if (ru.hasProgressDeadline(d)) {
        cu.setDeploymentCondition(
          (d.status ??= {}),
          cu.newDeploymentCondition(cu.deploymentProgressing, "False", cu.failedRSCreateReason, msg, now),
        );
        await dc.client.updateDeploymentStatus(d).catch(() => undefined);
      }
      deploymentEvent(dc, d, "Warning", cu.failedRSCreateReason, msg);
      throw err;
    }
  }
  if (!alreadyExists && newReplicasCount > 0)
    deploymentEvent(
      dc,
      d,
      "Normal",
      "ScalingReplicaSet",
      `Scaled up replica set ${created.metadata.name ?? ""} from 0 to ${newReplicasCount}`,
    );
  let needsUpdate = au.setDeploymentRevision(d, newRevision);
  if (!alreadyExists && ru.hasProgressDeadline(d)) {
    const msg = `Created new replica set ${JSON.stringify(created.metadata.name ?? "")}`;
    cu.setDeploymentCondition(
      (d.status ??= {}),
      cu.newDeploymentCondition(cu.deploymentProgressing, "True", cu.newReplicaSetReason, msg, now),
    );
    needsUpdate = true;
  }
  if (needsUpdate) Object.assign(d, await dc.client.updateDeploymentStatus(d));
  return created;
}

/** `isScalingEvent`: an active ReplicaSet's desired-replicas annotation differs from the Deployment's replicas. */
export async function isScalingEvent(dc: DeploymentSyncContext, d: Deployment, rsList: ReplicaSet[]): Promise<boolean> {
  const [newRS, oldRSs] = await getAllReplicaSetsAndSyncRevision(dc, d, rsList, false);
  return su.filterActiveReplicaSets([...oldRSs, newRS]).some((rs) => {
    const desired = au.getDesiredReplicasAnnotation(rs);
    return desired !== undefined && desired !== ru.deploymentReplicas(d);
  });
}

/** `calculateStatus`: the status the ReplicaSets add up to, with the Available condition. */
export function calculateStatus(
  allRSs: readonly (ReplicaSet | undefined)[],
  newRS: ReplicaSet | undefined,
  d: Deployment,
  nowMs: number,
): DeploymentStatus {
  const availableReplicas = ru.getAvailableReplicaCountForReplicaSets(allRSs);
  const totalReplicas = ru.getReplicaCountForReplicaSets(allRSs);
  const status: DeploymentStatus = {
    observedGeneration: d.metadata.generation ?? 0,
    replicas: ru.getActualReplicaCountForReplicaSets(allRSs),
    updatedReplicas: ru.getActualReplicaCountForReplicaSets([newRS]),
    readyReplicas: ru.getReadyReplicaCountForReplicaSets(allRSs),
    availableReplicas,
    // More available than desired (while scaling down) is not negative unavailability.
    unavailableReplicas: Math.max(0, totalReplicas - availableReplicas),
    ...(d.status?.collisionCount !== undefined ? { collisionCount: d.status.collisionCount } : {}),
  };
  if (d.status?.conditions !== undefined) status.conditions = d.status.conditions.map((c) => ({ ...c }));
  if (availableReplicas >= ru.deploymentReplicas(d) - ru.maxUnavailable(d))
    cu.setDeploymentCondition(
      status,
      cu.newDeploymentCondition(cu.deploymentAvailable, "True", cu.minimumReplicasAvailable, "Deployment has minimum availability.", nowMs),
    );
  else
    cu.setDeploymentCondition(
      status,
      cu.newDeploymentCondition(
        cu.deploymentAvailable,
        "False",
        cu.minimumReplicasUnavailable,
        "Deployment does not have minimum availability.",
        nowMs,
      ),
    );
  return status;
}

/** Go's DeepEqual of two statuses as they serialise (zero counts are omitted on the wire). */
export function statusEqual(a: DeploymentStatus | undefined, b: DeploymentStatus): boolean {
  const norm = (s: DeploymentStatus | undefined) =>
    JSON.stringify({
      observedGeneration: s?.observedGeneration ?? 0,
      replicas: s?.replicas ?? 0,
      updatedReplicas: s?.updatedReplicas ?? 0,
      readyReplicas: s?.readyReplicas ?? 0,
      availableReplicas: s?.availableReplicas ?? 0,
      unavailableReplicas: s?.unavailableReplicas ?? 0,
      terminatingReplicas: s?.terminatingReplicas ?? null,
      conditions: s?.conditions ?? [],
      collisionCount: s?.collisionCount ?? null,
    });
  return norm(a) === norm(b);
}

/** `syncDeploymentStatus`: writes the calculated status when it differs. */
export async function syncDeploymentStatus(
  dc: DeploymentSyncContext,
  allRSs: (ReplicaSet | undefined)[],
  newRS: ReplicaSet | undefined,
  d: Deployment,
): Promise<void> {
  const newStatus = calculateStatus(allRSs, newRS, d, dc.clock.now());
  if (statusEqual(d.status, newStatus)) return;
  await dc.client.updateDeploymentStatus({ ...d, status: newStatus });
}

/** `syncStatusOnly`: status without any write to ReplicaSets (a Deployment being deleted). */
export async function syncStatusOnly(dc: DeploymentSyncContext, d: Deployment, rsList: ReplicaSet[]): Promise<void> {
  const [newRS, oldRSs] = await getAllReplicaSetsAndSyncRevision(dc, d, rsList, false);
  await syncDeploymentStatus(dc, [...oldRSs, newRS], newRS, d);
}
