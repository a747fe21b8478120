/**
 * The storage contract of the apiserver (k8s.io/apiserver/pkg/storage/interfaces.go), over plain
 * JSON objects. Every backend (memory, sqlite, etcd) implements `Store` with the same semantics:
 *
 * - Keys are absolute logical keys such as `/registry/services/specs/<ns>/<name>` (see `keys.ts`).
 *   A backend may add a physical prefix (`StoreConfig.prefix`) that callers never see.
 * - One global revision counter per store; every write gets a strictly larger revision, and it is
 *   returned as `metadata.resourceVersion` (a decimal string). Revisions are never stored inside the
 *   object bytes, as upstream's `PrepareObjectForStorage` clears them.
 * - Errors are `StatusError`s from @servicenet/api. Storage only knows keys, so by default it names
 *   the resource from the key (`/registry/<resource>/...`, group ""). The registry wraps a store with
 *   `withGroupResource(store, {group, resource})` (see `group-resource.ts`) to get upstream's exact
 *   `servicecidrs.networking.k8s.io "x" not found` texts.
 */
import type { StatusObject } from "@servicenet/api/errors";

/** ObjectMeta fields the storage layer reads or writes; everything else passes through untouched. */
export interface StoredObjectMeta {
  name?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  [field: string]: unknown;
}

/** Any Kubernetes object as JSON. */
export type KubeObject = { apiVersion?: string; kind?: string; metadata: StoredObjectMeta } & Record<string, unknown>;

/** A filter applied by the store while listing or watching (label and field selectors, built above). */
export type Predicate = (obj: KubeObject) => boolean;

/** Upstream `storage.Preconditions`: the delete or update only proceeds if the current object matches. */
export interface Preconditions {
  uid?: string;
  resourceVersion?: string;
}

export interface CreateOptions {
  /** Run every check, write nothing; the returned object has no resourceVersion. */
  dryRun?: boolean;
}

export interface GetOptions {
  /** Return null instead of throwing NotFound. */
  ignoreNotFound?: boolean;
  /** "" or "0": latest; "N": the object must be at least as new as N (else TooLargeResourceVersion). */
  resourceVersion?: string;
  /**
   * The caller never changes the answer's labels, annotations or managedFields in place: a large
   * object may share them with every other such read of its version (decoded-cache.ts).
   */
  shareLarge?: boolean;
}

export interface DeleteOptions {
  preconditions?: Preconditions;
  /** Called with the current object before deleting; throw (e.g. a StatusError) to abort. */
  validateDeletion?: (current: KubeObject) => void | Promise<void>;
  dryRun?: boolean;
  /** The caller's last known copy; used as the first guess, re-read on conflict. */
  cachedExisting?: KubeObject;
}

/**
 * Receives the current object (a deep copy with `metadata.resourceVersion` set) and returns the
 * desired object. If the returned object carries a non-empty `resourceVersion` different from the
 * current one, the update fails with Conflict ("the object has been modified; ...") and is not
 * retried: that is how a stale client resourceVersion is rejected. Clear `resourceVersion` to force.
 * Throwing aborts the update with that error.
 */
export type TryUpdate = (current: KubeObject) => KubeObject | Promise<KubeObject>;

export interface GuaranteedUpdateOptions {
  preconditions?: Preconditions;
  /** When the key is absent, call tryUpdate with `{metadata: {}}` and create the result. */
  ignoreNotFound?: boolean;
  dryRun?: boolean;
  /** The caller's last known copy; tried first, re-read from storage on a revision conflict. */
  cachedExisting?: KubeObject;
}

/** `metav1.ResourceVersionMatch`; "" means the legacy rules. */
export type ResourceVersionMatch = "" | "Exact" | "NotOlderThan";

export interface ListOptions {
  /** "" latest (consistent), "0" any (we serve latest), "N" per resourceVersionMatch. */
  resourceVersion?: string;
  resourceVersionMatch?: ResourceVersionMatch;
  /** Maximum number of items after filtering; 0 or undefined means no limit. */
  limit?: number;
  /** A token from a previous page; fixes the revision to that page's. */
  continue?: string;
  predicate?: Predicate;
  /**
   * The caller never changes the items, beyond the idempotent read-time Decorator (the HTTP LIST
   * only decorates and serializes them): the store may hand it the one decoded object per key and
   * revision that every such read shares (decoded-cache.ts), as upstream's watch cache does.
   */
  readOnly?: boolean;
}

export interface ListResult {
  items: KubeObject[];
  /** The revision the list was read at. */
  resourceVersion: string;
  /** Set when more items may follow; pass back as `continue`. */
  continue?: string;
  /** Set with `continue` when there is no predicate (upstream only counts unfiltered lists). */
  remainingItemCount?: number;
}

