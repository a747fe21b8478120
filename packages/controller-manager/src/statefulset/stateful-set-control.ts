/**
 * `defaultStatefulSetControl` (pkg/controller/statefulset/stateful_set_control.go): one pass of a
 * StatefulSet's control loop. It finds or makes the update revision, creates missing Pods (in
 * ordinal order, each waiting for its predecessors to be Running and Ready unless the policy is
 * Parallel), deletes the condemned ones from the highest ordinal down, rolls Pods above the
 * partition onto the update revision from the highest ordinal down, writes the status and trims
 * the history to revisionHistoryLimit.
 */
import type { ControllerRevision, Pod, StatefulSet, StatefulSetStatus } from "@servicenet/api";
import { isAlreadyExists, isNotFound } from "@servicenet/client/errors";
import { noopLogger, V, type Logger } from "@servicenet/component-base/logs";
import { AggregateError } from "../controller/controller-ref-manager.ts";
import {
  findEqualRevisions,
  equalRevision,
  hashControllerRevision,
  controllerRevisionName,
  nextRevision,
  revisionRaw,
  sortControllerRevisions,
  type HistoryClient,
} from "../controller/history/controller-history.ts";
import { slowStartBatch } from "../replicaset/slow-start-batch.ts";
import type { StatefulPodControl } from "./stateful-pod-control.ts";
import {
  allowsBurst,
  applyRevision,
  getEndOrdinal,
  getOrdinal,
  getPodRevision,
  getStartOrdinal,
  identityMatches,
  isCreated,
  isFailed,
  isHealthy,
  isPending,
  isRunningAndAvailable,
  isRunningAndReady,
  isSucceeded,
  isTerminating,
  newRevision,
  newVersionedStatefulSetPod,
  podInOrdinalRange,
  storageMatches,
} from "./stateful-set-utils.ts";
import { updateStatefulSetStatus } from "./stateful-set-status-updater.ts";

export interface StatefulSetControlDeps {
  podControl: StatefulPodControl;
  history: HistoryClient;
  /** The set's revisions (`ListControllerRevisions`: selected by the set's selector, owned by it or orphaned). */
  listRevisions: (set: StatefulSet) => ControllerRevision[];
  statusClient: { getStatefulSet(ns: string, name: string): Promise<StatefulSet>; updateStatus(set: StatefulSet): Promise<StatefulSet> };
  now: () => number;
  logger?: Logger;
}

const setKey = (set: StatefulSet) => `${set.metadata.namespace ?? ""}/${set.metadata.name ?? ""}`;

/** `updateStatus`: the counts of the Pods of `lists`. */
function updateStatus(
  status: StatefulSetStatus,
  minReadySeconds: number,
  current: string,
  update: string,
  now: number,
  ...lists: Pod[][]
): void {
  status.replicas = 0;
  status.readyReplicas = 0;
  status.availableReplicas = 0;
  status.currentReplicas = 0;
  status.updatedReplicas = 0;
  for (const pods of lists)
    for (const pod of pods) {
      if (isCreated(pod)) status.replicas++;
      if (isRunningAndReady(pod)) {
        status.readyReplicas++;
        if (isRunningAndAvailable(pod, minReadySeconds, now)) status.availableReplicas++;
      }
      if (isCreated(pod) && !isTerminating(pod)) {
        const revision = getPodRevision(pod);
        if (revision === current) status.currentReplicas++;
        if (revision === update) status.updatedReplicas++;
      }
    }
}

/** `runForAll`: in order, stopping at the first that says so (monotonic); else in slow-start batches. */
async function runForAll(pods: readonly Pod[], fn: (i: number) => Promise<boolean>, monotonic: boolean): Promise<boolean> {
  if (monotonic) {
    for (let i = 0; i < pods.length; i++) if (await fn(i)) return true;
    return false;
  }
  let next = 0;
  const { error } = await slowStartBatch(pods.length, 1, async () => {
    await fn(next++);
  });
  if (error !== undefined) throw error;
  return false;
}

