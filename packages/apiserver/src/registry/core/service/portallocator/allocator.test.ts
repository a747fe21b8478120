import { describe, expect, it } from "vitest";
import { seededRandom } from "../allocator/random.ts";
import { PortAllocator, calculatePortRangeOffset } from "./allocator.ts";
import { ErrPortAllocated, ErrPortNotInRange, ErrPortRangeFull } from "./interfaces.ts";
import { PortAllocationOperation } from "./operation.ts";
import { defaultNodePortRange, formatPortRange, parsePortRange } from "./port-range.ts";

describe("parsePortRange", () => {
  it.each([
    ["30000-32767", { base: 30000, size: 2768 }],
    ["30000+100", { base: 30000, size: 101 }],
    ["8080", { base: 8080, size: 1 }],
    [" 1-2 ", { base: 1, size: 2 }],
    ["", { base: 0, size: 0 }],
  ])("%j", (s, want) => {
    expect(parsePortRange(s)).toEqual(want);
  });

  it.each([
    ["1-2+3", "unable to parse port range: 1-2+3"],
    ["100-1", "end port cannot be less than start port: 100-1"],
    ["1-70000", "the port range cannot be greater than 65535: 1-70000"],
    ["x-3", 'strconv.Atoi: parsing "x": invalid syntax'],
  ])("%j fails", (s, msg) => {
    expect(() => parsePortRange(s)).toThrow(msg);
  });

  it("formats as upstream String()", () => {
    expect(formatPortRange(defaultNodePortRange)).toBe("30000-32767");
  });
});

describe("PortAllocator", () => {
  it.each([
    [{ base: 30000, size: 10 }, 0],
    [{ base: 30000, size: 17 }, 16],
    [{ base: 30000, size: 2768 }, 86],
    [{ base: 1, size: 65535 }, 128],
  ])("calculatePortRangeOffset(%j) = %i", (pr, want) => {
    expect(calculatePortRangeOffset(pr)).toBe(want);
  });

  it("allocates, rejects duplicates and out-of-range ports with upstream's texts, releases", async () => {
    const pa = new PortAllocator(defaultNodePortRange, { random: seededRandom(1) });
    expect(pa.free()).toBe(2768);
    await pa.allocate(30000);
    await expect(pa.allocate(30000)).rejects.toThrow(ErrPortAllocated);
    await expect(pa.allocate(30000)).rejects.toThrow("provided port is already allocated");
    await expect(pa.allocate(29999)).rejects.toThrow(ErrPortNotInRange);
    await expect(pa.allocate(32768)).rejects.toThrow("provided port is not in the valid range. The range of valid ports is 30000-32767");
    expect(pa.used()).toBe(1);
    await pa.release(30000);
    await pa.release(1); // out of range: ignored
    expect(pa.has(30000)).toBe(false);
  });

  it("dynamic ports come from above the static band first; a full range throws", async () => {
    const pa = new PortAllocator({ base: 30000, size: 40 }, { random: seededRandom(2) }); // band of 16
    const got: number[] = [];
    for (let i = 0; i < 40; i++) got.push(await pa.allocateNext());
    expect(got.slice(0, 24).every((p) => p >= 30016)).toBe(true);
    expect(got.slice(24).every((p) => p < 30016)).toBe(true);
    expect(new Set(got).size).toBe(40);
    await expect(pa.allocateNext()).rejects.toThrow(ErrPortRangeFull);
    await expect(pa.allocateNext()).rejects.toThrow("range is full");
  });

  it("snapshot/restore round-trips", async () => {
    const pa = new PortAllocator(defaultNodePortRange, { random: seededRandom(4) });
    for (let i = 0; i < 50; i++) await pa.allocateNext();
    const snap = pa.snapshot();
    expect(snap.range).toBe("30000-32767");
    const copy = PortAllocator.fromSnapshot(snap);
    const a: number[] = [];
    const b: number[] = [];
    pa.forEach((p) => a.push(p));
    copy.forEach((p) => b.push(p));
    expect(b).toEqual(a);
    expect(() => copy.restore({ base: 30000, size: 10 }, new Uint8Array())).toThrow(
      "the provided port range does not match the current port range",
    );
  });
});

describe("PortAllocationOperation", () => {
  it("finish without commit rolls back allocations; deferred releases wait for commit", async () => {
    const pa = new PortAllocator(defaultNodePortRange);
    await pa.allocate(30100);
    const op = new PortAllocationOperation(pa, false);
    await op.allocate(30200);
    const next = await op.allocateNext();
    op.releaseDeferredPort(30100);
    expect(pa.has(30200) && pa.has(next) && pa.has(30100)).toBe(true);
    await op.finish();
    expect(pa.has(30200) || pa.has(next)).toBe(false);
    expect(pa.has(30100)).toBe(true);

    const op2 = new PortAllocationOperation(pa, false);
    await op2.allocate(30300);
    op2.releaseDeferredPort(30100);
    await op2.commit();
    await op2.finish();
    expect(pa.has(30300)).toBe(true);
    expect(pa.has(30100)).toBe(false);
  });

  it("dry-run detects conflicts but never touches the allocator", async () => {
    const pa = new PortAllocator(defaultNodePortRange);
    await pa.allocate(30001);
    const op = new PortAllocationOperation(pa, true);
    await expect(op.allocate(30001)).rejects.toThrow(ErrPortAllocated);
    await op.allocate(30002);
    await expect(op.allocate(30002)).rejects.toThrow(ErrPortAllocated);
    expect(await op.allocateNext()).toBe(30003);
    op.releaseDeferredPort(30001);
    await op.commit();
    expect(pa.used()).toBe(1);
    expect(pa.has(30001)).toBe(true);
  });

  it("reserveNext takes all or none; allocateNext hands the reserved out; commit frees the unused", async () => {
    const pa = new PortAllocator(parsePortRange("30000-30009"));
    for (let i = 0; i < 7; i++) await pa.allocateNext();
    const greedy = new PortAllocationOperation(pa, false);
    await expect(greedy.reserveNext(4)).rejects.toThrow(ErrPortRangeFull);
    expect(pa.used()).toBe(7); // nothing taken by the refusal
    const op = new PortAllocationOperation(pa, false);
    await op.reserveNext(3);
    expect(pa.used()).toBe(10);
    const first = await op.allocateNext();
    expect(op.allocated).toContain(first);
    await op.commit();
    expect(pa.used()).toBe(8); // the two never handed out went back
    expect(pa.has(first)).toBe(true);
    const rolledBack = new PortAllocationOperation(pa, false);
    await rolledBack.reserveNext(2);
    await rolledBack.finish();
    expect(pa.used()).toBe(8);
  });

  it("dry-run reserveNext takes nothing", async () => {
    const pa = new PortAllocator(parsePortRange("30000-30001"));
    const op = new PortAllocationOperation(pa, true);
    await op.reserveNext(2);
    expect(await op.allocateNext()).toBe(32769);
    expect(pa.used()).toBe(0);
  });
});
