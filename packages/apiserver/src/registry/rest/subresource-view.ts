/**
 * A subresource served as another kind over its parent's storage, as the `scale` subresources
 * are (pkg/registry/apps/deployment/storage/storage.go ScaleREST): GET converts the stored parent
 * into the view; PUT and PATCH change the view and write the parent back through its own strategy.
 */
import type { FieldError } from "@servicenet/api";
import type { KubeObject } from "../../storage/index.ts";

export interface SubresourceView {
  /** The view's group, version and kind (autoscaling/v1 Scale) and its zod schema. */
  group: string;
  version: string;
  kind: string;
  schema: unknown;
  /** The view of a stored parent (`scaleFromDeployment`). */
  toView(parent: KubeObject): KubeObject;
  /** The view's own validation (`ValidateScale`); errors name the view's kind. */
  validate(view: KubeObject): FieldError[];
  /**
   * The parent's replicas field in each of its apiVersions (upstream's ResourcePathMappings), by
   * which the view's writes keep the parent's managedFields (fieldmanager ScaleHandler).
   */
  replicasPaths: ReadonlyMap<string, readonly string[] | null>;
  /** A copy of `parent` with the view's changes (spec.replicas, the resourceVersion precondition). */
  apply(parent: KubeObject, view: KubeObject): KubeObject;
}
