/**
 * The per-resource behaviour the generic REST store calls (upstream rest.RESTCreateStrategy,
 * RESTUpdateStrategy, RESTDeleteStrategy and their status-subresource variants).
 */
import { semanticEqual, type FieldError } from "@servicenet/api";
import type { KubeObject } from "../../storage/index.ts";
import type { GracefulDeleteOptions, GracefulDeleteStrategy } from "../rest/delete.ts";
import type { GarbageCollectionPolicy } from "./gc-finalizers.ts";
import { stringifyJSON } from "../../util/json/json.ts";

/** What a status (or other) subresource update may change. */
export interface SubresourceStrategy<T extends KubeObject = KubeObject> {
  prepareForUpdate(obj: T, old: T): void;
  /** As {@link RESTStrategy.validateUpdate}. */
  validateUpdate(obj: T, old: T, warnings?: string[]): FieldError[];
}

/**
 * Typed by the kind's object (`RESTStrategy<Deployment>`): the store hands every method a decoded,
 * defaulted object of the kind, as upstream's strategies type-assert `obj.(*apps.Deployment)`.
 * `checkGracefulDelete` (RESTGracefulDeleteStrategy) makes DELETE graceful for the kind (pods).
 */
export interface RESTStrategy<T extends KubeObject = KubeObject> extends GracefulDeleteStrategy {
  /** Group and kind for Invalid errors (`Service "x" is invalid: ...`). */
  group: string;
  kind: string;
  namespaced: boolean;
  /** Versioned defaulting, applied to every decoded request body (SetDefaults_*). */
  defaults?(obj: T): void;
  /** Clears what users may not set on create (status, generation...). */
  prepareForCreate(obj: T): void;
  /** Copies what users may not change on update (status from `old`...). */
  prepareForUpdate(obj: T, old: T): void;
  validate(obj: T): FieldError[];
  /** `warnings` collects what upstream's validation adds to the request (warning.AddWarning). */
  validateUpdate(obj: T, old: T, warnings?: string[]): FieldError[];
  /** Warnings for a valid new object, sent as `Warning` headers (upstream WarningsOnCreate). */
  warningsOnCreate?(obj: T): string[];
  /** Warnings for a valid update of the main resource (upstream WarningsOnUpdate). */
  warningsOnUpdate?(obj: T, old: T): string[];
  /**
   * Normalises an object before it is stored; asynchronous where that converts it by a call out
   * (a custom resource into its storage version through a conversion webhook).
   */
  canonicalize?(obj: T): void | Promise<void>;
  /**
   * The stored object as this endpoint's version reads it, for an update to start from: what the
   * update's patch, admission and validation see as the old object (the storage codec's decoder
   * version, as crdConversionRESTOptionsGetter sets it to the handler's version for custom
   * resources). Asynchronous where the decoding converts by a call out (a conversion webhook).
   * Without it the stored object is used as is.
   */
  decode?(stored: T): T | Promise<T>;
  /** PUT of a missing object creates it (upstream AllowCreateOnUpdate). */
  allowCreateOnUpdate: boolean;
  /** PUT without metadata.resourceVersion is allowed (last write wins). */
  allowUnconditionalUpdate: boolean;
  /** rest.GarbageCollectionDeleteStrategy's DefaultGarbageCollectionPolicy; default DeleteDependents. */
  defaultGarbageCollectionPolicy?: GarbageCollectionPolicy;
  /** DELETE answers with the deleted object instead of a Success Status. */
  returnDeletedObject?: boolean;
  /** Field-selector attributes beyond metadata.name/metadata.namespace (upstream GetAttrs). */
  selectableFields?(obj: T): Record<string, string>;
  /** Fields the above returns, for the 400 on anything else. */
  selectableFieldNames?: readonly string[];
  /** Subresources by name (`status`). */
  subresources?: Readonly<Record<string, SubresourceStrategy<T>>>;
  checkGracefulDelete?(obj: T, options: GracefulDeleteOptions): boolean;
}

/** A shallow JSON-equality test good enough for spec comparisons. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  return stringifyJSON(a) === stringifyJSON(b);
}

/**
 * The main resource's update: status is owned by the status subresource, so it is carried over
 * from the stored object. Generation stays the stored one (rest.BeforeUpdate).
 */
export function keepStatus(obj: KubeObject, old: KubeObject): void {
  if (old["status"] === undefined) delete obj["status"];
  else obj["status"] = structuredClone(old["status"]);
}

/**
 * metadata.generation + 1 when `spec` changed, for the strategies that track generation
 * (pod strategy.go updatePodGeneration: oldPod.Generation + 1).
 */
export function bumpGeneration(obj: KubeObject, old: KubeObject): void {
  const prev = typeof old.metadata.generation === "number" ? old.metadata.generation : 0;
  // apiequality.Semantic.DeepEqual: key order and zero values do not count as a change.
  obj.metadata.generation = semanticEqual(obj["spec"], old["spec"]) ? prev : prev + 1;
}

/** bumpGeneration for a kind whose desired state is another top-level field (webhook configurations: `webhooks`). */
export function bumpGenerationOn(fieldName: string): (obj: KubeObject, old: KubeObject) => void {
  return (obj, old) => {
    const prev = typeof old.metadata.generation === "number" ? old.metadata.generation : 0;
    obj.metadata.generation = semanticEqual(obj[fieldName], old[fieldName]) ? prev : prev + 1;
  };
}

/**
 * The status subresource's update: the spec and the user-facing metadata of `old` win
 * (upstream `ResetObjectMetaForStatus` plus `newObj.Spec = oldObj.Spec`).
 */
export function resetForStatus(obj: KubeObject, old: KubeObject): void {
  if (old["spec"] === undefined) delete obj["spec"];
  else obj["spec"] = structuredClone(old["spec"]);
  for (const k of [
    "labels",
    "annotations",
    "finalizers",
    "ownerReferences",
    "deletionTimestamp",
    "deletionGracePeriodSeconds",
    "generation",
  ] as const) {
    if (old.metadata[k] === undefined) delete obj.metadata[k];
    else (obj.metadata as Record<string, unknown>)[k] = structuredClone(old.metadata[k]);
  }
}

/** The status subresource for kinds with spec + status and no special status validation. */
export function plainStatusStrategy(validateMetaUpdate: (obj: KubeObject, old: KubeObject) => FieldError[]): SubresourceStrategy {
  return { prepareForUpdate: resetForStatus, validateUpdate: validateMetaUpdate };
}
