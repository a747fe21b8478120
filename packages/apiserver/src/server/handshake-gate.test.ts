/**
 * The handshake gate starts at most `perTurn` handshakes per iteration of the event loop, in the
 * order the connections came, so the I/O of connections already open is served in between.
 */
import { describe, expect, it } from "vitest";
import { HandshakeGate } from "./handshake-gate.ts";

/** Runs `fn` with a counter of event-loop iterations (one setImmediate tick each). */
async function withIterations(fn: (iteration: () => number) => Promise<void>): Promise<void> {
  let n = 0;
  let done = false;
  const tick = (): void => {
    if (done) return;
    n++;
    setImmediate(tick);
  };
  setImmediate(tick);
  try {
    await fn(() => n);
  } finally {
    done = true;
  }
}

describe("HandshakeGate", () => {
  it("starts perTurn handshakes per iteration, in arrival order", async () => {
    await withIterations(async (iteration) => {
      const gate = new HandshakeGate(4);
      const started: { i: number; at: number }[] = [];
      await new Promise<void>((resolve) => {
        for (let i = 0; i < 18; i++)
          gate.admit(() => {
            started.push({ i, at: iteration() });
            if (started.length === 18) resolve();
          });
        expect(gate.waiting).toBe(18);
      });
      expect(started.map((s) => s.i)).toEqual(Array.from({ length: 18 }, (_, i) => i));
      const perIteration = new Map<number, number>();
      for (const s of started) perIteration.set(s.at, (perIteration.get(s.at) ?? 0) + 1);
      expect([...perIteration.values()]).toEqual([4, 4, 4, 4, 2]);
      expect(gate.waiting).toBe(0);
    });
  });

  it("serves a timer between two batches", async () => {
    const gate = new HandshakeGate(1);
    const order: string[] = [];
    await new Promise<void>((resolve) => {
      gate.admit(() => {
        order.push("a");
        setTimeout(() => order.push("timer"), 0);
        const end = performance.now() + 5;
        while (performance.now() < end);
      });
      gate.admit(() => {
        order.push("b");
        resolve();
      });
    });
    await new Promise((r) => setTimeout(r, 0));
    expect(order).toEqual(["a", "timer", "b"]);
  });
});
