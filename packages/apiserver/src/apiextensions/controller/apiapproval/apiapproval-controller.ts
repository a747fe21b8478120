/**
 * KubernetesAPIApprovalPolicyConformantConditionController (apiextensions-apiserver pkg/controller/
 * apiapproval/apiapproval_controller.go): a CRD of a protected community group (`*.k8s.io`,
 * `*.kubernetes.io`) carries the KubernetesAPIApprovalPolicyConformant condition that says what its
 * `api-approved.kubernetes.io` annotation is worth.
 */
import { RateLimitingQueue } from "@servicenet/client/util/workqueue";
import {
  crdConditions,
  findCRDCondition,
  getAPIApprovalState,
  isProtectedCommunityGroup,
  kubeAPIApprovedAnnotation,
  setCRDCondition,
  type CustomResourceDefinition,
  type CustomResourceDefinitionCondition,
} from "@servicenet/api/apiextensions/v1";
import { noopLogger, type Logger } from "@servicenet/component-base/logs";
import type { GenericStore } from "../../../registry/generic/store.ts";
import type { CRDObject } from "../../registry/customresourcedefinition/strategy.ts";
import type { Lister, StoreInformer } from "../../../util/informer/store-informer.ts";
import { runWorker } from "../queue-worker.ts";
import { updateCachedCRDStatus } from "../status-update.ts";

const conditionReasons = {
  Invalid: "InvalidAnnotation",
  Missing: "MissingAnnotation",
  Approved: "ApprovedAnnotation",
  Bypassed: "UnapprovedAnnotation",
};

/** calculateCondition: the condition a CRD should carry, undefined outside the protected groups. */
export function calculateCondition(crd: CustomResourceDefinition): CustomResourceDefinitionCondition | undefined {
  if (!isProtectedCommunityGroup(crd.spec.group)) return undefined;
  const { state, reason } = getAPIApprovalState(crd.metadata.annotations);
  return {
    type: crdConditions.kubernetesAPIApprovalPolicyConformant,
    status: state === "Approved" ? "True" : "False",
    reason: conditionReasons[state],
    message: reason,
  };
}

/** The controller: one worker. */
export class APIApprovalController {
  readonly #queue = new RateLimitingQueue("kubernetes_api_approval_conformant_condition_controller");
  readonly #crds: Lister<CRDObject>;
  readonly #store: GenericStore;
  readonly #now: () => string;
  readonly #logger: Logger;
  /** The annotation each CRD's condition was last written for, so that HA apiservers of different versions do not fight over the message. */
  readonly #lastSeen = new Map<string, string>();

  constructor(informer: StoreInformer<CRDObject>, store: GenericStore, now: () => string, logger: Logger = noopLogger) {
    this.#crds = informer;
    this.#store = store;
    this.#now = now;
    this.#logger = logger;
    const enqueue = (o: CRDObject): void => this.#queue.add(o.metadata.name ?? "");
    informer.addEventHandler({
      onAdd: enqueue,
      onUpdate: (_o, n) => enqueue(n),
      onDelete: (o) => this.#lastSeen.delete(o.metadata.name ?? ""),
    });
  }

  /** Runs the worker until stop(). */
  run(): Promise<void> {
    return runWorker(this.#queue, (k) => this.sync(k), this.#logger);
  }

  stop(): void {
    this.#queue.shutDown();
  }

  /** Reconciles one CRD by name. */
  async sync(name: string): Promise<void> {
    const cached = this.#crds.get(name);
    if (cached === undefined) return;
    const annotation = cached.metadata.annotations?.[kubeAPIApprovedAnnotation] ?? "";
    if (this.#lastSeen.get(name) === annotation) return;
    // The group is immutable: a CRD without a condition now never needs one removed.
    const cond = calculateCondition(cached);
    if (cond === undefined) return;
    const old = findCRDCondition(cached, cond.type);
    if (old !== undefined && old.status === cond.status && old.reason === cond.reason && old.message === cond.message) return;
    if (!(await updateCachedCRDStatus(this.#store, cached, (crd) => setCRDCondition(crd, cond, this.#now())))) return;
    this.#lastSeen.set(name, annotation);
  }
}
