/**
 * The optional hooks of the generic REST store (k8s.io/apiserver/pkg/registry/generic/registry/
 * store.go: Store.BeginCreate, AfterCreate, BeginUpdate, AfterUpdate, AfterDelete, Decorator).
 * A kind that needs more than its strategy (Service: allocate ClusterIPs and NodePorts, release
 * them on delete, default legacy objects on read) sets them on its store instead of overriding
 * the store's verbs.
 *
 * Order of a create: metadata init (namespace, generated name) → BeginCreate → strategy
 * (PrepareForCreate, Validate) → storage write → finish(true or false) → AfterCreate → Decorator.
 * An update runs objInfo → BeginUpdate (or BeginCreate when the object is absent) → strategy →
 * compare-and-swap; a retry of the compare-and-swap first finishes the previous attempt with
 * `false`, so only the attempt that was written is finished with `true`.
 */
import type { KubeObject } from "../../storage/index.ts";
import type { DeleteParams, UpdateParams, WriteParams } from "./options.ts";

/**
 * Ends what a Begin hook started (upstream FinishFunc): `success` is true once the object was
 * written, false when anything failed or the compare-and-swap is retried. Must not throw.
 */
export type FinishFunc = (success: boolean) => Promise<void>;

/** A FinishFunc that does nothing (upstream finishNothing). */
export const finishNothing: FinishFunc = async () => {};

/** The hooks a GenericStore calls; all optional, all default to doing nothing. */
export interface StoreHooks {
  /**
   * Before the strategy prepares and validates a new object (metadata already initialised);
   * throw to reject the request. Not called for subresource updates.
   */
  beginCreate?: (obj: KubeObject, p: WriteParams) => Promise<FinishFunc>;
  /** After a successful create (or create-on-update), before the Decorator. */
  afterCreate?: (obj: KubeObject, p: WriteParams) => void;
  /**
   * Before the strategy prepares and validates an update of `old` (the stored object) into `obj`;
   * called again for every compare-and-swap attempt. Not called for subresource updates (upstream's
   * status store is a copy of the main store without Begin hooks).
   */
  beginUpdate?: (obj: KubeObject, old: KubeObject, p: UpdateParams) => Promise<FinishFunc>;
  /** After a successful update of an existing object, before the Decorator. */
  afterUpdate?: (obj: KubeObject, p: UpdateParams) => void;
  /**
   * After the object is really gone from storage (not merely marked deleting), whatever removed
   * it: DELETE, deletecollection, or an update that emptied the finalizers. Never for a dry run.
   * Must not throw.
   */
  afterDelete?: (obj: KubeObject, p: DeleteParams) => Promise<void>;
  /** Read-time changes, in place, to every object returned (get, list, watch, create, update, delete). */
  decorator?: (obj: KubeObject) => void;
}
