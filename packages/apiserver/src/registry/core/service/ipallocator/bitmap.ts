/**
 * The legacy bitmap ClusterIP allocator (upstream
 * pkg/registry/core/service/ipallocator/bitmap.go). For CIDR 10.0.0.0/24 the
 * bitmap has 254 offsets: offset 0 is 10.0.0.1 (`base`), the network address
 * and the IPv4 broadcast address are never handed out (and so never released).
 * An IPv6 range keeps at most 65536 addresses (a bitmap that size), minus the
 * network address: only the first /112 of a /108 is ever used (https://github.com/kubernetes/kubernetes/issues/129797).
 */
import { cidrContains, cidrSize, formatCIDR, parseCIDRSloppy, type CIDR, type IP, type IPFamily } from "@servicenet/api";
import { inMemoryBitmapFactory } from "../allocator/bitmap.ts";
import type { AllocatorWithOffsetFactory, OffsetAllocator, RandomSource, Snapshottable } from "../allocator/interfaces.ts";
import { RangeDryRun } from "./dry-run.ts";
import { ErrAllocated, ErrFull, ErrMismatchedNetwork, ErrNotInRange, type IPAllocator, type RangeAllocation } from "./interfaces.ts";

const IPV6_BITMAP_LIMIT = 65536n;

/**
 * KEP-3070 static band size: `min(max(16, size/16), 256)`, 0 for ranges of 16
 * addresses or fewer (a /28 must not panic, #115316).
 */
export function calculateRangeOffset(cidr: CIDR): number {
  const size = cidrSize(cidr);
  if (size <= 16n) return 0;
  const offset = size / 16n;
  if (offset < 16n) return 16;
  if (offset > 256n) return 256;
  return Number(offset);
}

/** The number of usable offsets of `cidr` in the bitmap allocator. */
export function usableRangeSize(cidr: CIDR): number {
  let max = cidrSize(cidr);
  if (cidr.family === "IPv6") {
    if (max > IPV6_BITMAP_LIMIT) max = IPV6_BITMAP_LIMIT;
  } else {
    max -= 1n; // broadcast
  }
  max -= 1n; // network address
  return max < 0n ? 0 : Number(max);
}

/** Options for building a Range. */
export interface RangeOptions {
  /** Random source of the in-memory bitmap (ignored when `factory` is given). */
  random?: RandomSource;
  /** Backing store factory; defaults to the in-memory bitmap. */
  factory?: AllocatorWithOffsetFactory;
}

/** A contiguous block of IPs that can be allocated atomically, backed by a bitmap. */
export class Range implements IPAllocator {
  readonly #cidr: CIDR;
  readonly #base: bigint;
  readonly #max: number;
  readonly #alloc: OffsetAllocator & Snapshottable;

  /** `ipallocator.New`/`NewInMemory` over `cidr`. */
  constructor(cidr: CIDR, options: RangeOptions = {}) {
    this.#cidr = cidr;
    this.#base = cidr.ip.value + 1n;
    this.#max = usableRangeSize(cidr);
    const factory = options.factory ?? inMemoryBitmapFactory(options.random);
    this.#alloc = factory(this.#max, formatCIDR(cidr), calculateRangeOffset(cidr));
  }

  /** Parses `cidr` sloppily (as the flag parser does) and builds an in-memory Range. */
  static fromCIDRString(cidr: string, options: RangeOptions = {}): Range {
    const parsed = parseCIDRSloppy(cidr);
    if (!parsed) throw new Error(`invalid CIDR address: ${cidr}`);
    return new Range(parsed, options);
  }

  /** `NewFromSnapshot`: a Range initialised from a persisted RangeAllocation. */
  static fromSnapshot(snap: RangeAllocation, options: RangeOptions = {}): Range {
    const r = Range.fromCIDRString(snap.range, options);
    r.restore(snap.range, Buffer.from(snap.data, "base64"));
    return r;
  }

  /** Offset of `ip` in the bitmap, or -1 if it is outside the usable part of the range. */
  #offsetOf(ip: IP): number {
    if (!cidrContains(this.#cidr, ip)) return -1;
    const offset = ip.value - this.#base;
    return offset < 0n || offset >= BigInt(this.#max) ? -1 : Number(offset);
  }

  /** True if `ip` is one of the usable addresses of this range. */
  contains(ip: IP): boolean {
    return this.#offsetOf(ip) >= 0;
  }

  allocate(ip: IP): Promise<void> {
    return Promise.resolve().then(() => this.allocateSync(ip));
  }

  /** Synchronous `Allocate`, for callers that hold the bitmap in memory. */
  allocateSync(ip: IP): void {
    const offset = this.#offsetOf(ip);
    if (offset < 0) throw new ErrNotInRange(ip, formatCIDR(this.#cidr));
    if (!this.#alloc.allocate(offset)) throw new ErrAllocated();
  }

  allocateNext(): Promise<IP> {
    return Promise.resolve().then(() => this.allocateNextSync());
  }

  /** Synchronous `AllocateNext`. */
  allocateNextSync(): IP {
    const offset = this.#alloc.allocateNext();
    if (offset === null) throw new ErrFull();
    return { family: this.#cidr.family, value: this.#base + BigInt(offset) };
  }

  release(ip: IP): Promise<void> {
    return Promise.resolve().then(() => this.releaseSync(ip));
  }

  /** Synchronous `Release`; out-of-range and free IPs are ignored. */
  releaseSync(ip: IP): void {
    const offset = this.#offsetOf(ip);
    if (offset >= 0) this.#alloc.release(offset);
  }

  forEach(fn: (ip: IP) => void): void {
    this.#alloc.forEach((offset) => fn({ family: this.#cidr.family, value: this.#base + BigInt(offset) }));
  }

  cidr(): CIDR {
    return this.#cidr;
  }

  ipFamily(): IPFamily {
    return this.#cidr.family;
  }

  has(ip: IP): boolean {
    const offset = this.#offsetOf(ip);
    return offset >= 0 && this.#alloc.has(offset);
  }

  free(): number {
    return this.#alloc.free();
  }

  used(): number {
    return this.#max - this.#alloc.free();
  }

  /** The number of usable addresses (upstream `r.max`). */
  size(): number {
    return this.#max;
  }

  dryRun(): IPAllocator {
    return new RangeDryRun(this);
  }

  destroy(): void {
    this.#alloc.destroy();
  }

  /** Saves the state of the pool as a RangeAllocation (`data` base64). */
  snapshot(): RangeAllocation {
    const snap = this.#alloc.snapshot();
    return { range: snap.rangeSpec, data: Buffer.from(snap.data).toString("base64") };
  }

  /** Restores a saved state; throws ErrMismatchedNetwork unless `range` is this Range's network and mask. */
  restore(range: string, data: Uint8Array): void {
    const parsed = parseCIDRSloppy(range);
    if (!parsed || parsed.family !== this.#cidr.family || parsed.ip.value !== this.#cidr.ip.value || parsed.prefix !== this.#cidr.prefix) {
      throw new ErrMismatchedNetwork();
    }
    try {
      this.#alloc.restore(formatCIDR(parsed), data);
    } catch (err) {
      throw new Error(`restoring snapshot encountered ${(err as Error).message}`, { cause: err });
    }
  }
}
