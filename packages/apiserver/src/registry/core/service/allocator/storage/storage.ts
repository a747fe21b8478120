/**
 * A bitmap persisted as a RangeAllocation object (upstream
 * pkg/registry/core/service/allocator/storage/storage.go, the `Etcd` type). The bitmap lives in
 * memory; every mutation is a read-modify-write (`guaranteedUpdate`) of the stored object: if the
 * stored resourceVersion is not the one this instance last wrote or read, the memory is restored
 * from the stored data first, then the operation is applied and the new snapshot written with a
 * compare-and-swap. Several apiservers on one store therefore never hand out one offset twice.
 *
 * Deviation for throughput: upstream holds a mutex across each round trip, so it does one write
 * per operation. Here operations issued while a write is in flight queue up and go out together
 * as ONE compare-and-swap write; each keeps its own result. A lost race re-reads, restores and
 * re-applies the whole batch (inside guaranteedUpdate); any other failure rejects the whole
 * batch and puts the memory back to the last committed state, so memory never holds an
 * allocation storage does not have.
 *
 * Also for throughput: while the memory is the object this instance last wrote, a batch is
 * written without reading it first, as a transaction expecting that revision (the read, decode
 * and re-encode of a /14's 43 kB snapshot cost more than the write). The compare-and-swap is the
 * same one guaranteedUpdate does: if anyone else wrote meanwhile, the memory is rolled back and
 * the batch re-applied on a fresh read, as above. A batch that changes nothing still takes the
 * read path, so an answer such as ErrAllocated is always confirmed against storage.
 */
import { StatusError } from "@servicenet/api";
import { StorageError, type KubeObject, type Store } from "../../../../../storage/index.ts";
import type { BitmapSnapshot, OffsetAllocator, Snapshottable } from "../interfaces.ts";
import { ErrRangeNotInitialized, rangeAllocationObject, snapshotOf, type RangeAllocationSnapshot, type RangeRegistry } from "./keys.ts";

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

interface PendingOp {
  op: () => unknown;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
  outcome?: Outcome;
}

/** A committed write: the stored object and the memory it holds. */
interface Written {
  obj: KubeObject;
  state: BitmapSnapshot;
}

type Task = { kind: "op"; pending: PendingOp } | { kind: "exclusive"; run: () => Promise<void> };

/** Options of a StoredAllocator. */
export interface StoredAllocatorOptions {
  store: Store;
  /** The storage key, e.g. `serviceIPsKey`. */
  key: string;
  /** The resource named in errors: `serviceipallocations` or `servicenodeportallocations`. */
  resource: string;
  /** The in-memory state the operations mutate. */
  state: Snapshottable;
  /** Most operations per write (default 512). */
  maxBatch?: number;
  /** Most event-loop turns a write waits for more operations (default 4; see #gather). */
  batchTurns?: number;
}

/** Write counters, to see the coalescing at work (tests, benchmarks). */
export interface StoredAllocatorStats {
  /** Writes attempted for operations (guaranteedUpdate calls and transactions on the known revision). */
  writes: number;
  /** Of `writes`, those sent without reading the object first (transactions on the known revision). */
  blindWrites: number;
  /** Operations settled. */
  ops: number;
}

const toBase64 = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("base64");
const fromBase64 = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, "base64"));

/** Runs operations on an in-memory Snapshottable as batched compare-and-swap writes of one key. */
export class StoredAllocator implements RangeRegistry {
  readonly key: string;
  readonly resource: string;
  readonly #store: Store;
  readonly #state: Snapshottable;
  readonly #maxBatch: number;
  readonly #batchTurns: number;
  readonly #queue: Task[] = [];
  readonly #stats: StoredAllocatorStats = { writes: 0, blindWrites: 0, ops: 0 };
  /** resourceVersion the memory corresponds to ("" = never read: restore on first use). */
  #last = "";
  /** The stored object as this instance last wrote it (its revision is `#last`), if it did. */
  #lastWritten: KubeObject | null = null;
  /** The memory as of `#last`, to roll back to. */
  #committed: BitmapSnapshot;
  /** Memory may differ from `#committed` (a batch is being applied). */
  #dirty = false;
  #draining = false;

