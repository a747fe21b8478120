/** pkg/controller/ttlafterfinished/ttlafterfinished_controller_test.go: TestTimeLeft, TestJobFinishTime, processJob. */
import type { Job } from "@servicenet/api";
import { FakeClock } from "@servicenet/component-base/clock";
import { MemoryInformer } from "@servicenet/client/tools/cache";
import { describe, expect, it } from "vitest";
import { jobFinishTime, TTLAfterFinishedController, timeLeftMs } from "./ttlafterfinished-controller.ts";

const finished = "2026-01-01T00:00:00Z";
const t0 = Date.parse(finished);
function job(ttl: number | undefined, cond = "Complete"): Job {
  return {
    metadata: { name: "j", namespace: "ns", uid: "uid-j" },
    spec: { ...(ttl !== undefined ? { ttlSecondsAfterFinished: ttl } : {}), template: { metadata: {}, spec: { containers: [] } } },
    status: cond ? { conditions: [{ type: cond, status: "True", lastTransitionTime: finished }] } : {},
  };
}

describe("TestTimeLeft", () => {
  it.each<[string, Job, number, number | undefined]>([
    ["no TTL", job(undefined), t0, undefined],
    ["not finished", job(10, ""), t0, undefined],
    ["not expired", job(10), t0 + 3_000, 7_000],
    ["expired", job(10), t0 + 15_000, -5_000],
    ["Failed counts too", job(0, "Failed"), t0, 0],
  ])("%s", (_name, j, now, want) => {
    expect(timeLeftMs(j, now)).toBe(want);
  });
  it("jobFinishTime reads the finished condition", () => {
    expect(jobFinishTime(job(1))).toBe(t0);
    expect(jobFinishTime(job(1, "SuccessCriteriaMet"))).toBeUndefined();
  });
});

describe("processJob", () => {
  function setup(j: Job, now: number) {
    const jobs = new MemoryInformer<Job>([j], true);
    const deleted: string[] = [];
    const after: number[] = [];
    const c = new TTLAfterFinishedController({
      jobs,
      clock: new FakeClock(now),
      client: { get: async () => j, delete: async (ns, name, uid) => void deleted.push(`${ns}/${name} ${uid}`) },
    });
    c.queue.addAfter = (_k: string, ms: number) => void after.push(ms);
    return { c, deleted, after };
  }
  it("requeues a Job not yet expired", async () => {
    const { c, deleted, after } = setup(job(10), t0 + 4_000);
    await c.processJob("ns/j");
    expect(deleted).toEqual([]);
    expect(after).toEqual([6_000]);
  });
  it("deletes an expired Job with its UID as precondition", async () => {
    const { c, deleted } = setup(job(10), t0 + 10_000);
    await c.processJob("ns/j");
    expect(deleted).toEqual(["ns/j uid-j"]);
  });
});
