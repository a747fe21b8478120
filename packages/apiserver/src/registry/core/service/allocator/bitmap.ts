/**
 * `AllocationBitmap` (upstream pkg/registry/core/service/allocator/bitmap.go):
 * one bit per offset, with the KEP-3070 random scan that prefers the upper
 * ("dynamic") band and falls back to the lower ("static") band only when the
 * upper one is full, so that users asking for specific low values rarely
 * collide with automatic allocations.
 *
 * JavaScript is single-threaded and every method here is synchronous, so the
 * upstream mutex has no counterpart: each call is atomic by construction.
 */
import type { BitmapSnapshot, OffsetAllocator, RandomSource, Snapshottable } from "./interfaces.ts";
import { mathRandom } from "./random.ts";

const WORD_BITS = 32;
const littleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

function popcount32(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** A contiguous block of `max` offsets that can be allocated atomically. */
export class AllocationBitmap implements OffsetAllocator, Snapshottable {
  readonly max: number;
  readonly rangeSpec: string;
  /** Size of the lower (static) band; AllocateNext uses [offset, max) first. */
  readonly offset: number;
  readonly #random: RandomSource;
  #words: Uint32Array;
  #count = 0;

  /**
   * `NewAllocationMapWithOffset(max, rangeSpec, offset)`; `offset` 0 gives the
   * plain random scan of `NewAllocationMap`. The offset must be smaller than max.
   */
  constructor(max: number, rangeSpec: string, offset = 0, random: RandomSource = mathRandom) {
    if (!Number.isSafeInteger(max) || max < 0) throw new RangeError(`invalid bitmap size ${max}`);
    this.max = max;
    this.rangeSpec = rangeSpec;
    this.offset = Math.max(0, Math.min(offset, max));
    this.#random = random;
    this.#words = new Uint32Array(Math.ceil(max / WORD_BITS));
  }

  #bit(at: number): boolean {
    return ((this.#words[at >>> 5]! >>> (at & 31)) & 1) === 1;
  }

  #set(at: number, on: boolean): void {
    const i = at >>> 5;
    const mask = 1 << (at & 31);
    this.#words[i] = on ? this.#words[i]! | mask : this.#words[i]! & ~mask;
  }

  /** Reserves `offset`; false if it was already taken. Throws for an offset outside [0, max). */
  allocate(offset: number): boolean {
    if (!Number.isInteger(offset) || offset < 0 || offset >= this.max) {
      throw new RangeError(`offset ${offset} out of range [0,${this.max}]`);
    }
    if (this.#bit(offset)) return false;
    this.#set(offset, true);
    this.#count++;
    return true;
  }

  /** Reserves a free offset chosen by the banded random scan, or null when full. */
  allocateNext(): number | null {
    const next = this.#scan();
    if (next === null) return null;
    this.#set(next, true);
    this.#count++;
    return next;
  }

  /**
   * randomScanStrategyWithOffset.AllocateBit: a random start in the upper
   * band with wrap-around, then a random start in the lower band. The scan
   * order is upstream's; whole taken words are skipped, which changes speed only.
   */
  #scan(): number | null {
    if (this.#count >= this.max) return null;
    const upper = this.max - this.offset;
    if (upper > 0) {
      const start = this.offset + this.#random(upper);
      const at = this.#firstFree(start, this.max) ?? this.#firstFree(this.offset, start);
      if (at !== null) return at;
    }
    // HEAD guards rand.Intn(0) here: a bitmap without a static band stops.
    if (this.offset > 0) {
      const start = this.#random(this.offset);
      return this.#firstFree(start, this.offset) ?? this.#firstFree(0, start);
    }
    return null;
  }

  /** The first free offset in [from, to), or null. */
  #firstFree(from: number, to: number): number | null {
    let at = from;
    while (at < to) {
      if ((at & 31) === 0 && at + 32 <= to && this.#words[at >>> 5] === 0xffffffff) {
        at += 32;
        continue;
      }
      if (!this.#bit(at)) return at;
      at++;
    }
    return null;
  }

  /** Frees `offset`; a free or out-of-range offset is a no-op. */
  release(offset: number): void {
    if (!Number.isInteger(offset) || offset < 0 || offset >= this.max || !this.#bit(offset)) return;
    this.#set(offset, false);
    this.#count--;
  }

  /** Calls `fn` for every taken offset in increasing order; `fn` must not modify the bitmap. */
  forEach(fn: (offset: number) => void): void {
    this.#words.forEach((word, wi) => {
      let w = word;
      while (w !== 0) {
        const low = w & -w;
        fn(wi * WORD_BITS + (31 - Math.clz32(low)));
        w = (w ^ low) >>> 0;
      }
    });
  }

  /** True if `offset` is taken. */
  has(offset: number): boolean {
    return Number.isInteger(offset) && offset >= 0 && offset < this.max && this.#bit(offset);
  }

  /** Number of free offsets. */
  free(): number {
    return this.max - this.#count;
  }

  /** Number of taken offsets. */
  used(): number {
    return this.#count;
  }

  /** The state as upstream persists it: big-endian bytes of the bitmap with no leading zero bytes. */
  snapshot(): BitmapSnapshot {
    let top = this.#words.length - 1;
    while (top >= 0 && this.#words[top] === 0) top--;
    if (top < 0) return { rangeSpec: this.rangeSpec, data: new Uint8Array(0) };
    const highBit = top * WORD_BITS + (31 - Math.clz32(this.#words[top]!));
    const n = (highBit >>> 3) + 1;
    // Byte j (from the low end) of the bitmap is memory byte j of the words on a little-endian host:
    // a native copy and reverse instead of a loop over up to 32 kB per snapshot (dual-write and
    // bitmap modes snapshot once per batch of allocations).
    if (littleEndian)
      return { rangeSpec: this.rangeSpec, data: new Uint8Array(this.#words.buffer, this.#words.byteOffset, n).slice().reverse() };
    const data = new Uint8Array(n);
    for (let j = 0; j < n; j++) {
      data[n - 1 - j] = (this.#words[j >>> 2]! >>> ((j & 3) * 8)) & 0xff;
    }
    return { rangeSpec: this.rangeSpec, data };
  }

  /**
   * Replaces the state with a snapshot's. Bits at or beyond `max` are dropped
   * (upstream keeps and counts them; they can never be released, so we refuse them).
   */
  restore(rangeSpec: string, data: Uint8Array): void {
    if (rangeSpec !== this.rangeSpec) throw new Error("the provided range does not match the current range");
    const words = new Uint32Array(this.#words.length);
    for (let j = 0; j < data.length; j++) {
      const byte = data[data.length - 1 - j]!;
      const wi = j >>> 2;
      if (byte === 0 || wi >= words.length) continue;
      words[wi] = (words[wi]! | (byte << ((j & 3) * 8))) >>> 0;
    }
    const tail = this.max % WORD_BITS;
    if (tail !== 0 && words.length > 0) words[words.length - 1] = words[words.length - 1]! & ((1 << tail) - 1);
    this.#words = words;
    this.#count = words.reduce((sum, w) => sum + popcount32(w), 0);
  }

  /** Nothing to release for the in-memory bitmap. */
  destroy(): void {}
}

/** The allocator factory for in-memory bitmaps, with an injectable random source. */
export function inMemoryBitmapFactory(random?: RandomSource) {
  return (max: number, rangeSpec: string, offset: number): AllocationBitmap => new AllocationBitmap(max, rangeSpec, offset, random);
}