export class StatefulSetControl {
  readonly #d: StatefulSetControlDeps;
  readonly #log: Logger;

  constructor(deps: StatefulSetControlDeps) {
    this.#d = deps;
    this.#log = deps.logger ?? noopLogger;
  }

  /**
   * `UpdateStatefulSet`: one pass over `set` and its (claimed) Pods; the status it computed.
   * @throws the pass's or the status write's error, with any history truncation error.
   */
  async updateStatefulSet(input: StatefulSet, pods: Pod[]): Promise<StatefulSetStatus> {
    const set = structuredClone(input);
    const revisions = sortControllerRevisions(this.#d.listRevisions(set));
    const { current, update, collisionCount } = await this.getStatefulSetRevisions(set, revisions);
    let status: StatefulSetStatus | undefined;
    let passErr: unknown;
    try {
      status = await this.#updateStatefulSet(set, current, update, collisionCount, pods, (s) => (status = s));
    } catch (err) {
      passErr = err;
    }
    const errs: Error[] = [];
    if (passErr !== undefined) errs.push(passErr as Error);
    if (status !== undefined) {
      try {
        await this.#updateStatefulSetStatus(set, status);
        V(this.#log, 4).info("Updated status", {
          statefulSet: setKey(set),
          replicas: status.replicas,
          readyReplicas: status.readyReplicas,
        });
      } catch (err) {
        errs.push(err as Error);
      }
    }
    try {
      await this.truncateHistory(set, pods, revisions, current, update);
    } catch (err) {
      errs.push(err as Error);
    }
    if (errs.length > 0) throw errs.length === 1 ? errs[0]! : new AggregateError(errs);
    return status!;
  }

  /** `getStatefulSetRevisions`: the current revision (status.currentRevision's, else the update one) and the update revision. */
  async getStatefulSetRevisions(
    set: StatefulSet,
    revisions: ControllerRevision[],
  ): Promise<{ current: ControllerRevision; update: ControllerRevision; collisionCount: number }> {
    let collisionCount = set.status?.collisionCount ?? 0;
    let update = newRevision(set, nextRevision(revisions), collisionCount);
    const equal = findEqualRevisions(revisions, update);
    const last = revisions[revisions.length - 1];
    if (equal.length > 0 && equalRevision(last, equal[equal.length - 1])) {
      // The equivalent revision is the latest: the update revision did not change.
      update = last!;
    } else if (equal.length > 0) {
      // An older equivalent revision: a rollback, made the latest by a new revision number.
      update = await this.#d.history.updateRevision(equal[equal.length - 1]!, update.revision);
    } else {
      ({ revision: update, collisionCount } = await this.#createControllerRevision(set, update, collisionCount));
    }
    const current = revisions.find((r) => r.metadata.name === set.status?.currentRevision) ?? update;
    return { current, update, collisionCount };
  }

  /** realHistory `CreateControllerRevision`: a taken name with other data bumps the collision count and tries the next hash. */
  async #createControllerRevision(
    set: StatefulSet,
    revision: ControllerRevision,
    collisionCount: number,
  ): Promise<{ revision: ControllerRevision; collisionCount: number }> {
    const raw = revisionRaw(revision);
    const ns = set.metadata.namespace ?? "";
    for (let count = collisionCount; ; count++) {
      const clone = structuredClone(revision);
      clone.metadata.name = controllerRevisionName(set.metadata.name ?? "", hashControllerRevision(raw, count));
      try {
        return { revision: await this.#d.history.create(ns, clone), collisionCount: count };
      } catch (err) {
        if (!isAlreadyExists(err)) throw err;
        const exists = await this.#d.history.get(ns, clone.metadata.name);
        if (revisionRaw(exists) === raw) return { revision: exists, collisionCount: count };
      }
    }
  }

  async #updateStatefulSet(
    set: StatefulSet,
    currentRevision: ControllerRevision,
    updateRevision: ControllerRevision,
    collisionCount: number,
    pods: Pod[],
    report: (s: StatefulSetStatus) => void,
  ): Promise<StatefulSetStatus> {
    const currentSet = applyRevision(set, currentRevision);
    const updateSet = applyRevision(set, updateRevision);
    const current = currentRevision.metadata.name ?? "";
    const update = updateRevision.metadata.name ?? "";
    const minReadySeconds = set.spec.minReadySeconds ?? 0;
    const now = this.#d.now();
    const status: StatefulSetStatus = {
      observedGeneration: set.metadata.generation ?? 0,
      currentRevision: current,
      updateRevision: update,
      collisionCount,
      replicas: 0,
      availableReplicas: 0,
    };
    updateStatus(status, minReadySeconds, current, update, now, pods);
    report(status);

    const start = getStartOrdinal(set);
    const replicaCount = set.spec.replicas ?? 1;
    const replicas: Pod[] = new Array<Pod>(replicaCount);
    const condemned: Pod[] = [];
    for (const pod of pods) {
      if (podInOrdinalRange(pod, set)) replicas[getOrdinal(pod) - start] = pod;
      else if (getOrdinal(pod) >= 0) condemned.push(pod);
    }
    for (let ord = start; ord <= getEndOrdinal(set); ord++)
      replicas[ord - start] ??= newVersionedStatefulSetPod(currentSet, updateSet, current, update, ord);
    // descendingOrdinal
    condemned.sort((a, b) => getOrdinal(b) - getOrdinal(a));

    let firstUnhealthy: Pod | undefined;
    let unhealthy = 0;
    for (const pod of [...replicas, ...[...condemned].reverse()])
      if (!isHealthy(pod)) {
        unhealthy++;
        firstUnhealthy ??= pod;
      }
    if (unhealthy > 0)
      V(this.#log, 4).info("StatefulSet has unhealthy Pods", {
        statefulSet: setKey(set),
        unhealthyReplicas: unhealthy,
        pod: firstUnhealthy?.metadata.name,
      });

