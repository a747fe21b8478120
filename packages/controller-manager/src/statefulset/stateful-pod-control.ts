/**
 * `StatefulPodControl` (pkg/controller/statefulset/stateful_pod_control.go): creates, updates and
 * deletes a StatefulSet's Pods, creating their PersistentVolumeClaims first, and records upstream's
 * events for each (`SuccessfulCreate`: `create Pod web-0 in StatefulSet web successful`, ...).
 */
import type { Pod, StatefulSet } from "@servicenet/api";
import { isAlreadyExists, isConflict, isNotFound } from "@servicenet/client/errors";
import { getReference, type EventRecorder } from "@servicenet/client/tools/record";
import { AggregateError } from "../controller/controller-ref-manager.ts";
import {
  getPersistentVolumeClaims,
  identityMatches,
  statefulSetKind,
  storageMatches,
  updateIdentity,
  updateStorage,
} from "./stateful-set-utils.ts";

/** The Pod and PersistentVolumeClaim requests of the controller (`StatefulPodControlObjectManager`). */
export interface StatefulPodClient {
  createPod(pod: Pod): Promise<Pod>;
  getPod(namespace: string, name: string): Promise<Pod>;
  updatePod(pod: Pod): Promise<Pod>;
  deletePod(namespace: string, name: string): Promise<void>;
  getClaim(namespace: string, name: string): Promise<Record<string, unknown>>;
  createClaim(claim: Record<string, unknown>): Promise<Record<string, unknown>>;
}

const title = (verb: string): string => verb.charAt(0).toUpperCase() + verb.slice(1);
const claimName = (claim: Record<string, unknown>): string => ((claim["metadata"] ?? {}) as { name?: string }).name ?? "";

export class StatefulPodControl {
  readonly #client: StatefulPodClient;
  readonly #recorder: EventRecorder;

  constructor(client: StatefulPodClient, recorder: EventRecorder) {
    this.#client = client;
    this.#recorder = recorder;
  }

  #event(set: StatefulSet, type: "Normal" | "Warning", reason: string, message: string): void {
    this.#recorder.event(getReference(set, statefulSetKind.kind, statefulSetKind.apiVersion), type, reason, message);
  }

  /** `recordPodEvent`. */
  #recordPodEvent(verb: string, set: StatefulSet, pod: Pod, err: unknown): void {
    const name = pod.metadata.name ?? "";
    const setName = set.metadata.name ?? "";
    if (err === undefined)
      this.#event(set, "Normal", `Successful${title(verb)}`, `${verb} Pod ${name} in StatefulSet ${setName} successful`);
    else
      this.#event(
        set,
        "Warning",
        `Failed${title(verb)}`,
        `${verb} Pod ${name} in StatefulSet ${setName} failed error: ${(err as Error).message}`,
      );
  }

  /** `recordClaimEvent`. */
  #recordClaimEvent(verb: string, set: StatefulSet, pod: Pod, claim: string, err: unknown): void {
    const name = pod.metadata.name ?? "";
    const setName = set.metadata.name ?? "";
    if (err === undefined)
      this.#event(set, "Normal", `Successful${title(verb)}`, `${verb} Claim ${claim} Pod ${name} in StatefulSet ${setName} success`);
    else
      this.#event(
        set,
        "Warning",
        `Failed${title(verb)}`,
        `${verb} Claim ${claim} for Pod ${name} in StatefulSet ${setName} failed error: ${(err as Error).message}`,
      );
  }

  /**
   * `createPersistentVolumeClaims`: each missing claim of the Pod is created. This cluster serves
   * no PersistentVolumeClaims, so there the create fails and the Pod is not created, as upstream
   * behaves when its claims cannot be made.
   * @throws an aggregate of the claims that could not be made.
   */
  async createPersistentVolumeClaims(set: StatefulSet, pod: Pod): Promise<void> {
    const errs: Error[] = [];
    for (const claim of getPersistentVolumeClaims(set, pod)) {
      const name = claimName(claim);
      const ns = set.metadata.namespace ?? "";
      let existing: Record<string, unknown> | undefined;
      try {
        existing = await this.#client.getClaim(ns, name);
      } catch (err) {
        if (!isNotFound(err)) {
          errs.push(new Error(`failed to retrieve PVC ${name}: ${(err as Error).message}`));
          this.#recordClaimEvent("create", set, pod, name, err);
          continue;
        }
        try {
          await this.#client.createClaim(claim);
          this.#recordClaimEvent("create", set, pod, name, undefined);
        } catch (createErr) {
          errs.push(new Error(`failed to create PVC ${name}: ${(createErr as Error).message}`));
          if (!isAlreadyExists(createErr)) this.#recordClaimEvent("create", set, pod, name, createErr);
        }
        continue;
      }
      const meta = (existing["metadata"] ?? {}) as Record<string, unknown>;
      if (meta["deletionTimestamp"] !== undefined && meta["deletionTimestamp"] !== null)
        errs.push(new Error(`pvc ${name} is being deleted`));
    }
    if (errs.length > 0) throw new AggregateError(errs);
  }

  /** `CreateStatefulPod`: the claims, then the Pod. @throws the claims' or the create's error (AlreadyExists without an event). */
  async createStatefulPod(set: StatefulSet, pod: Pod): Promise<void> {
    try {
      await this.createPersistentVolumeClaims(set, pod);
    } catch (err) {
      this.#recordPodEvent("create", set, pod, err);
      throw err;
    }
    try {
      await this.#client.createPod(pod);
    } catch (err) {
      if (!isAlreadyExists(err)) this.#recordPodEvent("create", set, pod, err);
      throw err;
    }
    this.#recordPodEvent("create", set, pod, undefined);
  }

  /**
   * `UpdateStatefulPod`: restores the Pod's identity and storage, retrying on conflicts with a
   * fresh read (retry.DefaultBackoff's 4 tries... upstream retries 5 times).
   */
  async updateStatefulPod(set: StatefulSet, original: Pod): Promise<void> {
    let pod = structuredClone(original);
    let attempted = false;
    let lastErr: Error | undefined;
    for (let attempt = 0; attempt < 5; attempt++) {
      let consistent = true;
      if (!identityMatches(set, pod)) {
        updateIdentity(set, pod);
        consistent = false;
      }
      if (!storageMatches(set, pod)) {
        updateStorage(set, pod);
        consistent = false;
        try {
          await this.createPersistentVolumeClaims(set, pod);
        } catch (err) {
          this.#recordPodEvent("update", set, pod, err);
          throw err;
        }
      }
      if (consistent) return;
      attempted = true;
      try {
        await this.#client.updatePod(pod);
        lastErr = undefined;
        break;
      } catch (err) {
        lastErr = err as Error;
        try {
          pod = structuredClone(await this.#client.getPod(set.metadata.namespace ?? "", pod.metadata.name ?? ""));
        } catch {
          // upstream logs the failed read and retries with what it has.
        }
        if (!isConflict(err)) break;
      }
    }
    if (attempted) this.#recordPodEvent("update", set, pod, lastErr);
    if (lastErr !== undefined) throw lastErr;
  }

  /** `DeleteStatefulPod`. @throws the delete's error (after a `FailedDelete` event). */
  async deleteStatefulPod(set: StatefulSet, pod: Pod): Promise<void> {
    try {
      await this.#client.deletePod(pod.metadata.namespace ?? "", pod.metadata.name ?? "");
    } catch (err) {
      this.#recordPodEvent("delete", set, pod, err);
      throw err;
    }
    this.#recordPodEvent("delete", set, pod, undefined);
  }
}
