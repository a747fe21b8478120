/** The timed worker queue, after pkg/controller/tainteviction/timed_workers_test.go (on a fake clock). */
import { describe, expect, it } from "vitest";
import { FakeClock } from "@servicenet/component-base/clock";
import { keyFromWorkArgs, newWorkArgs, TimedWorkerQueue, type WorkArgs } from "./timed-workers.ts";

const flush = () => new Promise((r) => setImmediate(r));
const five = ["1", "2", "3", "4", "5"];

function counting(clock: FakeClock) {
  const seen: string[] = [];
  const queue = new TimedWorkerQueue((_fireAt, args: WorkArgs) => {
    seen.push(keyFromWorkArgs(args));
    return Promise.resolve();
  }, clock);
  return { seen, queue };
}

describe("TimedWorkerQueue", () => {
  it.each<{ name: string; delayed: boolean; cancel: string[]; readd: string[]; want: number }>([
    { name: "TestExecute", delayed: false, cancel: [], readd: [], want: 5 },
    { name: "TestExecuteDelayed", delayed: true, cancel: [], readd: [], want: 5 },
    { name: "TestCancel", delayed: true, cancel: ["2", "4"], readd: [], want: 3 },
    { name: "TestCancelAndRead", delayed: true, cancel: ["2", "4"], readd: ["2"], want: 4 },
  ])("$name", async ({ delayed, cancel, readd, want }) => {
    const clock = new FakeClock();
    const { seen, queue } = counting(clock);
    const now = clock.now();
    const then = delayed ? now + 10_000 : now;
    // Each key twice: the second AddWork of a key is skipped.
    for (const k of [...five, ...(delayed ? five : [])]) queue.addWork(newWorkArgs(k, k), now, then);
    for (const k of cancel) queue.cancelWork(keyFromWorkArgs(newWorkArgs(k, k)));
    for (const k of readd) queue.addWork(newWorkArgs(k, k), now, then);
    if (delayed) {
      await flush();
      expect(seen).toEqual([]);
      clock.step(11_000);
    }
    await flush();
    expect(seen).toHaveLength(want);
    expect(new Set(seen).size).toBe(want);
  });

  it("keeps a finished key, so the same work is not added again until it is cancelled", async () => {
    const clock = new FakeClock();
    const { seen, queue } = counting(clock);
    const args = newWorkArgs("pod", "ns");
    queue.addWork(args, clock.now(), clock.now());
    await flush();
    queue.addWork(args, clock.now(), clock.now());
    await flush();
    expect(seen).toEqual(["ns/pod"]);
    // Nothing pending to stop, but the key is forgotten.
    expect(queue.cancelWork("ns/pod")).toBe(false);
    queue.addWork(args, clock.now(), clock.now());
    await flush();
    expect(seen).toEqual(["ns/pod", "ns/pod"]);
  });

  it("forgets a failed key, so it can be added again", async () => {
    const clock = new FakeClock();
    let calls = 0;
    const queue = new TimedWorkerQueue(() => (calls++ === 0 ? Promise.reject(new Error("boom")) : Promise.resolve()), clock);
    queue.addWork(newWorkArgs("pod", "ns"), clock.now(), clock.now());
    await flush();
    queue.addWork(newWorkArgs("pod", "ns"), clock.now(), clock.now());
    await flush();
    expect(calls).toBe(2);
  });

  it.each([
    { name: "immediate worker", delayMs: 0, expectCancelToSucceed: false },
    { name: "scheduled worker already firing", delayMs: 1000, expectCancelToSucceed: true },
  ])("TestRunningWorkerCompletionDoesNotRemoveReplacement: $name", async ({ delayMs, expectCancelToSucceed }) => {
    const clock = new FakeClock();
    let release!: () => void;
    let started = false;
    const queue = new TimedWorkerQueue(() => {
      started = true;
      return new Promise<void>((r) => (release = r));
    }, clock);
    const now = clock.now();
    const args = newWorkArgs("pod", "namespace");
    const key = keyFromWorkArgs(args);
    queue.addWork(args, now, now + delayMs);
    clock.step(delayMs);
    await flush();
    expect(started).toBe(true);
    expect(queue.cancelWork(key)).toBe(expectCancelToSucceed);
    const replacementFireAt = now + 10_000;
    queue.addWork(newWorkArgs("pod", "namespace"), now + 2000, replacementFireAt);
    expect(queue.getWorkerUnsafe(key)?.fireAt).toBe(replacementFireAt);
    release();
    await flush();
    expect(queue.getWorkerUnsafe(key)?.fireAt).toBe(replacementFireAt);
    expect(queue.cancelWork(key)).toBe(true);
    expect(queue.getWorkerUnsafe(key)).toBeUndefined();
  });

  it("cancelAndWait stops pending timers and waits for running work", async () => {
    const clock = new FakeClock();
    const { seen, queue } = counting(clock);
    queue.addWork(newWorkArgs("a", "ns"), clock.now(), clock.now() + 1000);
    await queue.cancelAndWait();
    clock.step(2000);
    await flush();
    expect(seen).toEqual([]);
    expect(clock.waiters()).toBe(0);
  });
});