    // A StatefulSet being deleted only gets its status.
    if (set.metadata.deletionTimestamp !== undefined && set.metadata.deletionTimestamp !== null) return status;

    const monotonic = !allowsBurst(set);
    const finish = () => updateStatus(status, minReadySeconds, current, update, now, replicas, condemned);
    try {
      if (await runForAll(replicas, (i) => this.#processReplica(set, updateSet, monotonic, replicas, i), monotonic)) {
        finish();
        return status;
      }
      if (await runForAll(condemned, (i) => this.#processCondemned(set, firstUnhealthy, monotonic, condemned, i), monotonic)) {
        finish();
        return status;
      }
    } catch (err) {
      finish();
      throw err;
    }
    finish();

    // OnDelete: Pods are updated when they are deleted by hand.
    if (set.spec.updateStrategy?.type === "OnDelete") return status;

    const updateMin = set.spec.updateStrategy?.rollingUpdate?.partition ?? 0;
    // The Pod with the largest ordinal that is not at the update revision goes first.
    for (let target = replicas.length - 1; target >= updateMin; target--) {
      const pod = replicas[target]!;
      if (getPodRevision(pod) !== update && !isTerminating(pod)) {
        V(this.#log, 2).info("Pod of StatefulSet is terminating for update", { statefulSet: setKey(set), pod: pod.metadata.name });
        try {
          await this.#d.podControl.deleteStatefulPod(set, pod);
        } catch (err) {
          if (!isNotFound(err)) throw err;
        }
        status.currentReplicas = (status.currentReplicas ?? 0) - 1;
        return status;
      }
      // Wait for an unhealthy Pod to be updated.
      if (!isHealthy(pod)) {
        V(this.#log, 4).info("StatefulSet is waiting for Pod to update", { statefulSet: setKey(set), pod: pod.metadata.name });
        return status;
      }
    }
    return status;
  }

  /** `processReplica`: true when the pass must stop here. */
  async #processReplica(set: StatefulSet, updateSet: StatefulSet, monotonic: boolean, replicas: Pod[], i: number): Promise<boolean> {
    const pod = replicas[i]!;
    // A finished Pod (Failed or Succeeded) is deleted and made again on a later pass.
    if (isFailed(pod) || isSucceeded(pod)) {
      if (!isTerminating(pod)) await this.#d.podControl.deleteStatefulPod(set, pod);
      return true;
    }
    if (!isCreated(pod)) {
      await this.#d.podControl.createStatefulPod(set, pod);
      return monotonic;
    }
    // A Pending Pod gets any claim still missing.
    if (isPending(pod)) await this.#d.podControl.createPersistentVolumeClaims(set, pod);
    if (monotonic) {
      const wait = isTerminating(pod)
        ? "StatefulSet is waiting for Pod to Terminate"
        : !isRunningAndReady(pod)
          ? "StatefulSet is waiting for Pod to be Running and Ready"
          : !isRunningAndAvailable(pod, set.spec.minReadySeconds ?? 0, this.#d.now())
            ? "StatefulSet is waiting for Pod to be Available"
            : undefined;
      if (wait !== undefined) {
        V(this.#log, 4).info(wait, { statefulSet: setKey(set), pod: pod.metadata.name });
        return true;
      }
    }
    if (identityMatches(set, pod) && storageMatches(set, pod)) return false;
    await this.#d.podControl.updateStatefulPod(updateSet, pod);
    return false;
  }

  /** `processCondemned`: deletes the condemned Pod `i` (monotonic: one per pass, only with healthy predecessors). */
  async #processCondemned(
    set: StatefulSet,
    firstUnhealthy: Pod | undefined,
    monotonic: boolean,
    condemned: Pod[],
    i: number,
  ): Promise<boolean> {
    const pod = condemned[i]!;
    if (isTerminating(pod)) {
      if (monotonic)
        V(this.#log, 4).info("StatefulSet is waiting for Pod to Terminate prior to scale down", {
          statefulSet: setKey(set),
          pod: pod.metadata.name,
        });
      return monotonic;
    }
    if (!isRunningAndReady(pod) && monotonic && pod !== firstUnhealthy) return true;
    if (!isRunningAndAvailable(pod, set.spec.minReadySeconds ?? 0, this.#d.now()) && monotonic && pod !== firstUnhealthy) return true;
    V(this.#log, 2).info("Pod of StatefulSet is terminating for scale down", { statefulSet: setKey(set), pod: pod.metadata.name });
    await this.#d.podControl.deleteStatefulPod(set, pod);
    return true;
  }

  /** `updateStatefulSetStatus`: completes a finished rolling update; writes only a changed status. */
  async #updateStatefulSetStatus(set: StatefulSet, status: StatefulSetStatus): Promise<void> {
    await updateStatefulSetStatus(this.#d.statusClient, set, status);
  }

  /** `truncateHistory`: deletes the oldest revisions no Pod and neither revision uses, beyond revisionHistoryLimit. */
  async truncateHistory(
    set: StatefulSet,
    pods: readonly Pod[],
    revisions: readonly ControllerRevision[],
    current?: ControllerRevision,
    update?: ControllerRevision,
  ): Promise<void> {
    const live = new Set<string>([current?.metadata.name ?? "", update?.metadata.name ?? "", ...pods.map(getPodRevision)]);
    const history = revisions.filter((r) => !live.has(r.metadata.name ?? ""));
    const limit = set.spec.revisionHistoryLimit ?? 10;
    if (history.length <= limit) return;
    for (const r of history.slice(0, history.length - limit))
      await this.#d.history.delete(r.metadata.namespace ?? "", r.metadata.name ?? "");
  }
}
