/**
 * The one persisted-bitmap wrapper the ClusterIP and NodePort allocators share (upstream
 * pkg/registry/core/rest/storage_core.go hands both `ipallocator.New` and `portallocator.New` a
 * factory that wraps the in-memory bitmap in allocator/storage's `Etcd`): the range (IP `Range`
 * or `PortAllocator`) is built over an in-memory bitmap whose every mutation runs through one
 * StoredAllocator, the compare-and-swap of the RangeAllocation object at `key`.
 */
import { noopLogger, V, type Logger } from "@servicenet/component-base/logs";
import type { Store } from "../../../../../storage/index.ts";
import { AllocationBitmap } from "../bitmap.ts";
import type { AllocatorWithOffsetFactory, RandomSource } from "../interfaces.ts";
import type { RangeAllocationSnapshot, RangeRegistry } from "./keys.ts";
import { StoredAllocator, type StoredAllocatorStats } from "./storage.ts";

/** What a StoredBitmapRange is built from. */
export interface StoredBitmapRangeOptions<R> {
  store: Store;
  /** The RangeAllocation's storage key (`serviceIPsKey`, `serviceNodePortsKey`...). */
  key: string;
  /** The resource named in errors: `serviceipallocations` or `servicenodeportallocations`. */
  resource: string;
  /** Builds the range over the bitmap the factory makes (`new Range(cidr, { factory })`). */
  newRange: (factory: AllocatorWithOffsetFactory) => R;
  /** The RangeAllocation's `range` when `ensureInitialized` creates it (the CIDR or `30000-32767`). */
  rangeSpec: string;
  /** What `ensureInitialized` logs (at -v=2, as upstream's klog.Infof is news only then) before it creates the RangeAllocation. */
  initLogLine: string;
  random?: RandomSource | undefined;
  logger?: Logger | undefined;
  /** Most operations per storage write (default 512). */
  maxBatch?: number | undefined;
}

/** A range allocator whose bitmap is persisted as a RangeAllocation (RangeRegistry for the repair loops). */
export class StoredBitmapRange<R> implements RangeRegistry {
  /** The in-memory range; mutate it only inside `run`. */
  protected readonly range: R;
  readonly #stored: StoredAllocator;
  readonly #o: StoredBitmapRangeOptions<R>;

  constructor(o: StoredBitmapRangeOptions<R>) {
    this.#o = o;
    let bitmap: AllocationBitmap | undefined;
    this.range = o.newRange((max, spec, offset) => (bitmap = new AllocationBitmap(max, spec, offset, o.random)));
    if (!bitmap) throw new Error("the range did not build its bitmap through the factory");
    this.#stored = new StoredAllocator({ store: o.store, key: o.key, resource: o.resource, state: bitmap, maxBatch: o.maxBatch });
  }

  /**
   * Creates the RangeAllocation empty when it does not exist (the dual-write initialisation of
   * storage_core.go for IPs; for NodePorts, callers that allocate before the first repair pass).
   * True if this call created it. A concurrent apiserver winning the race is not an error.
   */
  async ensureInitialized(): Promise<boolean> {
    if ((await this.#stored.get()) !== null) return false;
    V(this.#o.logger ?? noopLogger, 2).info(this.#o.initLogLine);
    try {
      await this.#stored.createOrUpdate({ range: this.#o.rangeSpec, data: "" });
      return true;
    } catch (err) {
      if ((await this.#stored.get()) !== null) return false;
      throw err;
    }
  }

  get(): Promise<RangeAllocationSnapshot | null> {
    return this.#stored.get();
  }

  createOrUpdate(snapshot: RangeAllocationSnapshot): Promise<void> {
    return this.#stored.createOrUpdate(snapshot);
  }

  /** Nothing to stop: the store belongs to the caller. */
  destroy(): void {}

  /** Coalescing counters of the underlying storage. */
  stats(): StoredAllocatorStats {
    return this.#stored.stats();
  }

  /** Runs a synchronous operation on `range` as one operation of the next compare-and-swap write. */
  protected run<T>(op: () => T): Promise<T> {
    return this.#stored.run(op);
  }
}
