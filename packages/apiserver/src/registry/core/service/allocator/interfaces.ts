/**
 * The generic offset allocator contract (upstream
 * pkg/registry/core/service/allocator/interfaces.go). Offsets are plain
 * numbers: the largest bitmap upstream keeps is one bit per usable IPv4
 * address of the service range, far below 2^53.
 */

/** Hands out and takes back integer offsets in [0, max). */
export interface OffsetAllocator {
  /** Reserves `offset`; false if it was already taken. Throws if the offset is outside [0, max). */
  allocate(offset: number): boolean;
  /** Reserves some free offset, or returns null when every offset is taken. */
  allocateNext(): number | null;
  /** Frees `offset`; freeing a free or out-of-range offset is a no-op. */
  release(offset: number): void;
  /** Calls `fn` for every taken offset, in increasing order. */
  forEach(fn: (offset: number) => void): void;
  /** True if `offset` is taken. */
  has(offset: number): boolean;
  /** Number of free offsets. */
  free(): number;
  /** Releases resources held by the allocator (none for the in-memory bitmap). */
  destroy(): void;
}

/** The persisted form of a bitmap, as upstream `Snapshottable` returns it. */
export interface BitmapSnapshot {
  /** The range specifier the bitmap was built for (a CIDR or a port range string). */
  readonly rangeSpec: string;
  /** `big.Int.Bytes()` of the bitmap: big-endian, no leading zero bytes; bit i set = offset i taken. */
  readonly data: Uint8Array;
}

/** An allocator whose state can be saved and restored. */
export interface Snapshottable {
  snapshot(): BitmapSnapshot;
  /** Replaces the state; throws if `rangeSpec` differs from the allocator's. */
  restore(rangeSpec: string, data: Uint8Array): void;
}

/**
 * A source of random integers: returns a uniformly chosen integer in [0, n).
 * Injected so that tests are deterministic (upstream seeds math/rand with the clock).
 */
export type RandomSource = (n: number) => number;

/** Builds the backing store of a range allocator from its size, range spec and static-band offset. */
export type AllocatorWithOffsetFactory = (max: number, rangeSpec: string, offset: number) => OffsetAllocator & Snapshottable;
