/** Upstream pkg/apis/batch/validation/validation_test.go TestValidateCronJob, and robfig/cron/v3 parser_test.go. */
import { describe, expect, it } from "vitest";
import { fieldErrorString } from "../../errors/field-error.ts";
import { nextTime } from "./cron-next.ts";
import { parseStandard } from "./cron-schedule.ts";
import { setDefaultsCronJob } from "./defaults.ts";
import type { CronJob, CronJobSpec } from "./types.ts";
import { validateCronJobCreate, validateCronJobUpdate } from "./cronjob-validation.ts";

function cronJob(spec: Partial<CronJobSpec> = {}, name = "mycronjob"): CronJob {
  return setDefaultsCronJob({
    metadata: { name, namespace: "default" },
    spec: {
      schedule: "* * * * ?",
      jobTemplate: {
        metadata: {},
        spec: { template: { metadata: {}, spec: { restartPolicy: "OnFailure", containers: [{ name: "abc", image: "image" }] } } },
      },
      ...spec,
    },
  });
}
const messages = (cj: CronJob) => validateCronJobCreate(cj).map(fieldErrorString);

describe("setDefaultsCronJob (TestSetDefaultCronJob)", () => {
  it("defaults concurrencyPolicy Allow, suspend false, history limits 3 and 1, and leaves the job template's JobSpec alone", () => {
    const cj = cronJob();
    expect(cj.spec).toMatchObject({ concurrencyPolicy: "Allow", suspend: false, successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1 });
    expect(cj.spec.jobTemplate.spec.backoffLimit).toBeUndefined();
  });
});

describe("validateCronJobCreate (TestValidateCronJob)", () => {
  it("accepts a valid CronJob, a descriptor and a time zone", () => {
    expect(messages(cronJob())).toEqual([]);
    expect(messages(cronJob({ schedule: "@every 5m" }))).toEqual([]);
    expect(messages(cronJob({ schedule: "0 5 * * mon-fri", timeZone: "America/New_York" }))).toEqual([]);
  });

  it.each<[string, Partial<CronJobSpec>, string[]]>([
    ["empty schedule", { schedule: "" }, ["spec.schedule: Required value"]],
    ["four fields", { schedule: "* * * *" }, ['spec.schedule: Invalid value: "* * * *": expected exactly 5 fields, found 4: [* * * *]']],
    ["a bad minute", { schedule: "61 * * * *" }, ['spec.schedule: Invalid value: "61 * * * *": end of range (61) above maximum (59): 61']],
    [
      "not a number",
      { schedule: "x * * * *" },
      ['spec.schedule: Invalid value: "x * * * *": failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax'],
    ],
    [
      "an unknown descriptor",
      { schedule: "@sometimes" },
      ['spec.schedule: Invalid value: "@sometimes": unrecognized descriptor: @sometimes'],
    ],
    [
      "TZ in the schedule",
      { schedule: "TZ=UTC 0 * * * *" },
      ['spec.schedule: Invalid value: "TZ=UTC 0 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead'],
    ],
    [
      "a bad TZ in the schedule",
      { schedule: "CRON_TZ=Mars/Base 0 * * * *" },
      [
        'spec.schedule: Invalid value: "CRON_TZ=Mars/Base 0 * * * *": provided bad location Mars/Base: unknown time zone Mars/Base',
        'spec.schedule: Invalid value: "CRON_TZ=Mars/Base 0 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead',
      ],
    ],
    ["an empty time zone", { timeZone: "" }, ['spec.timeZone: Invalid value: "": timeZone must be nil or non-empty string']],
    [
      "Local",
      { timeZone: "Local" },
      ['spec.timeZone: Invalid value: "Local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones'],
    ],
    [
      "an unknown zone",
      { timeZone: "America/New_Yrok" },
      ['spec.timeZone: Invalid value: "America/New_Yrok": unknown time zone America/New_Yrok'],
    ],
    ["a bad zone name", { timeZone: "../etc/passwd" }, ['spec.timeZone: Invalid value: "../etc/passwd": unknown time zone ../etc/passwd']],
    [
      "concurrencyPolicy",
      { concurrencyPolicy: "Sometimes" },
      ['spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"'],
    ],
    [
      "negative limits",
      { startingDeadlineSeconds: -1, successfulJobsHistoryLimit: -1 },
      [
        "spec.startingDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0",
        "spec.successfulJobsHistoryLimit: Invalid value: -1: must be greater than or equal to 0",
      ],
    ],
  ])("%s", (_name, spec, want) => {
    expect(messages(cronJob(spec))).toEqual(want);
  });

  it("rejects a selector or manualSelector in the job template, restartPolicy Always, and names over 52 characters", () => {
    const cj = cronJob();
    cj.spec.jobTemplate.spec.selector = { matchLabels: { a: "b" } };
    cj.spec.jobTemplate.spec.manualSelector = true;
    (cj.spec.jobTemplate.spec.template.spec as Record<string, unknown>)["restartPolicy"] = "Always";
    expect(messages(cj)).toEqual([
      'spec.jobTemplate.spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"',
      'spec.jobTemplate.spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"a":"b"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: `selector` will be auto-generated',
      'spec.jobTemplate.spec.manualSelector: Unsupported value: true: supported values: "nil", "false"',
    ]);
    expect(messages(cronJob({}, "a".repeat(53)))).toEqual([
      `metadata.name: Invalid value: "${"a".repeat(53)}": must be no more than 52 characters`,
    ]);
  });

  it("keeps a stored TZ= schedule updatable", () => {
    const old = cronJob({ schedule: "TZ=UTC 0 * * * *" });
    const now = cronJob({ schedule: "TZ=UTC 5 * * * *" });
    now.metadata.resourceVersion = old.metadata.resourceVersion = "1";
    expect(validateCronJobUpdate(now, old).map(fieldErrorString)).toEqual([]);
  });
});

describe("cron schedules: Next (robfig/cron/v3 spec_test.go TestNext)", () => {
  const at = (s: string) => Date.parse(s);
  const iso = (t: number | undefined) => (t === undefined ? undefined : new Date(t).toISOString());
  it.each<[string, string, string, string | undefined]>([
    ["*/15 * * * *", "UTC", "2026-07-09T14:45:00Z", "2026-07-09T15:00:00.000Z"],
    ["0 0 1 1 *", "UTC", "2026-07-09T14:45:00Z", "2027-01-01T00:00:00.000Z"],
    ["30 9 * * mon-fri", "UTC", "2026-07-10T10:00:00Z", "2026-07-13T09:30:00.000Z"],
    // Either day matches when neither day field is a star.
    ["0 0 13 * 5", "UTC", "2026-02-01T00:00:00Z", "2026-02-06T00:00:00.000Z"],
    ["0 9 * * *", "Asia/Tokyo", "2026-07-09T00:00:00Z", "2026-07-09T00:00:00.000Z".replace("00:00:00", "00:00:00")],
    ["@hourly", "UTC", "2026-07-09T14:45:10Z", "2026-07-09T15:00:00.000Z"],
    ["@every 90s", "UTC", "2026-07-09T14:45:10.500Z", "2026-07-09T14:46:40.000Z"],
    ["0 0 30 2 *", "UTC", "2026-01-01T00:00:00Z", undefined],
  ])("%s in %s after %s", (spec, zone, after, want) => {
    const got = iso(nextTime(parseStandard(spec), at(after), zone));
    // 09:00 in Tokyo (UTC+9) is 00:00 UTC: the first one after 00:00 UTC is the next day's.
    expect(got).toBe(spec === "0 9 * * *" ? "2026-07-10T00:00:00.000Z" : want);
  });
});
