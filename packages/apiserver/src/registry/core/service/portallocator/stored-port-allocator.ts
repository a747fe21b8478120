/**
 * The NodePort allocator persisted in storage (upstream `portallocator.New(pr, factory)` over
 * allocator/storage at `/ranges/servicenodeports`, resource `servicenodeportallocations`): every
 * allocate/allocateNext/release is a compare-and-swap of the RangeAllocation object, so several
 * apiservers on one store share the NodePorts.
 */
import type { Store } from "../../../../storage/index.ts";
import { AllocationBitmap } from "../allocator/bitmap.ts";
import type { RandomSource } from "../allocator/interfaces.ts";
import {
  serviceNodePortAllocationsResource,
  serviceNodePortsKey,
  type RangeAllocationSnapshot,
  type RangeRegistry,
} from "../allocator/storage/keys.ts";
import { StoredAllocator, type StoredAllocatorStats } from "../allocator/storage/storage.ts";
import type { RangeAllocation } from "../ipallocator/interfaces.ts";
import { PortAllocator } from "./allocator.ts";
import { ErrPortNotInRange, type PortAllocatorInterface } from "./interfaces.ts";
import { formatPortRange, portRangeContains, type PortRange } from "./port-range.ts";

/** Options of a StoredPortAllocator. */
export interface StoredPortAllocatorOptions {
  portRange: PortRange;
  store: Store;
  /** Default `serviceNodePortsKey`. */
  key?: string;
  random?: RandomSource;
  log?: (msg: string) => void;
  maxBatch?: number;
}

/** A persisted NodePort bitmap (PortAllocatorInterface + RangeRegistry). */
export class StoredPortAllocator implements PortAllocatorInterface, RangeRegistry {
  readonly portRange: PortRange;
  readonly #ports: PortAllocator;
  readonly #stored: StoredAllocator;
  readonly #log: ((msg: string) => void) | undefined;

  constructor(o: StoredPortAllocatorOptions) {
    this.portRange = o.portRange;
    this.#log = o.log;
    let bitmap: AllocationBitmap | undefined;
    this.#ports = new PortAllocator(o.portRange, {
      factory: (max, spec, offset) => (bitmap = new AllocationBitmap(max, spec, offset, o.random)),
    });
    this.#stored = new StoredAllocator({
      store: o.store,
      key: o.key ?? serviceNodePortsKey,
      resource: serviceNodePortAllocationsResource,
      state: bitmap!,
      maxBatch: o.maxBatch,
    });
  }

  /**
   * Creates the RangeAllocation empty when it does not exist (upstream leaves that to the NodePort
   * Repair loop; this is for callers that allocate before the first repair pass). True if created.
   */
  async ensureInitialized(): Promise<boolean> {
    if ((await this.#stored.get()) !== null) return false;
    this.#log?.("node port bitmap allocator does not exist, creating it");
    try {
      await this.#stored.createOrUpdate({ range: formatPortRange(this.portRange), data: "" });
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

  async allocate(port: number): Promise<void> {
    // Out of range never reaches storage, as upstream.
    if (!Number.isInteger(port) || !portRangeContains(this.portRange, port)) throw new ErrPortNotInRange(formatPortRange(this.portRange));
    await this.#stored.run(() => this.#ports.allocateSync(port));
  }

  allocateNext(): Promise<number> {
    return this.#stored.run(() => this.#ports.allocateNextSync());
  }

  /** All `n` ports in one operation of the batched write, so they commit (or fail) together. */
  allocateNextN(n: number): Promise<number[]> {
    return this.#stored.run(() => this.#ports.allocateNextNSync(n));
  }

  async release(port: number): Promise<void> {
    if (!Number.isInteger(port) || !portRangeContains(this.portRange, port)) return;
    await this.#stored.run(() => this.#ports.releaseSync(port));
  }

  /** The in-memory view; current as of this instance's last operation. */
  forEach(fn: (port: number) => void): void {
    this.#ports.forEach(fn);
  }

  has(port: number): boolean {
    return this.#ports.has(port);
  }

  free(): number {
    return this.#ports.free();
  }

  used(): number {
    return this.#ports.used();
  }

  snapshot(): RangeAllocation {
    return this.#ports.snapshot();
  }

  destroy(): void {}

  stats(): StoredAllocatorStats {
    return this.#stored.stats();
  }
}
