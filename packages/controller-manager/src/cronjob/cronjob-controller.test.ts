/**
 * pkg/controller/cronjob/cronjob_controllerv2_test.go TestControllerV2SyncCronJob (the cases that
 * fit) and utils_test.go TestMostRecentScheduleTime / TestGetJobFromTemplate2, on a fake clock.
 */
import { StatusError, type CronJob, type CronJobSpec, type Job } from "@servicenet/api";
import { parseStandard } from "@servicenet/api/batch/v1";
import { FakeClock } from "@servicenet/component-base/clock";
import { MemoryInformer } from "@servicenet/client/tools/cache";
import { FakeRecorder } from "@servicenet/client/tools/record";
import { describe, expect, it } from "vitest";
import type { CronJobClient } from "./cronjob-client.ts";
import { CronJobController } from "./cronjob-controller.ts";
import { jobFromTemplate, mostRecentScheduleTime } from "./utils.ts";

// A Tuesday, 10:00 UTC; the CronJob was made an hour earlier.
const justBeforeTheHour = Date.parse("2016-05-19T09:59:00Z");
const topOfTheHour = Date.parse("2016-05-19T10:00:00Z");
const justAfterTheHour = Date.parse("2016-05-19T10:01:00Z");
const created = "2016-05-19T09:00:00Z";

function cronJob(spec: Partial<CronJobSpec> = {}, status: CronJob["status"] = {}): CronJob {
  return {
    metadata: { name: "mycronjob", namespace: "snazzycats", uid: "1a2b3c", creationTimestamp: created },
    spec: {
      schedule: "0 * * * ?",
      concurrencyPolicy: "Allow",
      suspend: false,
      successfulJobsHistoryLimit: 3,
      failedJobsHistoryLimit: 1,
      jobTemplate: { metadata: { labels: { a: "b" } }, spec: { template: { metadata: {}, spec: { containers: [] } } } },
      ...spec,
    },
    status,
  };
}

function childJob(name: string, finished?: "Complete" | "Failed"): Job {
  return {
    metadata: {
      name,
      namespace: "snazzycats",
      uid: `uid-${name}`,
      ownerReferences: [{ apiVersion: "batch/v1", kind: "CronJob", name: "mycronjob", uid: "1a2b3c", controller: true }],
    },
    spec: { template: { metadata: {}, spec: { containers: [] } } },
    status: finished
      ? { startTime: "2016-05-19T08:00:00Z", completionTime: "2016-05-19T08:10:00Z", conditions: [{ type: finished, status: "True" }] }
      : { startTime: "2016-05-19T09:00:00Z" },
  };
}

function setup(cj: CronJob, jobs: Job[], now: number) {
  const clock = new FakeClock(now);
  const cronJobs = new MemoryInformer<CronJob>([cj], true);
  const jobInformer = new MemoryInformer<Job>(jobs, true);
  const created: Job[] = [];
  const deleted: string[] = [];
  const statuses: CronJob[] = [];
  const client: CronJobClient = {
    async getCronJob() {
      return cj;
    },
    async createJob(_ns, job) {
      if (jobs.some((j) => j.metadata.name === job.metadata.name)) throw new StatusError("AlreadyExists", "exists");
      created.push(job);
      return { ...job, metadata: { ...job.metadata, uid: "new-uid" } };
    },
    async deleteJob(_ns, name) {
      deleted.push(name);
    },
    async updateStatus(c) {
      statuses.push(c);
      return c;
    },
  };
  const recorder = new FakeRecorder();
  const c = new CronJobController({ cronJobs, jobs: jobInformer, client, recorder, clock });
  return { c, created, deleted, statuses, recorder };
}

