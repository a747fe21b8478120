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
 */
import { StatusError } from "@servicenet/api";
import type { KubeObject, Store } from "../../../../../storage/index.ts";
import type { BitmapSnapshot, OffsetAllocator, Snapshottable } from "../interfaces.ts";
import { ErrRangeNotInitialized, rangeAllocationObject, snapshotOf, type RangeAllocationSnapshot, type RangeRegistry } from "./keys.ts";

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

interface PendingOp {
  op: () => unknown;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
  outcome?: Outcome;
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
}

/** Write counters, to see the coalescing at work (tests, benchmarks). */
export interface StoredAllocatorStats {
  /** guaranteedUpdate calls made for operations. */
  writes: number;
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
  readonly #queue: Task[] = [];
  readonly #stats: StoredAllocatorStats = { writes: 0, ops: 0 };
  /** resourceVersion the memory corresponds to ("" = never read: restore on first use). */
  #last = "";
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
      // Let the callers of this tick queue up first, so their operations share the first write.
      await Promise.resolve();
      while (this.#queue.length > 0) {
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

  async #commit(batch: PendingOp[]): Promise<void> {
    let written: BitmapSnapshot | null = null;
    this.#stats.writes++;
    try {
      const obj = await this.#store.guaranteedUpdate(
        this.key,
        (current) => {
          written = this.#apply(current, batch);
          return rangeAllocationObject({ range: written.rangeSpec, data: toBase64(written.data) }, current);
        },
        { ignoreNotFound: true },
      );
      this.#last = obj.metadata.resourceVersion ?? "";
      this.#committed = written!;
      this.#dirty = false;
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

  /** The tryUpdate body: refuse an uninitialised range, catch up with storage, apply the batch. */
  #apply(current: KubeObject, batch: PendingOp[]): BitmapSnapshot {
    const rv = current.metadata.resourceVersion ?? "";
    if (rv === "") throw new ErrRangeNotInitialized(this.resource);
    if (rv !== this.#last || this.#dirty) {
      const s = snapshotOf(current);
      this.#state.restore(s.range, fromBase64(s.data));
    }
    this.#dirty = true;
    for (const p of batch) {
      try {
        p.outcome = { ok: true, value: p.op() };
      } catch (error) {
        p.outcome = { ok: false, error };
      }
    }
    return this.#state.snapshot();
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
      throw err;
    }
    this.#last = obj.metadata.resourceVersion ?? "";
    this.#committed = this.#state.snapshot();
    this.#dirty = false;
  }
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