  constructor(o: StoredAllocatorOptions) {
    this.key = o.key;
    this.resource = o.resource;
    this.#store = o.store;
    this.#state = o.state;
    this.#maxBatch = Math.max(1, o.maxBatch ?? 512);
    this.#batchTurns = Math.max(1, o.batchTurns ?? 4);
    this.#committed = o.state.snapshot();
  }

  /**
   * Applies `op` to the in-memory state inside a read-modify-write of the stored object and
   * resolves with its result once the write committed (or rejects with what `op` threw, or with
   * the storage error that failed its batch). `op` must be synchronous and must not throw after
   * mutating the state.
   */
  run<T>(op: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ kind: "op", pending: { op, resolve: resolve as (v: unknown) => void, reject } });
      this.#kick();
    });
  }

  /** The stored snapshot, or null if the object was never created. */
  async get(): Promise<RangeAllocationSnapshot | null> {
    const obj = await this.#store.get(this.key, { ignoreNotFound: true });
    return obj ? snapshotOf(obj) : null;
  }

  /** Upstream `CreateOrUpdate`: writes `snapshot` (see RangeRegistry), then adopts it in memory. */
  createOrUpdate(snapshot: RangeAllocationSnapshot): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#queue.push({ kind: "exclusive", run: () => this.#createOrUpdate(snapshot).then(resolve, reject) });
      this.#kick();
    });
  }

  /** The resourceVersion the memory corresponds to ("" before the first read). */
  lastResourceVersion(): string {
    return this.#last;
  }

  stats(): StoredAllocatorStats {
    return { ...this.#stats };
  }

  #kick(): void {
    if (this.#draining) return;
    this.#draining = true;
    void this.#drain();
  }

  async #drain(): Promise<void> {
    try {
      while (this.#queue.length > 0) {
        await this.#gather();
        const head = this.#queue[0]!;
        if (head.kind === "exclusive") {
          this.#queue.shift();
          await head.run();
          continue;
        }
        const batch: PendingOp[] = [];
        while (batch.length < this.#maxBatch && this.#queue[0]?.kind === "op")
          batch.push((this.#queue.shift() as { pending: PendingOp }).pending);
        await this.#commit(batch);
      }
    } finally {
      this.#draining = false;
    }
  }

  /**
   * Lets operations queue up before a write: the rest of this event-loop turn, and further turns
   * (up to `batchTurns`) while each brings more. A lone caller waits one turn; under load one
   * snapshot write carries the allocations of several turns of requests.
   */
  async #gather(): Promise<void> {
    let seen = -1;
    for (let turn = 0; turn < this.#batchTurns && this.#queue.length !== seen && this.#queue.length < this.#maxBatch; turn++) {
      seen = this.#queue.length;
      await new Promise<void>((r) => setImmediate(r));
    }
  }

  async #commit(batch: PendingOp[]): Promise<void> {
    this.#stats.writes++;
    try {
      const done = (await this.#writeOnLast(batch)) ?? (await this.#readModifyWrite(batch));
      this.#adopt(done.obj, done.state);
    } catch (err) {
      this.#rollback();
      for (const p of batch) p.reject(err);
      this.#stats.ops += batch.length;
      return;
    }
    for (const p of batch) {
      const o = p.outcome!;
      if (o.ok) p.resolve(o.value);
      else p.reject(o.error);
    }
    this.#stats.ops += batch.length;
  }

  /** Upstream's tryUpdate round: read, catch up, apply, compare-and-swap (retried on a lost race). */
  async #readModifyWrite(batch: PendingOp[]): Promise<Written> {
    let state: BitmapSnapshot | null = null;
    const obj = await this.#store.guaranteedUpdate(
      this.key,
      (current) => {
        state = this.#apply(current, batch);
        return rangeAllocationObject({ range: state.rangeSpec, data: toBase64(state.data) }, current);
      },
      { ignoreNotFound: true },
    );
    return { obj, state: state! };
  }

  /**
   * The batch applied to the memory and written as a transaction expecting `#last`, without a
   * read. Null (memory rolled back) when that is not possible or the revision moved on: the
   * caller then takes the guaranteedUpdate path. Other storage errors are thrown.
   */
  async #writeOnLast(batch: PendingOp[]): Promise<Written | null> {
    const base = this.#lastWritten;
    if (!base || this.#dirty || base.metadata.resourceVersion !== this.#last) return null;
    this.#dirty = true;
    this.#run(batch);
    const next = this.#state.snapshot();
    if (sameSnapshot(next, this.#committed)) {
      this.#rollback();
      return null;
    }
    const obj = rangeAllocationObject({ range: next.rangeSpec, data: toBase64(next.data) }, base);
    this.#stats.blindWrites++;
    try {
      const res = await this.#store.txn([{ type: "update", key: this.key, obj, expectedRevision: this.#last }]);
      return { obj: res.objects[0]!, state: next };
    } catch (err) {
      if (!(err instanceof StorageError && (err.kind === "conflict" || err.kind === "notFound"))) throw err;
      this.#rollback();
      return null;
    }
  }

  /** The write of `obj` (holding `state`) committed: the memory is now that revision. */
  #adopt(obj: KubeObject, state: BitmapSnapshot): void {
    this.#last = obj.metadata.resourceVersion ?? "";
    this.#lastWritten = obj;
    this.#committed = state;
    this.#dirty = false;
  }

  /** The tryUpdate body: refuse an uninitialised range, catch up with storage, apply the batch. */
  #apply(current: KubeObject, batch: PendingOp[]): BitmapSnapshot {
    const rv = current.metadata.resourceVersion ?? "";
    if (rv === "") throw new ErrRangeNotInitialized(this.resource);
    if (rv !== this.#last || this.#dirty) {
      const s = snapshotOf(current);
      this.#state.restore(s.range, fromBase64(s.data));
    }
    this.#dirty = true;
    this.#run(batch);
    return this.#state.snapshot();
  }

  #run(batch: PendingOp[]): void {
    for (const p of batch) {
      try {
        p.outcome = { ok: true, value: p.op() };
      } catch (error) {
        p.outcome = { ok: false, error };
      }
    }
  }

  #rollback(): void {
    if (!this.#dirty) return;
    this.#state.restore(this.#committed.rangeSpec, this.#committed.data);
    this.#dirty = false;
  }

  async #createOrUpdate(snapshot: RangeAllocationSnapshot): Promise<void> {
    const want = snapshot.resourceVersion ?? "";
    const gr = { group: "", resource: this.resource };
    const obj = await this.#store.guaranteedUpdate(
      this.key,
      (current) => {
        const have = current.metadata.resourceVersion ?? "";
        if (want !== "" && have !== "" && want !== have) throw StatusError.conflict(gr, "", "the provided resource version does not match");
        if (want === "" && have !== "") throw StatusError.conflict(gr, "", "another caller has already initialized the resource");
        return rangeAllocationObject(snapshot, have !== "" ? current : undefined);
      },
      { ignoreNotFound: true },
    );
    try {
      this.#state.restore(snapshot.range, fromBase64(snapshot.data));
    } catch (err) {
      // Written but not ours to adopt (another range): make the next operation re-read and fail.
      this.#last = "";
      this.#lastWritten = null;
      throw err;
    }
    this.#adopt(obj, this.#state.snapshot());
  }
}