describe("CronJobController.sync (TestControllerV2SyncCronJob)", () => {
  it.each<[string, CronJob, Job[], number, { created: number; deleted: string[]; events: string[]; active?: number }]>([
    ["never ran, not time", cronJob(), [], justBeforeTheHour, { created: 0, deleted: [], events: [] }],
    [
      "never ran, is time",
      cronJob(),
      [],
      justAfterTheHour,
      { created: 1, deleted: [], events: ["Normal SuccessfulCreate Created job mycronjob-24394200"], active: 1 },
    ],
    ["suspended", cronJob({ suspend: true }), [], justAfterTheHour, { created: 0, deleted: [], events: [] }],
    [
      "too late (startingDeadlineSeconds)",
      cronJob({ startingDeadlineSeconds: 10 }),
      [],
      Date.parse("2016-05-19T10:30:00Z"),
      { created: 0, deleted: [], events: [] },
    ],
    [
      "Forbid with one running",
      cronJob({ concurrencyPolicy: "Forbid" }, { active: [{ kind: "Job", name: "old", uid: "uid-old" }] }),
      [childJob("old")],
      justAfterTheHour,
      {
        created: 0,
        deleted: [],
        events: ["Normal JobAlreadyActive Not starting job because prior execution is running and concurrency policy is Forbid"],
        active: 1,
      },
    ],
    [
      "Replace with one running",
      cronJob({ concurrencyPolicy: "Replace" }, { active: [{ kind: "Job", name: "old", uid: "uid-old" }] }),
      [childJob("old")],
      justAfterTheHour,
      {
        created: 1,
        deleted: ["old"],
        events: ["Normal SuccessfulDelete Deleted job old", "Normal SuccessfulCreate Created job mycronjob-24394200"],
        active: 1,
      },
    ],
    [
      "Allow with one running: both",
      cronJob({}, { active: [{ kind: "Job", name: "old", uid: "uid-old" }] }),
      [childJob("old")],
      justAfterTheHour,
      { created: 1, deleted: [], events: ["Normal SuccessfulCreate Created job mycronjob-24394200"], active: 2 },
    ],
    [
      "a finished active Job leaves the list; the history limit removes the oldest",
      cronJob(
        { successfulJobsHistoryLimit: 0 },
        { active: [{ kind: "Job", name: "old", uid: "uid-old" }], lastScheduleTime: "2016-05-19T09:00:00Z" },
      ),
      [childJob("old", "Complete")],
      justBeforeTheHour,
      {
        created: 0,
        deleted: ["old"],
        events: ["Normal SawCompletedJob Saw completed job: old, status: Complete", "Normal SuccessfulDelete Deleted job old"],
      },
    ],
    [
      // syncCronJob: a running child the status does not list is not adopted, only reported.
      "an unfinished Job missing from status.active: UnexpectedJob, not adopted",
      cronJob({}, { lastScheduleTime: "2016-05-19T10:00:00Z" }),
      [childJob("manual")],
      justAfterTheHour,
      {
        created: 0,
        deleted: [],
        events: ["Warning UnexpectedJob Saw a job that the controller did not create or forgot: manual"],
      },
    ],
    [
      "already ran this hour",
      cronJob({}, { lastScheduleTime: "2016-05-19T10:00:00Z" }),
      [],
      justAfterTheHour,
      { created: 0, deleted: [], events: [] },
    ],
  ])("%s", async (_name, cj, jobs, now, want) => {
    const { c, created, deleted, statuses, recorder } = setup(cj, jobs, now);
    await c.sync("snazzycats/mycronjob");
    expect(created.length).toBe(want.created);
    expect(deleted).toEqual(want.deleted);
    expect(recorder.events).toEqual(want.events);
    const status = statuses.at(-1)?.status ?? cj.status;
    expect(status?.active?.length).toBe(want.active);
    if (want.created > 0) expect(status?.lastScheduleTime).toBe("2016-05-19T10:00:00Z");
  });

  it("records lastSuccessfulTime from a completed Job", async () => {
    const { c, statuses } = setup(
      cronJob({}, { lastScheduleTime: "2016-05-19T09:00:00Z" }),
      [childJob("done", "Complete")],
      justBeforeTheHour,
    );
    await c.sync("snazzycats/mycronjob");
    expect(statuses.at(-1)?.status?.lastSuccessfulTime).toBe("2016-05-19T08:10:00Z");
  });

  it("requeues just after the next schedule time", async () => {
    const { c } = setup(cronJob(), [], justBeforeTheHour);
    const after: number[] = [];
    c.queue.addAfter = (_k: string, ms: number) => void after.push(ms);
    await c.sync("snazzycats/mycronjob");
    expect(after).toEqual([60_100]);
  });
});

describe("mostRecentScheduleTime (TestMostRecentScheduleTime)", () => {
  it.each<[string, string, number, string | undefined, number]>([
    ["not past the first", "0 * * * *", justBeforeTheHour, undefined, 0],
    ["one missed", "0 * * * *", justAfterTheHour, "2016-05-19T10:00:00.000Z", 1],
    ["many missed", "*/5 * * * *", topOfTheHour, "2016-05-19T10:00:00.000Z", 12],
  ])("%s", (_name, schedule, now, want, missed) => {
    const got = mostRecentScheduleTime(cronJob(), now, parseStandard(schedule), "UTC", true);
    expect(got.time === undefined ? undefined : new Date(got.time).toISOString()).toBe(want);
    expect(got.missed).toBe(missed);
  });
  it("starts at now minus startingDeadlineSeconds", () => {
    const got = mostRecentScheduleTime(cronJob({ startingDeadlineSeconds: 600 }), topOfTheHour, parseStandard("*/5 * * * *"), "UTC", true);
    expect(got.missed).toBe(2);
  });
});

describe("jobFromTemplate (TestGetJobFromTemplate2)", () => {
  it("names the Job by the scheduled minute and annotates the scheduled time in the CronJob's zone", () => {
    const j = jobFromTemplate(cronJob(), topOfTheHour, "Asia/Tokyo");
    expect(j.metadata.name).toBe("mycronjob-24394200");
    expect(j.metadata.labels).toEqual({ a: "b" });
    expect(j.metadata.annotations).toEqual({ "batch.kubernetes.io/cronjob-scheduled-timestamp": "2016-05-19T19:00:00+09:00" });
    expect(j.metadata.ownerReferences).toEqual([
      { apiVersion: "batch/v1", kind: "CronJob", name: "mycronjob", uid: "1a2b3c", controller: true, blockOwnerDeletion: true },
    ]);
  });
});
