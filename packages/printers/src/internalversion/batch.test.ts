/** pkg/printers/internalversion/printers_test.go: TestPrintJob, TestPrintCronJob. */
import type { CronJob, Job } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import { cronJobHandler, jobHandler } from "./batch.ts";

const now = new Date("2025-01-01T00:10:00Z");
const metadata = { name: "job1", creationTimestamp: "2025-01-01T00:00:00Z" };
const template = { metadata: {}, spec: { containers: [{ name: "fake-job-container1", image: "fake-job-image1" }] } };

describe("TestPrintJob", () => {
  it.each<[string, Job, unknown[]]>([
    [
      "Running, not started",
      { metadata, spec: { completions: 2, template, selector: { matchLabels: { a: "b" } } }, status: { succeeded: 1 } },
      ["job1", "Running", "1/2", "", "10m"],
    ],
    ["no completions", { metadata, spec: { template }, status: { succeeded: 1 } }, ["job1", "Running", "1/1", "", "10m"]],
    [
      "a work queue",
      { metadata, spec: { parallelism: 2, template }, status: { succeeded: 1 } },
      ["job1", "Running", "1/1 of 2", "", "10m"],
    ],
    [
      "Complete, with duration",
      {
        metadata,
        spec: { completions: 2, template },
        status: {
          succeeded: 2,
          startTime: "2025-01-01T00:01:00Z",
          completionTime: "2025-01-01T00:04:30Z",
          conditions: [
            { type: "SuccessCriteriaMet", status: "True" },
            { type: "Complete", status: "True" },
          ],
        },
      },
      ["job1", "Complete", "2/2", "3m30s", "10m"],
    ],
    [
      "running duration",
      { metadata, spec: { completions: 2, template }, status: { startTime: "2025-01-01T00:09:00Z" } },
      ["job1", "Running", "0/2", "60s", "10m"],
    ],
    [
      "FailureTarget",
      { metadata, spec: { completions: 2, template }, status: { conditions: [{ type: "FailureTarget", status: "True" }] } },
      ["job1", "FailureTarget", "0/2", "", "10m"],
    ],
    [
      "Terminating",
      { metadata: { ...metadata, deletionTimestamp: "2025-01-01T00:09:00Z" }, spec: { completions: 2, template } },
      ["job1", "Terminating", "0/2", "", "10m"],
    ],
    [
      "Suspended",
      { metadata, spec: { completions: 2, template }, status: { conditions: [{ type: "Suspended", status: "True" }] } },
      ["job1", "Suspended", "0/2", "", "10m"],
    ],
  ])("%s", (_name, job, want) => {
    expect(jobHandler.printRow(job, { wide: false, now })).toEqual(want);
  });

  it("prints CONTAINERS IMAGES SELECTOR with -o wide", () => {
    const job: Job = { metadata, spec: { completions: 2, template, selector: { matchLabels: { a: "b" } } } };
    expect(jobHandler.printRow(job, { wide: true, now }).slice(5)).toEqual(["fake-job-container1", "fake-job-image1", "a=b"]);
    expect(jobHandler.columnDefinitions.map((c) => c.name)).toEqual([
      "Name",
      "Status",
      "Completions",
      "Duration",
      "Age",
      "Containers",
      "Images",
      "Selector",
    ]);
  });
});

describe("TestPrintCronJob", () => {
  const cj: CronJob = {
    metadata: { name: "cronjob1", creationTimestamp: "2025-01-01T00:00:00Z" },
    spec: { schedule: "0/5 * * * ?", suspend: false, jobTemplate: { metadata: {}, spec: { template } } },
    status: { lastScheduleTime: "2025-01-01T00:05:00Z" },
  };
  it("prints NAME SCHEDULE TIMEZONE SUSPEND ACTIVE LAST SCHEDULE AGE", () => {
    expect(cronJobHandler.printRow(cj, { wide: false, now })).toEqual(["cronjob1", "0/5 * * * ?", "<none>", "False", 0, "5m", "10m"]);
    const never = { ...cj, spec: { ...cj.spec, timeZone: "Europe/Paris", suspend: undefined }, status: {} } as CronJob;
    expect(cronJobHandler.printRow(never, { wide: false, now })).toEqual([
      "cronjob1",
      "0/5 * * * ?",
      "Europe/Paris",
      "<unset>",
      0,
      "<none>",
      "10m",
    ]);
  });
  it("names the columns as upstream", () => {
    expect(cronJobHandler.columnDefinitions.map((c) => c.name)).toEqual([
      "Name",
      "Schedule",
      "Timezone",
      "Suspend",
      "Active",
      "Last Schedule",
      "Age",
      "Containers",
      "Images",
      "Selector",
    ]);
  });
});
