/**
 * pkg/controller/job/job_controller_test.go TestControllerSyncJob (the cases that fit a plan of
 * one sync), TestTrackJobStatusAndRemoveFinalizers and TestPastDeadlineJobFinished.
 */
import type { Job, JobSpec, JobStatus, Pod } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import { planJobSync } from "./sync-job.ts";

const now = Date.parse("2026-01-01T00:10:00Z");
const started = "2026-01-01T00:00:00Z";
const finalizer = "batch.kubernetes.io/job-tracking";

function job(spec: Partial<JobSpec> = {}, status: JobStatus = {}): Job {
  return {
    metadata: { name: "foobar", namespace: "default", uid: "job-uid" },
    spec: {
      parallelism: 2,
      completions: 5,
      backoffLimit: 6,
      completionMode: "NonIndexed",
      podReplacementPolicy: "TerminatingOrFailed",
      selector: { matchLabels: { foo: "bar" } },
      template: { metadata: { labels: { foo: "bar" } }, spec: { containers: [{ name: "c", image: "i" }] } },
      ...spec,
    },
    status,
  };
}

let seq = 0;
function pod(phase: string, extra: { index?: number; deleting?: boolean; ready?: boolean; finalizer?: boolean } = {}): Pod {
  seq++;
  return {
    metadata: {
      name: `pod-${seq}`,
      namespace: "default",
      uid: `uid-${seq}`,
      ...(extra.finalizer === false ? {} : { finalizers: [finalizer] }),
      ...(extra.index !== undefined ? { annotations: { "batch.kubernetes.io/job-completion-index": String(extra.index) } } : {}),
      ...(extra.deleting ? { deletionTimestamp: "2026-01-01T00:09:00Z" } : {}),
    },
    spec: { containers: [] },
    status: { phase, ...(extra.ready ? { conditions: [{ type: "Ready", status: "True" }] } : {}) },
  };
}
const pods = (n: number, phase: string, extra: Parameters<typeof pod>[1] = {}) => Array.from({ length: n }, () => pod(phase, extra));
const types = (s: JobStatus) => (s.conditions ?? []).filter((c) => c.status === "True").map((c) => `${c.type}:${c.reason}`);

describe("planJobSync (TestControllerSyncJob)", () => {
  it.each<
    [string, Job, Pod[], { create: number; del: number; active?: number; succeeded?: number; failed?: number; conditions: string[] }]
  >([
    ["job start", job(), [], { create: 2, del: 0, active: 2, conditions: [] }],
    ["correct # of pods", job({}, { startTime: started }), pods(2, "Running"), { create: 0, del: 0, active: 2, conditions: [] }],
    [
      "too few active pods",
      job({}, { startTime: started, succeeded: 1 }),
      pods(1, "Running"),
      { create: 1, del: 0, active: 2, succeeded: 1, conditions: [] },
    ],
    ["too many active pods", job({}, { startTime: started }), pods(3, "Running"), { create: 0, del: 1, active: 2, conditions: [] }],
    [
      "too few active pods, with a pod succeeded",
      job({}, { startTime: started }),
      [...pods(1, "Running"), ...pods(1, "Succeeded")],
      { create: 1, del: 0, active: 2, succeeded: 1, conditions: [] },
    ],
    [
      "only the completions left",
      job({ parallelism: 5 }, { startTime: started, succeeded: 3 }),
      [],
      { create: 2, del: 0, active: 2, succeeded: 3, conditions: [] },
    ],
    [
      "job finish: SuccessCriteriaMet, then Complete with nothing running",
      job({}, { startTime: started, succeeded: 4 }),
      pods(1, "Succeeded"),
      { create: 0, del: 0, succeeded: 5, conditions: ["SuccessCriteriaMet:CompletionsReached", "Complete:CompletionsReached"] },
    ],
    [
      "WQ job: a success with others still running sets nothing; none running completes",
      job({ completions: undefined }, { startTime: started }),
      [...pods(1, "Succeeded")],
      { create: 0, del: 0, succeeded: 1, conditions: ["SuccessCriteriaMet:CompletionsReached", "Complete:CompletionsReached"] },
    ],
    [
      "more than backoffLimit failed: FailureTarget, the running Pods deleted",
      job({ backoffLimit: 1 }, { startTime: started, failed: 1 }),
      [...pods(1, "Failed"), ...pods(1, "Running")],
      { create: 0, del: 1, failed: 2, conditions: ["FailureTarget:BackoffLimitExceeded"] },
    ],
    [
      "FailureTarget and nothing running: Failed",
      job(
        { backoffLimit: 1 },
        {
          startTime: started,
          failed: 2,
          conditions: [
            {
              type: "FailureTarget",
              status: "True",
              reason: "BackoffLimitExceeded",
              message: "Job has reached the specified backoff limit",
            },
          ],
        },
      ),
      [],
      { create: 0, del: 0, failed: 2, conditions: ["FailureTarget:BackoffLimitExceeded", "Failed:BackoffLimitExceeded"] },
    ],
    [
      "activeDeadlineSeconds passed",
      job({ activeDeadlineSeconds: 10 }, { startTime: started }),
      pods(2, "Running"),
      { create: 0, del: 2, conditions: ["FailureTarget:DeadlineExceeded"] },
    ],
    [
      "suspended: the active Pods go",
      job({ suspend: true }, { startTime: started }),
      pods(2, "Running"),
      { create: 0, del: 2, conditions: ["Suspended:JobSuspended"] },
    ],
    [
      "a terminating Pod is replaced under TerminatingOrFailed and counted failed",
      job({}, { startTime: started }),
      [...pods(1, "Running"), ...pods(1, "Running", { deleting: true })],
      { create: 1, del: 0, active: 2, failed: 1, conditions: [] },
    ],
    [
      "a terminating Pod holds its place under Failed",
      job({ podReplacementPolicy: "Failed" }, { startTime: started }),
      [...pods(1, "Running"), ...pods(1, "Running", { deleting: true })],
      { create: 0, del: 0, active: 1, conditions: [] },
    ],
  ])("%s", (_name, j, ps, want) => {
    const plan = planJobSync(j, ps, now);
    expect(plan.createPods.length).toBe(want.create);
    expect(plan.deletePods.length).toBe(want.del);
    expect(plan.status.active).toBe(want.active);
    expect(plan.status.succeeded).toBe(want.succeeded);
    expect(plan.status.failed).toBe(want.failed);
    expect(types(plan.status)).toEqual(want.conditions);
  });

  it("sets startTime on the first sync and a completionTime with Complete", () => {
    expect(planJobSync(job(), [], now).status.startTime).toBe("2026-01-01T00:10:00Z");
    const done = planJobSync(job({ completions: 1, parallelism: 1 }, { startTime: started }), pods(1, "Succeeded"), now);
    expect(done.status).toMatchObject({ completionTime: "2026-01-01T00:10:00Z", ready: 0, terminating: 0 });
    expect(done.events).toEqual([{ type: "Normal", reason: "Completed", message: "Job completed" }]);
  });

  it("requeues at the active deadline", () => {
    const plan = planJobSync(job({ activeDeadlineSeconds: 900 }, { startTime: started }), pods(2, "Running"), now);
    expect(plan.requeueAfterMs).toBe(300_000);
  });

  it("waits out the failed-Pod back-off before creating a replacement", () => {
    const failed = pod("Failed");
    failed.status!.containerStatuses = [{ name: "c", state: { terminated: { exitCode: 1, finishedAt: "2026-01-01T00:09:55Z" } } }];
    const plan = planJobSync(job({ parallelism: 1 }, { startTime: started }), [failed], now);
    expect(plan.createPods).toEqual([]);
    expect(plan.requeueAfterMs).toBe(5_000);
  });
});

