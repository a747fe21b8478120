/** priority_sort_test.go TestLess. */
import { describe, expect, it } from "vitest";
import { prioritySortLess, podPriority, type QueuedPodInfo } from "./priority-sort.ts";

const lowPriority = 10;
const highPriority = 20;
const t1 = Date.parse("2026-12-06T10:00:00Z");
const t2 = t1 + 1000;
const info = (priority: number, timestamp: number): QueuedPodInfo => ({ priority, timestamp });

describe("TestLess", () => {
  it.each([
    { name: "p1.priority less than p2.priority", p1: info(lowPriority, t1), p2: info(highPriority, t1), expected: false },
    { name: "p1.priority greater than p2.priority", p1: info(highPriority, t1), p2: info(lowPriority, t1), expected: true },
    {
      name: "equal priority. p1 is added to schedulingQ earlier than p2",
      p1: info(highPriority, t1),
      p2: info(highPriority, t2),
      expected: true,
    },
    {
      name: "equal priority. p2 is added to schedulingQ earlier than p1",
      p1: info(highPriority, t2),
      p2: info(highPriority, t1),
      expected: false,
    },
  ])("$name", ({ p1, p2, expected }) => {
    expect(prioritySortLess(p1, p2)).toBe(expected);
  });

  it("PodPriority: spec.priority, 0 when unset", () => {
    expect(podPriority({ metadata: {}, spec: { containers: [], priority: 7 } })).toBe(7);
    expect(podPriority({ metadata: {}, spec: { containers: [] } })).toBe(0);
  });
});
