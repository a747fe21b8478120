/**
 * The NodePort allocator persisted in storage (upstream `portallocator.New(pr, factory)` over
 * allocator/storage at `/ranges/servicenodeports`, resource `servicenodeportallocations`): every
 * allocate/allocateNext/release is a compare-and-swap of the RangeAllocation object, so several
 * apiservers on one store share the NodePorts.
 */
import type { Logger } from "@servicenet/component-base/logs";
import type { Store } from "../../../../storage/index.ts";
import type { RandomSource } from "../allocator/interfaces.ts";
import { serviceNodePortAllocationsResource, serviceNodePortsKey } from "../allocator/storage/keys.ts";
import { StoredBitmapRange } from "../allocator/storage/stored-range.ts";
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
  logger?: Logger;
  maxBatch?: number;
}

/** A persisted NodePort bitmap (PortAllocatorInterface + RangeRegistry). */
export class StoredPortAllocator extends StoredBitmapRange<PortAllocator> implements PortAllocatorInterface {
  readonly portRange: PortRange;

  constructor(o: StoredPortAllocatorOptions) {
    // Upstream leaves creating the RangeAllocation to the NodePort Repair loop; ensureInitialized
    // is for callers that allocate before the first repair pass.
    super({
      store: o.store,
      key: o.key ?? serviceNodePortsKey,
      resource: serviceNodePortAllocationsResource,
      newRange: (factory) => new PortAllocator(o.portRange, { factory }),
      rangeSpec: formatPortRange(o.portRange),
      initLogLine: "node port bitmap allocator does not exist, creating it",
      random: o.random,
      logger: o.logger,
      maxBatch: o.maxBatch,
    });
    this.portRange = o.portRange;
  }

  async allocate(port: number): Promise<void> {
    // Out of range never reaches storage, as upstream.
    if (!Number.isInteger(port) || !portRangeContains(this.portRange, port)) throw new ErrPortNotInRange(formatPortRange(this.portRange));
    await this.run(() => this.range.allocateSync(port));
  }

  allocateNext(): Promise<number> {
    return this.run(() => this.range.allocateNextSync());
  }

  /** All `n` ports in one operation of the batched write, so they commit (or fail) together. */
  allocateNextN(n: number): Promise<number[]> {
    return this.run(() => this.range.allocateNextNSync(n));
  }

  async release(port: number): Promise<void> {
    if (!Number.isInteger(port) || !portRangeContains(this.portRange, port)) return;
    await this.run(() => this.range.releaseSync(port));
  }

  /** The in-memory view; current as of this instance's last operation. */
  forEach(fn: (port: number) => void): void {
    this.range.forEach(fn);
  }

  has(port: number): boolean {
    return this.range.has(port);
  }

  free(): number {
    return this.range.free();
  }

  used(): number {
    return this.range.used();
  }

  snapshot(): RangeAllocation {
    return this.range.snapshot();
  }
}