function sameSnapshot(a: BitmapSnapshot, b: BitmapSnapshot): boolean {
  return a.rangeSpec === b.rangeSpec && Buffer.from(a.data.buffer, a.data.byteOffset, a.data.byteLength).equals(b.data);
}

/** Upstream's `Etcd` allocator.Interface: offset operations on a persisted bitmap. */
export class StoredBitmap extends StoredAllocator {
  readonly #bitmap: OffsetAllocator & Snapshottable;

  constructor(o: Omit<StoredAllocatorOptions, "state"> & { bitmap: OffsetAllocator & Snapshottable }) {
    super({ ...o, state: o.bitmap });
    this.#bitmap = o.bitmap;
  }

  /** Reserves `offset`; false if it was taken (in storage). */
  allocate(offset: number): Promise<boolean> {
    return this.run(() => this.#bitmap.allocate(offset));
  }

  /** Reserves a free offset, or null when full. */
  allocateNext(): Promise<number | null> {
    return this.run(() => this.#bitmap.allocateNext());
  }

  release(offset: number): Promise<void> {
    return this.run(() => this.#bitmap.release(offset));
  }

  /** The in-memory view (as of the last operation), as upstream's ForEach/Has/Free. */
  forEach(fn: (offset: number) => void): void {
    this.#bitmap.forEach(fn);
  }

  has(offset: number): boolean {
    return this.#bitmap.has(offset);
  }

  free(): number {
    return this.#bitmap.free();
  }
}
