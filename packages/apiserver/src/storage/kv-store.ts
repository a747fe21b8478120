/**
 * `Store` on top of any KVEngine: the Kubernetes semantics (upstream etcd3/store.go) written once.
 * Writes are compare-and-swap transactions on mod revisions; a lost race re-reads and retries.
 */
import { StatusError } from "@servicenet/api/errors";
import { atRevision, clone, decode, encode, encodeForStorage, withCreateMeta } from "./codec.ts";
import { keyExists, keyNotFound, parseResourceVersion, preconditionFailed, staleObject } from "./errors.ts";
import { waitUntilFresh } from "./fresh.ts";
import type {
  CreateOptions,
  DeleteOptions,
  GetOptions,
  GuaranteedUpdateOptions,
  KubeObject,
  ListOptions,
  ListResult,
  Preconditions,
  Store,
  TryUpdate,
  TxnOp,
  TxnResult,
  WatchEvent,
  WatchOptions,
} from "./interfaces.ts";
import { asDirectory } from "./keys.ts";
import { prefixEnd, type KVEngine, type RawKV } from "./kv.ts";
import { decodedCacheOf } from "./decoded-cache.ts";
import { listKV } from "./kv-list.ts";
import { runTxn } from "./kv-txn.ts";
import { watchKV } from "./kv-watch.ts";
import { TurnBudget } from "../util/eventloop/turn-budget.ts";

/** Attempts before GuaranteedUpdate gives up under extreme contention (upstream retries forever). */
const maxAttempts = 10_000;

export class KVStore implements Store {
  readonly backend: Store["backend"];
  private readonly engine: KVEngine;
  private readonly prefix: string;
  private readonly onClose: () => void;

  constructor(engine: KVEngine, prefix = "", onClose: () => void = () => {}) {
    this.engine = engine;
    this.backend = engine.backend;
    this.prefix = prefix;
    this.onClose = onClose;
  }

  async create(key: string, obj: KubeObject, opts: CreateOptions = {}): Promise<KubeObject> {
    const budget = new TurnBudget();
    const toStore = withCreateMeta(obj);
    // Encoded and copied at once: `toStore` shares the caller's nested members, which the caller may
    // change while the write is in flight; only a near-limit object's large maps are written in turns.
    const { value, stored } = await encodeForStorage(toStore, budget);
    await budget.maybeYield();
    if (opts.dryRun) {
      if (await this.engine.get(this.prefix + key)) throw keyExists(key);
      return stored;
    }
    const res = await this.engine.txn(
      [{ key: this.prefix + key, modRevision: 0 }],
      [{ type: "put", key: this.prefix + key, value, decoded: stored }],
    );
    if (!res.succeeded) throw keyExists(key);
    return atRevision(stored, res.revisions[0]!);
  }

  get(key: string, opts?: GetOptions & { ignoreNotFound?: false }): Promise<KubeObject>;
  get(key: string, opts: GetOptions & { ignoreNotFound: true }): Promise<KubeObject | null>;
  get(key: string, opts?: GetOptions): Promise<KubeObject | null>;
  async get(key: string, opts: GetOptions = {}): Promise<KubeObject | null> {
    const minimum = parseResourceVersion(opts.resourceVersion);
    // Not older than `minimum`: wait for it first (upstream's cacher Get, WaitUntilFreshAndGet).
    if (minimum > 0) await waitUntilFresh(this.engine, minimum);
    const kv = await this.engine.get(this.prefix + key);
    if (!kv) {
      if (opts.ignoreNotFound) return null;
      throw keyNotFound(key);
    }
    return opts.shareLarge ? decodedCacheOf(this.engine).decode(kv) : decode(kv.value, kv.modRevision);
  }

  async delete(key: string, opts: DeleteOptions = {}): Promise<KubeObject> {
    const phys = this.prefix + key;
    let kv: RawKV | null = fromCache(opts.cachedExisting, phys);
    let fromCachedCopy = kv !== null;
    for (let attempt = 0; attempt < maxAttempts; attempt++) {
      kv ??= await this.engine.get(phys);
      if (!kv) throw keyNotFound(key);
      const current = decode(kv.value, kv.modRevision);
      try {
        checkPreconditions(key, opts.preconditions, current);
        await opts.validateDeletion?.(clone(current));
      } catch (e) {
        // A cached copy may be stale; only a fresh read may fail the delete.
        if (fromCachedCopy) {
          kv = null;
          fromCachedCopy = false;
          continue;
        }
        throw e;
      }
      if (opts.dryRun) return current;
      const res = await this.engine.txn([{ key: phys, modRevision: kv.modRevision }], [{ type: "delete", key: phys }]);
      if (res.succeeded) return current;
      kv = res.current[0] ?? null;
      fromCachedCopy = false;
    }
    throw StatusError.internal(`too many conflicts deleting ${key}`);
  }

