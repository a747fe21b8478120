import { describe, expect, it } from "vitest";
import { LRUExpireCache } from "./lruexpirecache.ts";

describe("LRUExpireCache", () => {
  it("TestSimpleGet and TestExpiredGet: a value reads until its TTL passes", () => {
    let now = 0;
    const c = new LRUExpireCache<number>(10, () => now);
    c.add("long-lived", 1, 10_000);
    c.add("short-lived", 2, 1000);
    c.add("zero", 3, 0);
    expect(c.get("long-lived")).toBe(1);
    expect(c.get("short-lived")).toBe(2);
    expect(c.get("zero")).toBeUndefined();
    now = 1000;
    expect(c.get("short-lived")).toBeUndefined();
    expect(c.get("long-lived")).toBe(1);
  });

  it("TestLRUOverflow: adding past the size evicts the least recently used", () => {
    const c = new LRUExpireCache<number>(2, () => 0);
    c.add("a", 1, 10);
    c.add("b", 2, 10);
    expect(c.get("a")).toBe(1);
    c.add("c", 3, 10);
    expect(c.get("b")).toBeUndefined();
    expect(c.get("a")).toBe(1);
    expect(c.get("c")).toBe(3);
  });
});
