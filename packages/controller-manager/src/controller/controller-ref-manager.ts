/**
 * `PodControllerRefManager` (pkg/controller/controller_ref_manager.go): which Pods a controller
 * owns. It keeps its own Pods that still match, adopts matching orphans (after a fresh read shows
 * the controller is not being deleted) and releases its Pods that stopped matching.
 */
import type { LabelMatcher, OwnerReference, Pod } from "@servicenet/api";
import { isInvalid, isNotFound } from "@servicenet/client/errors";
import type { ControllerObject, PodControlInterface } from "./pod-control.ts";

/** `metav1.GetControllerOf`: the owner reference with `controller: true`. */
export function getControllerOf(obj: { metadata: { ownerReferences?: OwnerReference[] | undefined } }): OwnerReference | undefined {
  return obj.metadata.ownerReferences?.find((r) => r.controller === true);
}

/** `metav1.NewControllerRef`: the owner reference a controller puts on what it creates. */
export function newControllerRef(owner: ControllerObject): OwnerReference {
  return {
    apiVersion: owner.apiVersion,
    kind: owner.kind,
    name: owner.metadata.name ?? "",
    uid: owner.metadata.uid ?? "",
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** `ownerRefControllerPatch`: the strategic-merge patch that adopts; the dependent's uid makes it fail on a recreated object. */
export function ownerRefControllerPatch(owner: ControllerObject, uid: string): Record<string, unknown> {
  return { metadata: { ownerReferences: [newControllerRef(owner)], uid } };
}

/** `GenerateDeleteOwnerRefStrategicMergeBytes`: removes the owners' references from the dependent with `uid`. */
export function deleteOwnerRefPatch(uid: string, ownerUIDs: readonly string[]): Record<string, unknown> {
  return { metadata: { uid, ownerReferences: ownerUIDs.map((o) => ({ $patch: "delete", uid: o })) } };
}

/**
 * `RecheckDeletionTimestamp`: turns a fresh read of the controller into the adoption check; a
 * failed read or a controller being deleted forbids adopting.
 */
export function recheckDeletionTimestamp(get: () => Promise<ControllerObject>): () => Promise<void> {
  return async () => {
    let obj: ControllerObject;
    try {
      obj = await get();
    } catch (err) {
      throw new Error(`can't recheck DeletionTimestamp: ${(err as Error).message}`, { cause: err });
    }
    const ts = obj.metadata.deletionTimestamp;
    if (ts !== undefined && ts !== null)
      throw new Error(`${obj.metadata.namespace ?? ""}/${obj.metadata.name ?? ""} has just been deleted at ${goTime(String(ts))}`);
  };
}

/** A metav1.Time as Go's %v prints it (time.Time.String in UTC): `2026-01-01 00:00:00 +0000 UTC`. */
function goTime(rfc3339: string): string {
  const ms = Date.parse(rfc3339);
  if (Number.isNaN(ms)) return rfc3339;
  return `${new Date(ms)
    .toISOString()
    .replace("T", " ")
    .replace(/\.000Z$|Z$/, "")
    .replace(/(\.\d*?)0+$/, "$1")} +0000 UTC`;
}

/** An aggregate of errors as `utilerrors.NewAggregate` prints it. */
export class AggregateError extends Error {
  readonly errors: readonly Error[];
  constructor(errors: readonly Error[]) {
    super(errors.length === 1 ? errors[0]!.message : `[${errors.map((e) => e.message).join(", ")}]`);
    this.errors = errors;
  }
}

const isDeleting = (o: { metadata: { deletionTimestamp?: unknown } }) =>
  o.metadata.deletionTimestamp !== undefined && o.metadata.deletionTimestamp !== null;

/** A dependent as the claim sees it. */
interface Dependent {
  metadata: {
    namespace?: string | undefined;
    ownerReferences?: OwnerReference[] | undefined;
    deletionTimestamp?: unknown;
  };
}

/** How one kind of dependent is matched, adopted and released. */
export interface ClaimSteps<T> {
  match(obj: T): boolean;
  /** Runs the adoption check, then patches the controller in. */
  adopt(obj: T): Promise<void>;
  /** Removes the controller's reference; a dependent gone or recreated is no error. */
  release(obj: T): Promise<void>;
}

/**
 * `BaseControllerRefManager.ClaimObject`: keeps what the controller owns and still matches,
 * releases what it owns and no longer matches, adopts matching orphans, ignores what others own.
 */
export async function claimObject<T extends Dependent>(controller: ControllerObject, obj: T, steps: ClaimSteps<T>): Promise<boolean> {
  const ref = getControllerOf(obj);
  if (ref !== undefined) {
    if (ref.uid !== controller.metadata.uid) return false; // owned by someone else
    if (steps.match(obj)) return true;
    if (isDeleting(controller)) return false;
    try {
      await steps.release(obj);
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
    return false;
  }
  // An orphan.
  if (isDeleting(controller) || !steps.match(obj)) return false;
  if (isDeleting(obj)) return false;
  const ns = controller.metadata.namespace ?? "";
  if (ns !== "" && ns !== (obj.metadata.namespace ?? "")) return false;
  try {
    await steps.adopt(obj);
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
  return true;
}

/** Claims each object in turn; the errors of failed adoptions or releases are thrown together after every object was tried. */
export async function claimObjects<T extends Dependent>(
  controller: ControllerObject,
  objs: readonly T[],
  steps: ClaimSteps<T>,
): Promise<T[]> {
  const claimed: T[] = [];
  const errs: Error[] = [];
  for (const obj of objs) {
    try {
      if (await claimObject(controller, obj, steps)) claimed.push(obj);
    } catch (err) {
      errs.push(err as Error);
    }
  }
  if (errs.length > 0) throw new AggregateError(errs);
  return claimed;
}

/** `PodControllerRefManager`. */
export class PodControllerRefManager {
  readonly #podControl: PodControlInterface;
  readonly #controller: ControllerObject;
  readonly #selector: LabelMatcher;
  readonly #canAdoptFunc: (() => Promise<void>) | undefined;
  #canAdopt: Promise<void> | undefined;

  constructor(podControl: PodControlInterface, controller: ControllerObject, selector: LabelMatcher, canAdopt?: () => Promise<void>) {
    this.#podControl = podControl;
    this.#controller = controller;
    this.#selector = selector;
    this.#canAdoptFunc = canAdopt;
  }

  /** `CanAdopt`: the adoption check, run at most once per manager (`canAdoptOnce`). */
  canAdopt(): Promise<void> {
    this.#canAdopt ??= this.#canAdoptFunc?.() ?? Promise.resolve();
    return this.#canAdopt;
  }

  /**
   * `ClaimPods`: the Pods this controller owns after adopting and releasing; the errors of
   * failed adoptions or releases are thrown together after every Pod was tried.
   */
  claimPods(pods: readonly Pod[], filters: readonly ((p: Pod) => boolean)[] = []): Promise<Pod[]> {
    return claimObjects(this.#controller, pods, {
      match: (p) => this.#selector(p.metadata.labels) && filters.every((f) => f(p)),
      adopt: (p) => this.adoptPod(p),
      release: (p) => this.releasePod(p),
    });
  }

  /** `AdoptPod`: after the adoption check, patches this controller in as the Pod's controller. */
  async adoptPod(pod: Pod): Promise<void> {
    const m = pod.metadata;
    try {
      await this.canAdopt();
    } catch (err) {
      throw new Error(`can't adopt Pod ${m.namespace ?? ""}/${m.name ?? ""} (${m.uid ?? ""}): ${(err as Error).message}`, { cause: err });
    }
    await this.#podControl.patchPod(m.namespace ?? "", m.name ?? "", ownerRefControllerPatch(this.#controller, m.uid ?? ""));
  }

  /** `ReleasePod`: removes this controller's reference; a Pod gone or recreated (422) is no error. */
  async releasePod(pod: Pod): Promise<void> {
    const m = pod.metadata;
    try {
      await this.#podControl.patchPod(
        m.namespace ?? "",
        m.name ?? "",
        deleteOwnerRefPatch(m.uid ?? "", [this.#controller.metadata.uid ?? ""]),
      );
    } catch (err) {
      if (isNotFound(err) || isInvalid(err)) return;
      throw err;
    }
  }
}