  async guaranteedUpdate(key: string, tryUpdate: TryUpdate, opts: GuaranteedUpdateOptions = {}): Promise<KubeObject> {
    const phys = this.prefix + key;
    let kv: RawKV | null | undefined = fromCache(opts.cachedExisting, phys) ?? undefined;
    let fromCachedCopy = kv !== undefined;
    // Decoding and updating a near-limit object are each long: others run between them (the write
    // is a compare-and-swap, so what they write meanwhile makes this attempt retry). What tryUpdate
    // returned is encoded and copied in the same turn, before its caller can change it (etcd3
    // GuaranteedUpdate encodes right after tryUpdate).
    const budget = new TurnBudget();
    for (let attempt = 0; attempt < maxAttempts; attempt++) {
      if (kv === undefined) kv = await this.engine.get(phys);
      if (!kv && !opts.ignoreNotFound) throw keyNotFound(key);
      const current: KubeObject = kv ? decode(kv.value, kv.modRevision) : { metadata: {} };
      const currentRV = current.metadata.resourceVersion ?? "";
      let next: KubeObject;
      try {
        // Upstream checks preconditions against the zero object when the key is gone: a uid
        // precondition on a deleted object is a Conflict, never a re-create (etcd3 GuaranteedUpdate).
        checkPreconditions(key, opts.preconditions, current);
        await budget.maybeYield();
        // The fresh decoding itself, which nobody else holds, as etcd3's updateState hands
        // tryUpdate its origState.obj: no copy per write.
        next = await tryUpdate(current);
        const rv = next.metadata?.resourceVersion;
        if (rv !== undefined && rv !== "" && rv !== currentRV) throw staleObject(key);
      } catch (e) {
        if (fromCachedCopy) {
          kv = undefined;
          fromCachedCopy = false;
          continue;
        }
        throw e;
      }
      const toStore = kv ? next : withCreateMeta(next);
      // As in create: encoded and copied at once (tryUpdate's result may share members its caller keeps).
      const { value, stored } = await encodeForStorage(toStore, budget);
      if (kv && value === kv.value) {
        // Nothing to write; but a cached copy must be confirmed current first (upstream does the same).
        // tryUpdate may have changed `current`: the stored value decoded again, as etcd3's
        // GuaranteedUpdate decodes origState.data for an unchanged object.
        if (!fromCachedCopy) return decode(kv.value, kv.modRevision);
        kv = undefined;
        fromCachedCopy = false;
        continue;
      }
      await budget.maybeYield();
      if (opts.dryRun) return kv ? atRevision(stored, kv.modRevision) : stored;
      const res = await this.engine.txn(
        [{ key: phys, modRevision: kv?.modRevision ?? 0 }],
        [{ type: "put", key: phys, value, decoded: stored }],
      );
      if (res.succeeded) return atRevision(stored, res.revisions[0]!);
      kv = res.current[0] ?? null;
      fromCachedCopy = false;
    }
    throw StatusError.internal(`too many conflicts updating ${key}`);
  }

  list(prefix: string, opts: ListOptions = {}): Promise<ListResult> {
    return listKV(this.engine, this.prefix, asDirectory(prefix), opts);
  }

  count(prefix: string): Promise<number> {
    const start = this.prefix + asDirectory(prefix);
    return this.engine.count(start, prefixEnd(start));
  }

  watch(key: string, opts: WatchOptions = {}): AsyncIterable<WatchEvent> {
    return watchKV(this.engine, this.prefix, key, opts);
  }

  txn(ops: readonly TxnOp[]): Promise<TxnResult> {
    return runTxn(this.engine, this.prefix, ops);
  }

  currentRevision(): Promise<number> {
    return this.engine.currentRevision();
  }

  compactedRevision(): Promise<number> {
    return this.engine.compactedRevision();
  }

  compact(revision: number): Promise<void> {
    return this.engine.compact(revision);
  }

  async close(): Promise<void> {
    this.onClose();
    await this.engine.close();
  }
}

/** Upstream `Preconditions.Check`. */
export function checkPreconditions(key: string, pre: Preconditions | undefined, obj: KubeObject): void {
  if (!pre) return;
  const uid = obj.metadata.uid ?? "";
  if (pre.uid !== undefined && pre.uid !== uid) throw preconditionFailed(key, "UID", pre.uid, uid);
  const rv = obj.metadata.resourceVersion ?? "";
  if (pre.resourceVersion !== undefined && pre.resourceVersion !== rv)
    throw preconditionFailed(key, "ResourceVersion", pre.resourceVersion, rv);
}

/** The caller's cached object as a raw kv guess (its bytes re-encoded, its revision as mod revision). */
function fromCache(obj: KubeObject | undefined, phys: string): RawKV | null {
  const rv = obj?.metadata?.resourceVersion;
  if (!obj || !rv || !/^\d+$/.test(rv)) return null;
  return { key: phys, value: encode(obj), modRevision: Number(rv), createRevision: 0 };
}
