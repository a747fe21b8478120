/** heap_test.go: pops in `less` order; an update (touch) re-ranks a queued key. */
import { describe, expect, it } from "vitest";
import { prioritySortLess, type QueuedPodInfo } from "../../framework/plugins/queuesort/priority-sort.ts";
import { Heap } from "./heap.ts";

describe("Heap", () => {
  it("TestHeap_AddOrUpdate_Update: pops by PrioritySort and re-ranks on touch", () => {
    const info = new Map<string, QueuedPodInfo>();
    const h = new Heap(prioritySortLess, (k) => info.get(k)!);
    const keys = ["a", "b", "c", "d", "e", "f", "g"];
    keys.forEach((k, i) => {
      info.set(k, { priority: i % 3, timestamp: i });
      h.push(k);
    });
    info.set("a", { priority: 9, timestamp: 0 });
    h.touch("a");
    h.push("b");
    expect(h.len()).toBe(7);
    const order: string[] = [];
    while (h.len() > 0) order.push(h.pop());
    // a re-ranked to 9; then priority 2 (c, f), 1 (b, e), 0 (d, g), each by timestamp.
    expect(order).toEqual(["a", "c", "f", "b", "e", "d", "g"]);
  });
});
