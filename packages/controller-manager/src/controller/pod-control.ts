/**
 * `PodControlInterface` and `RealPodControl` (pkg/controller/controller_utils.go): how a workload
 * controller creates Pods from its template, deletes and patches them, with the events upstream
 * records for each (`SuccessfulCreate`, `FailedCreate`, `SuccessfulDelete`, `FailedDelete`).
 */
import {
  isDNS1123Subdomain,
  namespaceTerminatingCause,
  type ObjectMeta,
  type OwnerReference,
  type Pod,
  type PodTemplateSpec,
} from "@servicenet/api";
import { hasStatusCause, isNotFound } from "@servicenet/client/errors";
import { getReference, type EventRecorder } from "@servicenet/client/tools/record";

/** The reasons of the events RealPodControl records (controller_utils.go constants). */
export const failedCreatePodReason = "FailedCreate";
export const successfulCreatePodReason = "SuccessfulCreate";
export const failedDeletePodReason = "FailedDelete";
export const successfulDeletePodReason = "SuccessfulDelete";

/** `SlowStartInitialBatchSize`: the first batch of a slow-start create. */
export const slowStartInitialBatchSize = 1;

/** The controller a Pod belongs to, with the kind and apiVersion its events and owner reference name. */
export interface ControllerObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
}

/** What a controller does to Pods (`PodControlInterface`). */
export interface PodControlInterface {
  createPods(namespace: string, template: PodTemplateSpec, controller: ControllerObject, controllerRef: OwnerReference): Promise<void>;
  deletePod(namespace: string, name: string, controller: ControllerObject): Promise<void>;
  /** A strategic-merge patch. */
  patchPod(namespace: string, name: string, patch: Record<string, unknown>): Promise<void>;
}

/** The Pod writes RealPodControl makes; failures are thrown as StatusErrors. */
export interface PodClient {
  create(namespace: string, pod: Pod): Promise<Pod>;
  delete(namespace: string, name: string): Promise<void>;
  patch(namespace: string, name: string, patch: Record<string, unknown>): Promise<Pod>;
}

/** `validateControllerRef`. */
export function validateControllerRef(ref: OwnerReference | undefined): void {
  if (ref === undefined) throw new Error("controllerRef is nil");
  if (ref.apiVersion === "") throw new Error("controllerRef has empty APIVersion");
  if (ref.kind === "") throw new Error("controllerRef has empty Kind");
  if (ref.controller !== true) throw new Error("controllerRef.Controller is not set to true");
  if (ref.blockOwnerDeletion !== true) throw new Error("controllerRef.BlockOwnerDeletion is not set");
}

/** `getPodsPrefix`: `<name>-`, or the bare name when the dash would make no valid name prefix. */
export function getPodsPrefix(controllerName: string): string {
  const prefix = `${controllerName}-`;
  // ValidatePodName(prefix, true) masks a trailing dash before checking (maskTrailingDash).
  const masked = prefix.length > 1 ? `${prefix.slice(0, -1)}a` : prefix;
  return isDNS1123Subdomain(masked).length === 0 ? prefix : controllerName;
}

/** `GetPodFromTemplate`: the template's labels, annotations, finalizers and spec, a generateName and the owner reference. */
export function getPodFromTemplate(template: PodTemplateSpec, controller: ControllerObject, controllerRef?: OwnerReference): Pod {
  const m = template.metadata;
  return {
    metadata: {
      ...(m.labels !== undefined ? { labels: { ...m.labels } } : {}),
      ...(m.annotations !== undefined ? { annotations: { ...m.annotations } } : {}),
      generateName: getPodsPrefix(controller.metadata.name ?? ""),
      ...(m.finalizers !== undefined ? { finalizers: [...m.finalizers] } : {}),
      ...(controllerRef !== undefined ? { ownerReferences: [{ ...controllerRef }] } : {}),
    },
    spec: structuredClone(template.spec),
  };
}

/** `RealPodControl`: Pod writes through the API, each recorded as an event on the controller. */
export class RealPodControl implements PodControlInterface {
  readonly #client: PodClient;
  readonly #recorder: EventRecorder;

  constructor(client: PodClient, recorder: EventRecorder) {
    this.#client = client;
    this.#recorder = recorder;
  }

  /** `CreatePods`. @throws the refused create's StatusError (after a `FailedCreate` event). */
  async createPods(
    namespace: string,
    template: PodTemplateSpec,
    controller: ControllerObject,
    controllerRef: OwnerReference,
  ): Promise<void> {
    validateControllerRef(controllerRef);
    const pod = getPodFromTemplate(template, controller, controllerRef);
    if (Object.keys(pod.metadata.labels ?? {}).length === 0) throw new Error("unable to create pods, no labels");
    const ref = getReference(controller, controller.kind, controller.apiVersion);
    let created: Pod;
    try {
      created = await this.#client.create(namespace, pod);
    } catch (err) {
      // Only when the namespace is not terminating: every create would fail there.
      if (!hasStatusCause(err, namespaceTerminatingCause))
        this.#recorder.event(ref, "Warning", failedCreatePodReason, `Error creating: ${(err as Error).message}`);
      throw err;
    }
    this.#recorder.event(ref, "Normal", successfulCreatePodReason, `Created pod: ${created.metadata.name ?? ""}`);
  }

  /** `DeletePod`. @throws a NotFound as is, any other failure as `unable to delete pods: ...` after a `FailedDelete` event. */
  async deletePod(namespace: string, name: string, controller: ControllerObject): Promise<void> {
    const ref = getReference(controller, controller.kind, controller.apiVersion);
    try {
      await this.#client.delete(namespace, name);
    } catch (err) {
      if (isNotFound(err)) throw err;
      this.#recorder.event(ref, "Warning", failedDeletePodReason, `Error deleting: ${(err as Error).message}`);
      throw new Error(`unable to delete pods: ${(err as Error).message}`, { cause: err });
    }
    this.#recorder.event(ref, "Normal", successfulDeletePodReason, `Deleted pod: ${name}`);
  }

  /** `PatchPod`: a strategic-merge patch. */
  async patchPod(namespace: string, name: string, patch: Record<string, unknown>): Promise<void> {
    await this.#client.patch(namespace, name, patch);
  }
}