export interface WatchOptions {
  /**
   * undefined, "" or "0": synthetic ADDED events for the current state, then changes.
   * "N": every change with revision > N, in revision order; 410 ERROR if N was compacted.
   */
  resourceVersion?: string;
  /** Watch every key under `key` (treated as a prefix, a trailing "/" is added) instead of one key. */
  recursive?: boolean;
  /** Objects leaving the predicate are reported as DELETED, entering ones as ADDED (as upstream). */
  predicate?: Predicate;
  allowBookmarks?: boolean;
  /** Bookmark period; upstream's is 1 min. */
  bookmarkIntervalMs?: number;
  /**
   * When the watch will be ended (epoch ms, from the request's timeout): with bookmarks, one more
   * is sent 2 s before it and the periodic ones stop there (upstream cacheWatcher.nextBookmarkTime).
   */
  deadline?: number;
  /** Closing the signal ends the iteration. Breaking out of `for await` closes it too. */
  signal?: AbortSignal;
  /**
   * The consumer never changes the objects it gets, beyond idempotent read-time defaulting (the
   * HTTP watch only serialises them): it may share one copy of an event's object with the other
   * read-only watchers of that event instead of getting its own deep copy.
   */
  readOnly?: boolean;
  /**
   * Read-time decoration of every delivered object, in place, before the consumer gets it
   * (upstream's Store.Decorator, which its watch applies through newDecoratedWatcher).
   */
  decorate?: (obj: KubeObject) => void;
}

export type WatchEventType = "ADDED" | "MODIFIED" | "DELETED" | "BOOKMARK" | "ERROR";

/**
 * A watch event. DELETED carries the last state with resourceVersion = the deletion revision.
 * BOOKMARK carries `{metadata: {resourceVersion}}` only; the server fills kind/apiVersion.
 * ERROR carries a Status (410 Expired: "too old resource version: N (C)") and ends the stream.
 */
export type WatchEvent =
  { type: "ADDED" | "MODIFIED" | "DELETED" | "BOOKMARK"; object: KubeObject } | { type: "ERROR"; object: StatusObject };

/**
 * One operation of a multi-key transaction. `expectedRevision` (or, for update, a non-empty
 * `obj.metadata.resourceVersion`) must equal the key's current revision, else Conflict. Ops without
 * an expectation are retried transparently when another writer races them.
 */
export type TxnOp =
  | { type: "create"; key: string; obj: KubeObject }
  | { type: "update"; key: string; obj: KubeObject; expectedRevision?: number | string }
  | { type: "delete"; key: string; expectedRevision?: number | string };

export interface TxnResult {
  /** The revision of the last write of the transaction. */
  revision: number;
  /** Per op: the stored object (create/update) or the deleted object (delete), with resourceVersion. */
  objects: KubeObject[];
}

export type BackendName = "memory" | "sqlite" | "etcd";

/** The storage interface (upstream `storage.Interface`), asynchronous. */
export interface Store {
  readonly backend: BackendName;

  /** Creates `key` if absent (AlreadyExists otherwise). Fills uid and creationTimestamp when missing. */
  create(key: string, obj: KubeObject, opts?: CreateOptions): Promise<KubeObject>;

  /** The object at `key` (NotFound, or null with ignoreNotFound). */
  get(key: string, opts?: GetOptions & { ignoreNotFound?: false }): Promise<KubeObject>;
  get(key: string, opts: GetOptions & { ignoreNotFound: true }): Promise<KubeObject | null>;
  get(key: string, opts?: GetOptions): Promise<KubeObject | null>;

  /** Deletes `key`, checking preconditions and validateDeletion against the current object; returns it. */
  delete(key: string, opts?: DeleteOptions): Promise<KubeObject>;

  /**
   * Read, apply tryUpdate, compare-and-swap on the revision, retry on a lost race. Unchanged bytes
   * skip the write and return the current object (same resourceVersion).
   */
  guaranteedUpdate(key: string, tryUpdate: TryUpdate, opts?: GuaranteedUpdateOptions): Promise<KubeObject>;

  /** Objects under `prefix` (a trailing "/" is added), in key order. */
  list(prefix: string, opts?: ListOptions): Promise<ListResult>;

  /** Number of live objects under `prefix` (for remainingItemCount and metrics). */
  count(prefix: string): Promise<number>;

  /** Changes under `key` from a revision, as an async iterable. See WatchOptions. */
  watch(key: string, opts?: WatchOptions): AsyncIterable<WatchEvent>;

  /** All-or-nothing writes over several keys; fails with AlreadyExists, NotFound or Conflict. */
  txn(ops: readonly TxnOp[]): Promise<TxnResult>;

  /** The newest revision of the store. */
  currentRevision(): Promise<number>;

  /** The revision up to which history was compacted (0 if never). */
  compactedRevision(): Promise<number>;

  /** Drops history older than `revision`: list/watch from a resourceVersion < revision then get 410. */
  compact(revision: number): Promise<void>;

  /** Stops the compaction loop and watchers, releases connections/files. */
  close(): Promise<void>;
}

/** Periodic compaction in the manner of kube-apiserver (compact to the revision seen one interval ago). */
export interface CompactionConfig {
  /** Period; 0 disables the loop. Upstream default is 5 min. */
  intervalMs: number;
  /** Never compact the newest `minRetain` revisions (kine's --compact-min-retain, default 1000). */
  minRetain?: number;
}

export interface StoreConfig {
  backend: BackendName;
  /** sqlite: database file (":memory:" allowed but not shared between processes). */
  path?: string;
  /** etcd: client URLs, e.g. ["http://127.0.0.1:2379"]. */
  endpoints?: string[];
  /** Physical key prefix prepended to every logical key (etcd key space / test isolation). */
  prefix?: string;
  /**
   * kube-apiserver's `--etcd-prefix`: the key root stored in place of `/registry` (after `prefix`),
   * normalised as upstream does ("tenant-a/" is "/tenant-a"). Default `/registry`.
   */
  etcdPrefix?: string;
  compaction?: CompactionConfig;
  /** sqlite: how often the log is polled for writes of other processes (default 1000 ms, as kine). */
  pollIntervalMs?: number;
}
