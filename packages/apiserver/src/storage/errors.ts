/**
 * Storage errors. Upstream returns `storage.StorageError`s that each registry maps to API errors with
 * its qualified resource (storeerr.InterpretGetError & co). Here storage throws the API errors
 * directly, naming the resource from the key; `withGroupResource` re-labels them for a registry.
 */
import { StatusError, type GroupResource, type StatusDetails, type StatusReason } from "@servicenet/api/errors";
import { encodeContinue } from "./continue-token.ts";
import { nameFromKey, resourceFromKey } from "./keys.ts";
import { CompactedError } from "./kv.ts";

/** Upstream `registry.OptimisticLockErrorMsg`. */
export const optimisticLockErrorMsg = "the object has been modified; please apply your changes to the latest version and try again";

/** Upstream `etcd3` "The resourceVersion for the provided list is too old." */
export const listTooOldMsg = "The resourceVersion for the provided list is too old.";

/** Upstream's message for a continue token whose revision was compacted. */
export const continueTooOldMsg =
  "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.";

type Kind = "notFound" | "alreadyExists" | "conflict";

/** A StatusError raised for one key; remembers enough to be re-labelled with the real GroupResource. */
export class StorageError extends StatusError {
  readonly key: string;
  readonly kind: Kind;
  readonly detail: string;

  constructor(kind: Kind, key: string, gr: GroupResource, detail = "") {
    const built = build(kind, gr, nameFromKey(key), detail);
    super(built.reason as StatusReason, built.message, built.details);
    this.key = key;
    this.kind = kind;
    this.detail = detail;
  }

  /** The same error, for `gr`. */
  relabel(gr: GroupResource): StorageError {
    return new StorageError(this.kind, this.key, gr, this.detail);
  }
}

function build(kind: Kind, gr: GroupResource, name: string, detail: string): { reason: string; message: string; details?: StatusDetails } {
  const e =
    kind === "notFound"
      ? StatusError.notFound(gr, name)
      : kind === "alreadyExists"
        ? StatusError.alreadyExists(gr, name)
        : StatusError.conflict(gr, name, detail);
  return { reason: e.reason, message: e.message, ...(e.status.details ? { details: e.status.details } : {}) };
}

function defaultResource(key: string): GroupResource {
  return { group: "", resource: resourceFromKey(key) };
}

export const keyNotFound = (key: string): StorageError => new StorageError("notFound", key, defaultResource(key));
export const keyExists = (key: string): StorageError => new StorageError("alreadyExists", key, defaultResource(key));
/** Conflict with upstream's optimistic-lock text. */
export const staleObject = (key: string): StorageError => new StorageError("conflict", key, defaultResource(key), optimisticLockErrorMsg);

/** Conflict for a failed precondition, with upstream's StorageError text (ErrCodeInvalidObj = 4). */
export function preconditionFailed(key: string, what: "UID" | "ResourceVersion", want: string, have: string): StorageError {
  const msg = `Precondition failed: ${what} in precondition: ${want}, ${what} in object meta: ${have}`;
  const detail = `StorageError: invalid object, Code: 4, Key: ${key}, ResourceVersion: 0, AdditionalErrorMsg: ${msg}`;
  return new StorageError("conflict", key, defaultResource(key), detail);
}

/**
 * Upstream etcd3 `interpretListError`: a list read at a compacted revision is 410 Expired. A
 * continuation (`paging`) gets handleCompactedErrorForPaging's answer: a fresh token at the
 * latest revision (rv -1) resuming at the failed page's first key, in the Status's ListMeta, so
 * a client may take an inconsistent remainder. Anything else is returned unchanged.
 */
export function interpretListError(e: unknown, paging: { listPrefix: string; continueKey: string } | undefined): unknown {
  if (!(e instanceof CompactedError)) return e;
  if (!paging) return StatusError.expired(listTooOldMsg);
  const err = StatusError.expired(continueTooOldMsg);
  // StatusObject types metadata as empty; upstream's Status carries ListMeta, and this is its one use.
  (err.status.metadata as Record<string, unknown>)["continue"] = encodeContinue(paging.listPrefix, paging.continueKey, -1);
  return err;
}

/** 410 for a watch from a compacted revision: `too old resource version: N (C)`. */
export function watchTooOld(requested: number, compacted: number): StatusError {
  return StatusError.expired(`too old resource version: ${requested} (${compacted})`);
}

/** Upstream `NewTooLargeResourceVersionError`: 504 with a ResourceVersionTooLarge cause and Retry-After. */
export function tooLargeResourceVersion(requested: number, current: number): StatusError {
  return new StatusError("Timeout", `Too large resource version: ${requested}, current: ${current}`, {
    causes: [{ reason: "ResourceVersionTooLarge", message: "Too large resource version" }],
    retryAfterSeconds: 1,
  });
}

/** Parses a resourceVersion ("" -> 0); BadRequest when it is not a non-negative integer. */
export function parseResourceVersion(rv: string | undefined): number {
  if (rv === undefined || rv === "") return 0;
  if (!/^\d+$/.test(rv)) throw StatusError.badRequest(`invalid resource version: ${JSON.stringify(rv)}`);
  return Number(rv);
}
