/**
 * One Node's status manager (pkg/kubelet/status/status_manager.go `manager`): the pod workers hand
 * it each Pod's latest status (`SetPodStatus`) and never wait for the apiserver; one sync loop per
 * Node writes them one at a time (`syncBatch`, `syncPod`), each Pod's latest status only, so the
 * steps a Pod went through while the loop was busy (IP, Running, Ready) coalesce into one write.
 * A status equal to the one last set is dropped (`updateStatusInternal`), one equal to what the
 * apiserver has is not written (`PatchPodStatus`'s unchanged patch), and a Pod whose containers
 * have stopped is deleted with grace 0 once its terminal status is written (`canBeDeleted`).
 */
import type { Pod, PodStatus } from "@servicenet/api";
import { describeError, isConflict, isNotFound } from "@servicenet/client/errors";
import type { Clock, TimerHandle } from "@servicenet/component-base/clock";
import type { Logger } from "@servicenet/component-base/logs";
import type { PodClient } from "../pod-client.ts";
import { statusEqual, statusPatch } from "./status-manager.ts";

/** status_manager.go `syncPeriod`: a failed write is tried again this much later. */
export const statusSyncPeriodMs = 10_000;

/** A Pod's status as last set (`versionedPodStatus`). */
interface Versioned {
  uid: string;
  /** Undefined: nothing to write, only the final delete (a Pod that never started). */
  status: PodStatus | undefined;
  version: number;
  /** The containers have stopped (`podIsFinished`): delete the Pod once this status is written. */
  finished: boolean;
  /** The resourceVersion of the informer's copy the last write went over. */
  writtenFrom?: string | undefined;
}

export interface StatusManagerOptions {
  /** The informer's copy of a Pod by namespace/name (the kubelet's pod manager). */
  get: (key: string) => Pod | undefined;
  client: PodClient;
  clock: Clock;
  logger: Logger;
}

const keyOf = (p: Pod) => `${p.metadata.namespace ?? ""}/${p.metadata.name ?? ""}`;

export class StatusManager {
  readonly #o: StatusManagerOptions;
  readonly #statuses = new Map<string, Versioned>();
  /** The version of each Pod's status the apiserver has (`apiStatusVersions`). */
  readonly #apiVersions = new Map<string, number>();
  #loop: Promise<void> | undefined;
  #dirty = false;
  #retry: TimerHandle | undefined;
  #stopped = false;

  constructor(o: StatusManagerOptions) {
    this.#o = o;
  }

  /**
   * The Pod's latest status; `finished` once its containers have stopped after a deletion. A
   * status equal to the one last set changes nothing, unless someone else has since changed the
   * apiserver's copy (`needsReconcile`; a copy the informer has not yet seen our write on is not that).
   */
  setPodStatus(pod: Pod, status: PodStatus | undefined, finished: boolean): void {
    const key = keyOf(pod);
    const uid = pod.metadata.uid ?? "";
    const cached = this.#statuses.get(key);
    if (cached === undefined || cached.uid !== uid) {
      this.#statuses.set(key, { uid, status, finished, version: 1 });
      this.#apiVersions.delete(key);
      return this.#kick();
    }
    const same =
      cached.finished === finished &&
      (status === undefined || cached.status === undefined ? status === cached.status : statusEqual(cached.status, status));
    if (same && !this.#needsReconcile(key, pod, cached)) return;
    cached.status = status;
    cached.finished = finished;
    cached.version++;
    this.#kick();
  }

  #needsReconcile(key: string, pod: Pod, s: Versioned): boolean {
    if (s.status === undefined || (this.#apiVersions.get(key) ?? 0) < s.version) return false;
    if (s.writtenFrom !== undefined && pod.metadata.resourceVersion === s.writtenFrom) return false;
    return !statusEqual(pod.status, s.status);
  }

  /** Drops what is known of the Pod (it is gone from the apiserver). */
  forget(key: string): void {
    this.#statuses.delete(key);
    this.#apiVersions.delete(key);
  }

  /** Pods with a status here (tests, memory). */
  get size(): number {
    return this.#statuses.size;
  }

  /** Resolves when every status set so far has been synced (or failed). */
  async idle(): Promise<void> {
    while (this.#loop !== undefined) await this.#loop;
  }

  /** Writes nothing more: the loop ends after the write under way (see `idle`). */
  stop(): void {
    this.#stopped = true;
    if (this.#retry !== undefined) this.#o.clock.clearTimeout(this.#retry);
    this.#retry = undefined;
  }

  // podStatusChannel: one loop per Node; a status set while it runs makes it go round again.
  #kick(): void {
    if (this.#stopped) return;
    this.#dirty = true;
    this.#loop ??= this.#run().finally(() => {
      this.#loop = undefined;
      if (this.#dirty) this.#kick();
    });
  }

  async #run(): Promise<void> {
    while (this.#dirty) {
      this.#dirty = false;
      for (const [key, s] of [...this.#statuses]) {
        if (this.#stopped) return;
        if ((this.#apiVersions.get(key) ?? 0) < s.version) await this.#syncPod(key, s);
      }
    }
  }

  async #syncPod(key: string, s: Versioned): Promise<void> {
    const pod = this.#o.get(key);
    // Gone, or deleted and recreated under the name: nothing of ours to write.
    if (pod === undefined || pod.metadata.uid !== s.uid) return this.forget(key);
    const { version, status, finished } = s;
    const ns = pod.metadata.namespace ?? "";
    const name = pod.metadata.name ?? "";
    try {
      if (status !== undefined && !statusEqual(pod.status, status)) {
        await this.#o.client.patchStatus(ns, name, statusPatch(pod, status));
        s.writtenFrom = pod.metadata.resourceVersion;
      }
      if (finished && pod.metadata.deletionTimestamp !== undefined) await this.#o.client.deletePod(ns, name, s.uid);
      if (this.#statuses.get(key) === s) this.#apiVersions.set(key, version);
    } catch (err) {
      // NotFound: gone; Conflict: the UID precondition failed, another Pod has the name.
      if (isNotFound(err) || isConflict(err)) return this.forget(key);
      this.#o.logger.error("Failed to update status for pod", { pod: key, err: describeError(err) });
      this.#retry ??= this.#o.clock.setTimeout(() => {
        this.#retry = undefined;
        this.#kick();
      }, statusSyncPeriodMs);
    }
  }
}
