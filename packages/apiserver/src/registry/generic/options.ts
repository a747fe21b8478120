/** Options of the generic REST store's verbs, already parsed from the query string and body. */
import type { UserInfo } from "../../authentication/user/user.ts";
import type { KubeObject, Preconditions, ResourceVersionMatch } from "../../storage/index.ts";
import type { FieldSelector } from "./selection/fields.ts";
import type { LabelSelector } from "./selection/labels.ts";

export interface ListParams {
  labelSelector?: LabelSelector;
  fieldSelector?: FieldSelector;
  limit?: number;
  continue?: string;
  resourceVersion?: string;
  resourceVersionMatch?: ResourceVersionMatch;
  /** See storage ListOptions.readOnly. */
  readOnly?: boolean;
}

export interface WatchParams {
  labelSelector?: LabelSelector;
  fieldSelector?: FieldSelector;
  resourceVersion?: string;
  allowBookmarks?: boolean;
  /** See storage WatchOptions.deadline. */
  deadline?: number;
  signal?: AbortSignal;
  /** See storage WatchOptions.readOnly. */
  readOnly?: boolean;
  /** See storage WatchOptions.decorate. */
  decorate?: (obj: KubeObject) => void;
}

export interface WriteParams {
  dryRun?: boolean;
  /**
   * Collects the strategy's warnings (upstream `warning.AddWarning` on the request context); the
   * handler sends them as `Warning` headers. A message is recorded once, as upstream's recorder
   * does, so a compare-and-swap retry adds nothing twice.
   */
  warnings?: string[];
  /**
   * The request's authenticated user (upstream request.UserFrom(ctx)), for stores that check it
   * (RBAC escalation prevention); undefined without authentication.
   */
  user?: UserInfo;
  /**
   * Validating admission of a new object (upstream's createValidation, rest.ValidateObjectFunc):
   * called after the strategy validated it, before it is written; throws to refuse.
   */
  createValidation?: (obj: KubeObject) => Promise<void>;
  /** Collects the audit annotations the REST adds (upstream audit.AddAuditAnnotation on the request context). */
  auditAnnotations?: Record<string, string>;
}

export interface UpdateParams extends WriteParams {
  /** "" for the main resource, "status" for the status subresource. */
  subresource?: string;
  /** Server-side apply may create (upstream forces AllowCreateOnUpdate for apply patches). */
  forceAllowCreate?: boolean;
  /** A PUT body's uid (upstream defaultUpdatedObjectInfo.Preconditions): checked against the stored object. */
  preconditions?: Preconditions;
  /** Validating admission of an update (upstream's updateValidation), after the strategy's; throws to refuse. */
  updateValidation?: (obj: KubeObject, old: KubeObject) => Promise<void>;
}

export interface DeleteParams extends WriteParams {
  preconditions?: Preconditions;
  propagationPolicy?: string;
  /** The deprecated DeleteOptions.orphanDependents (never set together with propagationPolicy). */
  orphanDependents?: boolean;
  gracePeriodSeconds?: number;
  /** Validating admission of a delete (upstream's deleteValidation) with the stored object; throws to refuse. */
  deleteValidation?: (obj: KubeObject) => Promise<void>;
}

/**
 * Produces the desired object from the stored one (null when absent): the PUT body, or the
 * current object with a patch applied. Called again when the compare-and-swap loses a race.
 */
export type UpdatedObjectInfo = (current: KubeObject | null) => Promise<KubeObject>;

export interface UpdateResult {
  object: KubeObject;
  created: boolean;
}

export interface DeleteResult {
  object: KubeObject;
  /** False when finalizers keep the object (it only got a deletionTimestamp). */
  deleted: boolean;
}