describe("trackJobStatusAndRemoveFinalizers (TestTrackJobStatusAndRemoveFinalizers)", () => {
  it("records new finished Pods as uncounted first, takes their finalizers off, then counts them", () => {
    const done = pods(2, "Succeeded");
    const failed = pods(1, "Failed");
    const plan = planJobSync(job({}, { startTime: started }), [...done, ...failed], now);
    expect(plan.uncountedStatus?.uncountedTerminatedPods).toEqual({
      succeeded: [done[0]!.metadata.uid, done[1]!.metadata.uid],
      failed: [failed[0]!.metadata.uid],
    });
    expect(plan.removeFinalizers.map((p) => p.metadata.name)).toEqual([...done, ...failed].map((p) => p.metadata.name));
    expect(plan.status).toMatchObject({ succeeded: 2, failed: 1, uncountedTerminatedPods: {} });
  });

  it("counts UIDs left uncounted by an earlier sync whose Pods are gone, once", () => {
    const plan = planJobSync(
      job({}, { startTime: started, succeeded: 1, uncountedTerminatedPods: { succeeded: ["gone"], failed: [] } }),
      [],
      now,
    );
    expect(plan.uncountedStatus).toBeUndefined();
    expect(plan.status.succeeded).toBe(2);
  });

  it("ignores finished Pods without the finalizer (already counted)", () => {
    const plan = planJobSync(job({}, { startTime: started, succeeded: 1 }), pods(1, "Succeeded", { finalizer: false }), now);
    expect(plan.status.succeeded).toBe(1);
  });
});

describe("Indexed Jobs (TestControllerSyncJob indexed cases)", () => {
  const indexed = (status: JobStatus = {}) =>
    job({ completionMode: "Indexed", completions: 4, parallelism: 2 }, { startTime: started, ...status });
  it("creates the lowest pending indexes", () => {
    expect(planJobSync(indexed(), [], now).createPods).toEqual([0, 1]);
    expect(planJobSync(indexed({ completedIndexes: "0", succeeded: 1 }), [pod("Running", { index: 1 })], now).createPods).toEqual([2]);
  });
  it("counts completed indexes once and writes them compressed", () => {
    const plan = planJobSync(
      indexed({ completedIndexes: "0", succeeded: 1 }),
      [pod("Succeeded", { index: 1 }), pod("Succeeded", { index: 2 }), pod("Succeeded", { index: 1 })],
      now,
    );
    expect(plan.status).toMatchObject({ completedIndexes: "0-2", succeeded: 3 });
    expect(plan.createPods).toEqual([3]);
  });
});
