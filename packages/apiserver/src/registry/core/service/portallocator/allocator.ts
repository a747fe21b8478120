/**
 * The NodePort allocator (upstream portallocator/allocator.go): a bitmap over
 * the port range with the KEP-3668 static band, `min(max(16, size/32), 128)`
 * ports at the bottom of the range that dynamic allocation uses last.
 */
import { inMemoryBitmapFactory } from "../allocator/bitmap.ts";
import type { AllocatorWithOffsetFactory, OffsetAllocator, RandomSource, Snapshottable } from "../allocator/interfaces.ts";
import type { RangeAllocation } from "../ipallocator/interfaces.ts";
import {
  ErrMismatchedPortRange,
  ErrPortAllocated,
  ErrPortNotInRange,
  ErrPortRangeFull,
  type PortAllocatorInterface,
} from "./interfaces.ts";
import { formatPortRange, parsePortRange, portRangeContains, type PortRange } from "./port-range.ts";

/** KEP-3668 static band size for a port range; 0 for ranges of 16 ports or fewer. */
export function calculatePortRangeOffset(pr: PortRange): number {
  if (pr.size <= 16) return 0;
  const offset = Math.floor(pr.size / 32);
  if (offset < 16) return 16;
  if (offset > 128) return 128;
  return offset;
}

/** Options for building a PortAllocator. */
export interface PortAllocatorOptions {
  random?: RandomSource;
  factory?: AllocatorWithOffsetFactory;
}

/** Allocates NodePorts out of one port range. */
export class PortAllocator implements PortAllocatorInterface {
  readonly portRange: PortRange;
  readonly #alloc: OffsetAllocator & Snapshottable;

  /** `portallocator.New`/`NewInMemory` over `pr`. */
  constructor(pr: PortRange, options: PortAllocatorOptions = {}) {
    this.portRange = pr;
    const factory = options.factory ?? inMemoryBitmapFactory(options.random);
    this.#alloc = factory(pr.size, formatPortRange(pr), calculatePortRangeOffset(pr));
  }

  /** Builds an in-memory allocator from a `--service-node-port-range` value. */
  static fromRangeString(range: string, options: PortAllocatorOptions = {}): PortAllocator {
    return new PortAllocator(parsePortRange(range), options);
  }

  /** `NewFromSnapshot`. */
  static fromSnapshot(snap: RangeAllocation, options: PortAllocatorOptions = {}): PortAllocator {
    const pr = parsePortRange(snap.range);
    const a = new PortAllocator(pr, options);
    a.restore(pr, Buffer.from(snap.data, "base64"));
    return a;
  }

  #offsetOf(port: number): number {
    return Number.isInteger(port) && portRangeContains(this.portRange, port) ? port - this.portRange.base : -1;
  }

  allocate(port: number): Promise<void> {
    return Promise.resolve().then(() => this.allocateSync(port));
  }

  /** Synchronous `Allocate`. */
  allocateSync(port: number): void {
    const offset = this.#offsetOf(port);
    if (offset < 0) throw new ErrPortNotInRange(formatPortRange(this.portRange));
    if (!this.#alloc.allocate(offset)) throw new ErrPortAllocated();
  }

  allocateNext(): Promise<number> {
    return Promise.resolve().then(() => this.allocateNextSync());
  }

  /** Synchronous `AllocateNext`. */
  allocateNextSync(): number {
    const offset = this.#alloc.allocateNext();
    if (offset === null) throw new ErrPortRangeFull();
    return this.portRange.base + offset;
  }

  allocateNextN(n: number): Promise<number[]> {
    return Promise.resolve().then(() => this.allocateNextNSync(n));
  }

  /** Synchronous `allocateNextN`: checks the free count first, so a refusal changes nothing. */
  allocateNextNSync(n: number): number[] {
    if (this.free() < n) throw new ErrPortRangeFull();
    return Array.from({ length: n }, () => this.allocateNextSync());
  }

  release(port: number): Promise<void> {
    return Promise.resolve().then(() => this.releaseSync(port));
  }

  /** Synchronous `Release`; upstream only logs a warning for out-of-range ports. */
  releaseSync(port: number): void {
    const offset = this.#offsetOf(port);
    if (offset >= 0) this.#alloc.release(offset);
  }

  forEach(fn: (port: number) => void): void {
    this.#alloc.forEach((offset) => fn(this.portRange.base + offset));
  }

  has(port: number): boolean {
    const offset = this.#offsetOf(port);
    return offset >= 0 && this.#alloc.has(offset);
  }

  free(): number {
    return this.#alloc.free();
  }

  used(): number {
    return this.portRange.size - this.#alloc.free();
  }

  destroy(): void {
    this.#alloc.destroy();
  }

  /** Saves the state as a RangeAllocation (`range` is `30000-32767`, `data` base64). */
  snapshot(): RangeAllocation {
    const snap = this.#alloc.snapshot();
    return { range: snap.rangeSpec, data: Buffer.from(snap.data).toString("base64") };
  }

  /** Restores a saved state; throws ErrMismatchedPortRange for another range. */
  restore(pr: PortRange, data: Uint8Array): void {
    if (formatPortRange(pr) !== formatPortRange(this.portRange)) throw new ErrMismatchedPortRange();
    this.#alloc.restore(formatPortRange(pr), data);
  }
}
