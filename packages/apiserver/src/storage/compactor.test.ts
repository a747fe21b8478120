import { afterEach, describe, expect, it, vi } from "vitest";
import { startCompactor } from "./compactor.ts";

/** A fake store whose revision the test moves. */
function fakeStore() {
  const s = { revision: 0, compacted: 0, calls: [] as number[], fail: false };
  return {
    s,
    store: {
      currentRevision: async () => s.revision,
      compactedRevision: async () => s.compacted,
      compact: async (rev: number) => {
        if (s.fail) throw new Error("database is locked");
        s.calls.push(rev);
        s.compacted = rev;
      },
    },
  };
}

describe("compactor", () => {
  afterEach(() => vi.useRealTimers());

  it("compacts to the revision seen one interval earlier, keeping minRetain revisions", async () => {
    vi.useFakeTimers();
    const { s, store } = fakeStore();
    const stop = startCompactor(store, { intervalMs: 1000, minRetain: 10 });
    s.revision = 100;
    await vi.advanceTimersByTimeAsync(1000); // first tick only records 100
    expect(s.calls).toEqual([]);
    s.revision = 105;
    await vi.advanceTimersByTimeAsync(1000); // min(100, 105-10) = 95
    expect(s.calls).toEqual([95]);
    s.revision = 300;
    await vi.advanceTimersByTimeAsync(1000); // min(105, 290) = 105
    expect(s.calls).toEqual([95, 105]);
    await vi.advanceTimersByTimeAsync(1000); // min(300, 290) = 290
    expect(s.calls).toEqual([95, 105, 290]);
    stop();
    s.revision = 5000;
    await vi.advanceTimersByTimeAsync(5000);
    expect(s.calls).toEqual([95, 105, 290]);
  });

  it("keeps running after a failed compaction (kine#414)", async () => {
    vi.useFakeTimers();
    const { s, store } = fakeStore();
    const errors: unknown[] = [];
    const stop = startCompactor(store, { intervalMs: 10, minRetain: 0 }, (e) => errors.push(e));
    s.revision = 50;
    await vi.advanceTimersByTimeAsync(10);
    s.fail = true;
    s.revision = 60;
    await vi.advanceTimersByTimeAsync(10);
    expect(errors).toHaveLength(1);
    s.fail = false;
    await vi.advanceTimersByTimeAsync(10);
    // The retry compacts to what the failed attempt aimed at.
    expect(s.calls).toEqual([50]);
    stop();
  });

  it("does nothing with interval 0", async () => {
    vi.useFakeTimers();
    const { s, store } = fakeStore();
    startCompactor(store, { intervalMs: 0 })();
    s.revision = 10_000;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(s.calls).toEqual([]);
  });
});
