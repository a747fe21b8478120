/**
 * The key-value engine under every `Store`: a tiny subset of etcd's MVCC API (range at a revision,
 * multi-key compare-and-swap transactions on mod revisions, watch from a revision, compaction). The
 * Kubernetes semantics live once, in `kv-store.ts`, on top of it; memory, sqlite (kine-like) and
 * etcd only implement this. Keys here are physical (prefix already applied) and values are JSON text.
 */
import type { KubeObject } from "./interfaces.ts";

/** A live key at some revision. */
export interface RawKV {
  key: string;
  value: string;
  modRevision: number;
  createRevision: number;
  /**
   * `value` already decoded (without resourceVersion), set by an engine on the events of its own
   * writes: owned by this RawKV, handed out at most once by codec.ts `decodeKV` instead of a
   * JSON.parse of `value`, then dropped.
   */
  decoded?: KubeObject;
}

/** `modRevision: 0` means "the key must not exist". */
export interface KVCompare {
  key: string;
  modRevision: number;
}

/**
 * A put may carry `decoded`, what JSON.parse(value) gives (the writer's stored copy): read-only for
 * the engine and only until the txn resolves, so an engine that makes watch events of its own
 * writes copies it then instead of parsing `value` later.
 */
export type KVWrite = { type: "put"; key: string; value: string; decoded?: KubeObject } | { type: "delete"; key: string };

export interface KVTxnResult {
  succeeded: boolean;
  /** On success: the revision of each write, in order. */
  revisions: number[];
  /** On failure: the current state of every compared key (null = absent), in compare order. */
  current: (RawKV | null)[];
}

export interface KVRangeResult {
  kvs: RawKV[];
  /** The revision the range was read at. */
  revision: number;
  /** True when keys beyond `limit` exist in the range. */
  more: boolean;
}

/** A change. For deletes, `kv.value` is "" and `kv.modRevision` is the deletion revision. */
export interface KVEvent {
  type: "put" | "delete";
  kv: RawKV;
  prev: RawKV | null;
  /**
   * How many watch subscriptions this very event object is delivered to (1 when unset). Lets the
   * watch side parse the values once and hand every subscriber its own copy (see kv-watch.ts).
   */
  receivers?: number;
}

export interface KVWatchHandlers {
  /** Events in revision order, never older than the requested start; read only (fanOut hands one array to several subscribers). */
  onEvents(events: readonly KVEvent[]): void;
  /** The engine now knows every change up to `revision` (drives bookmarks). */
  onProgress?(revision: number): void;
  /**
   * The watch cannot continue; `compacted` set when history was compacted away, and then `err` is
   * a CompactedError carrying the compacted revision the engine knows of.
   */
  onError(err: unknown, compacted?: boolean): void;
}

/** Thrown by engines when a read or watch asks for a compacted revision. */
export class CompactedError extends Error {
  readonly compactedRevision: number;
  constructor(compactedRevision: number) {
    super(`mvcc: required revision has been compacted (compacted at ${compactedRevision})`);
    this.name = "CompactedError";
    this.compactedRevision = compactedRevision;
  }
}

export interface KVEngine {
  readonly backend: "memory" | "sqlite" | "etcd";
  get(key: string): Promise<RawKV | null>;
  /** Keys in [start, end) in key order, at `revision` (latest when 0). */
  range(start: string, end: string, opts: { revision?: number; limit?: number }): Promise<KVRangeResult>;
  /** Live keys in [start, end) at `revision` (latest when 0 or omitted). */
  count(start: string, end: string, revision?: number): Promise<number>;
  /** If every compare holds, apply all writes atomically. */
  txn(compares: readonly KVCompare[], writes: readonly KVWrite[]): Promise<KVTxnResult>;
  /** Watches [start, end) for changes with revision >= fromRevision; returns a cancel function. */
  watch(start: string, end: string, fromRevision: number, handlers: KVWatchHandlers): () => void;
  currentRevision(): Promise<number>;
  compactedRevision(): Promise<number>;
  /** Forget history older than `revision` (reads and watches below it then fail with CompactedError). */
  compact(revision: number): Promise<void>;
  close(): Promise<void>;
}

/** The exclusive end of a prefix range (etcd's "prefix + 1"). */
export function prefixEnd(prefix: string): string {
  if (prefix === "") return "\u{10FFFF}";
  const last = prefix.charCodeAt(prefix.length - 1);
  return prefix.slice(0, -1) + String.fromCharCode(last + 1);
}
