/**
 * The scheduler's keyed heap (pkg/scheduler/backend/heap/heap.go), as the activeQ's order: a
 * binary heap of keys ranked by a `LessFunc` over a snapshot of each key's info, taken when the
 * key is pushed and again when it is touched (a re-add while queued: `Heap.AddOrUpdate`).
 */
import type { Queue } from "@servicenet/client/util/workqueue";
import type { LessFunc, QueuedPodInfo } from "../../framework/plugins/queuesort/priority-sort.ts";

interface Entry {
  key: string;
  info: QueuedPodInfo;
}

/** A `Queue` of keys popped in `less` order; `infoOf` gives a key's current priority and timestamp. */
export class Heap implements Queue<string> {
  readonly #items: Entry[] = [];
  readonly #index = new Map<string, number>();
  readonly #less: LessFunc;
  readonly #infoOf: (key: string) => QueuedPodInfo;

  constructor(less: LessFunc, infoOf: (key: string) => QueuedPodInfo) {
    this.#less = less;
    this.#infoOf = infoOf;
  }

  /** AddOrUpdate. */
  push(key: string): void {
    const i = this.#index.get(key);
    if (i !== undefined) {
      this.touch(key);
      return;
    }
    this.#items.push({ key, info: this.#infoOf(key) });
    this.#index.set(key, this.#items.length - 1);
    this.#up(this.#items.length - 1);
  }

  /** Re-ranks a queued key with its current info. */
  touch(key: string): void {
    const i = this.#index.get(key);
    if (i === undefined) return;
    this.#items[i]!.info = this.#infoOf(key);
    if (!this.#up(i)) this.#down(i);
  }

  len(): number {
    return this.#items.length;
  }

  /** Pop: the first key in `less` order. */
  pop(): string {
    const last = this.#items.length - 1;
    this.#swap(0, last);
    const top = this.#items.pop()!;
    this.#index.delete(top.key);
    if (this.#items.length > 0) this.#down(0);
    return top.key;
  }

  #lessAt(i: number, j: number): boolean {
    return this.#less(this.#items[i]!.info, this.#items[j]!.info);
  }

  #swap(i: number, j: number): void {
    const a = this.#items[i]!;
    const b = this.#items[j]!;
    this.#items[i] = b;
    this.#items[j] = a;
    this.#index.set(b.key, i);
    this.#index.set(a.key, j);
  }

  // container/heap's up; true when the entry moved.
  #up(i: number): boolean {
    const start = i;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.#lessAt(i, parent)) break;
      this.#swap(i, parent);
      i = parent;
    }
    return i !== start;
  }

  // container/heap's down.
  #down(i: number): void {
    const n = this.#items.length;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) return;
      const r = l + 1;
      const child = r < n && this.#lessAt(r, l) ? r : l;
      if (!this.#lessAt(child, i)) return;
      this.#swap(i, child);
      i = child;
    }
  }
}
