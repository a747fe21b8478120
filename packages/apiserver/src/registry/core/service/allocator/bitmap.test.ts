import { describe, expect, it } from "vitest";
import { AllocationBitmap } from "./bitmap.ts";
import { seededRandom } from "./random.ts";

describe("AllocationBitmap", () => {
  it.each([
    { max: 1, offset: 0 },
    { max: 32, offset: 0 },
    { max: 33, offset: 16 },
    { max: 250, offset: 16 },
    { max: 65535, offset: 256 },
  ])("allocateNext fills all $max offsets (static band $offset) exactly once, then reports full", ({ max, offset }) => {
    const m = new AllocationBitmap(max, "test", offset, seededRandom(max));
    const seen = new Set<number>();
    let bad = 0;
    for (let i = 0; i < max; i++) {
      const o = m.allocateNext();
      if (o === null || o < 0 || o >= max) bad++;
      else seen.add(o);
    }
    expect(bad).toBe(0);
    expect(seen.size).toBe(max);
    expect(m.free()).toBe(0);
    expect(m.allocateNext()).toBeNull();
  });

  it("hands out the whole dynamic band before the first static offset", () => {
    const m = new AllocationBitmap(100, "test", 16, seededRandom(7));
    for (let i = 0; i < 84; i++) expect(m.allocateNext()!).toBeGreaterThanOrEqual(16);
    for (let i = 0; i < 16; i++) expect(m.allocateNext()!).toBeLessThan(16);
  });

  it("allocate, has, release and free agree", () => {
    const m = new AllocationBitmap(64, "test", 16);
    expect(m.allocate(3)).toBe(true);
    expect(m.allocate(3)).toBe(false);
    expect(m.has(3)).toBe(true);
    expect(m.free()).toBe(63);
    m.release(3);
    m.release(3); // releasing a free offset is a no-op
    m.release(1000); // out of range too
    expect(m.has(3)).toBe(false);
    expect(m.free()).toBe(64);
  });

  it.each([-1, 64, 1.5])("allocate(%s) outside [0, max) throws upstream's text", (o) => {
    const m = new AllocationBitmap(64, "test");
    expect(() => m.allocate(o)).toThrow(`offset ${o} out of range [0,64]`);
  });

  it("forEach visits taken offsets in order", () => {
    const m = new AllocationBitmap(200, "test");
    for (const o of [199, 0, 31, 32, 63, 100]) m.allocate(o);
    const got: number[] = [];
    m.forEach((o) => got.push(o));
    expect(got).toEqual([0, 31, 32, 63, 100, 199]);
  });

  it("snapshot is big.Int.Bytes(): big-endian without leading zeros", () => {
    const m = new AllocationBitmap(64, "r");
    expect(m.snapshot().data).toEqual(new Uint8Array([]));
    m.allocate(0);
    expect([...m.snapshot().data]).toEqual([1]);
    m.allocate(9);
    // bits 0 and 9 set: 0x0201
    expect([...m.snapshot().data]).toEqual([0x02, 0x01]);
    m.allocate(31);
    expect([...m.snapshot().data]).toEqual([0x80, 0x00, 0x02, 0x01]);
  });

  it("snapshot equals big.Int.Bytes() of the taken offsets for random bitmaps of every size class", () => {
    // The oracle: the bitmap as one big integer, written big-endian without leading zero bytes.
    const bytesOf = (offsets: number[]): number[] => {
      const v = offsets.reduce((acc, o) => acc | (1n << BigInt(o)), 0n);
      if (v === 0n) return [];
      const hex = v.toString(16);
      const even = hex.length % 2 === 1 ? `0${hex}` : hex;
      return Array.from({ length: even.length / 2 }, (_, i) => parseInt(even.slice(2 * i, 2 * i + 2), 16));
    };
    const rnd = seededRandom(7);
    for (const max of [1, 7, 8, 9, 31, 32, 33, 63, 64, 65, 1000, 4096, 65536]) {
      for (let round = 0; round < 4; round++) {
        const m = new AllocationBitmap(max, "r", 0, rnd);
        const taken = new Set<number>();
        const n = rnd(Math.min(max, 300)) + 1;
        for (let i = 0; i < n; i++) {
          const o = rnd(max);
          m.allocate(o);
          taken.add(o);
        }
        // The top offset alone too: the snapshot's length comes from the highest taken bit.
        if (round === 3) {
          m.allocate(max - 1);
          taken.add(max - 1);
        }
        expect([...m.snapshot().data]).toEqual(bytesOf([...taken]));
      }
    }
  });

  it("restore round-trips a snapshot and recounts", () => {
    const a = new AllocationBitmap(1000, "r", 0, seededRandom(1));
    for (let i = 0; i < 300; i++) a.allocateNext();
    const snap = a.snapshot();
    const b = new AllocationBitmap(1000, "r");
    b.restore("r", snap.data);
    expect(b.free()).toBe(700);
    const la: number[] = [];
    const lb: number[] = [];
    a.forEach((o) => la.push(o));
    b.forEach((o) => lb.push(o));
    expect(lb).toEqual(la);
    expect(b.snapshot().data).toEqual(snap.data);
  });

  it("restore refuses another range spec", () => {
    const m = new AllocationBitmap(10, "r");
    expect(() => m.restore("other", new Uint8Array([1]))).toThrow("the provided range does not match the current range");
  });

  it("the same seed gives the same sequence", () => {
    const seq = (seed: number) => {
      const m = new AllocationBitmap(500, "r", 16, seededRandom(seed));
      return Array.from({ length: 20 }, () => m.allocateNext());
    };
    expect(seq(42)).toEqual(seq(42));
    expect(seq(42)).not.toEqual(seq(43));
  });
});
