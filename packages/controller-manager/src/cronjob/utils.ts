/**
 * The CronJob controller's helpers (pkg/controller/cronjob/utils.go): the most recent missed
 * schedule time, the next one, the Job made from the template (`getJobFromTemplate2`, named
 * `<cronjob>-<scheduled time in minutes>`), and which child Jobs finished.
 */
import {
  cronJobScheduledTimestampAnnotation,
  nextTime,
  type CronJob,
  type Job,
  type ObjectReference,
  type Schedule,
} from "@servicenet/api";

/** `nextScheduleDelta`: the controller wakes this long after a schedule time. */
export const nextScheduleDeltaMs = 100;

/** More missed times than this get a TooManyMissedTimes warning. */
export const tooManyMissed = 100;

/**
 * `mostRecentScheduleTime`: the latest schedule time in (earliest, now] and how many were missed,
 * where earliest is lastScheduleTime (else the creation time), moved up to now minus
 * startingDeadlineSeconds when that is later.
 */
export function mostRecentScheduleTime(
  cj: CronJob,
  now: number,
  schedule: Schedule,
  zone: string,
  includeStartingDeadlineSeconds: boolean,
): { time: number | undefined; missed: number } {
  let earliest = Date.parse(cj.status?.lastScheduleTime ?? cj.metadata.creationTimestamp ?? "");
  if (Number.isNaN(earliest)) earliest = now;
  const deadline = cj.spec.startingDeadlineSeconds;
  if (includeStartingDeadlineSeconds && deadline !== undefined) earliest = Math.max(earliest, now - deadline * 1000);
  let t = nextTime(schedule, earliest, zone);
  let last: number | undefined;
  let missed = 0;
  while (t !== undefined && t <= now) {
    last = t;
    missed++;
    t = nextTime(schedule, t, zone);
  }
  return { time: last, missed };
}

/** `nextScheduleTimeDuration`: how long until just after the next schedule time (undefined: never). */
export function nextScheduleAfterMs(cj: CronJob, now: number, schedule: Schedule, zone: string): number | undefined {
  const { time } = mostRecentScheduleTime(cj, now, schedule, zone, false);
  const next = nextTime(schedule, time ?? now, zone);
  if (next === undefined) return undefined;
  return Math.max(0, next - now) + nextScheduleDeltaMs;
}

/** `getTimeHashInMinutes`: the Unix time in minutes. */
export const timeHashInMinutes = (t: number): number => Math.floor(t / 60_000);

/** `getJobName`. */
export const jobNameFor = (cj: CronJob, scheduled: number): string => `${cj.metadata.name ?? ""}-${timeHashInMinutes(scheduled)}`;

/** RFC 3339 of `t` in `zone` (Go's `Time.In(loc).Format(time.RFC3339)`). */
export function rfc3339In(t: number, zone: string): string {
  if (zone === "UTC") return new Date(t).toISOString().replace(/\.\d{3}Z$/, "Z");
  const f = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    timeZoneName: "longOffset",
  });
  const p = Object.fromEntries(f.formatToParts(new Date(t)).map((x) => [x.type, x.value]));
  const offset = (p["timeZoneName"] ?? "GMT").replace("GMT", "") || "Z";
  return `${p["year"]}-${p["month"]}-${p["day"]}T${p["hour"]}:${p["minute"]}:${p["second"]}${offset}`;
}

/** `getJobFromTemplate2`: the template's labels, annotations and spec, the scheduled-time annotation and the controller reference. */
export function jobFromTemplate(cj: CronJob, scheduled: number, zone: string): Job {
  const t = cj.spec.jobTemplate;
  return {
    apiVersion: "batch/v1",
    kind: "Job",
    metadata: {
      name: jobNameFor(cj, scheduled),
      namespace: cj.metadata.namespace ?? "",
      labels: { ...t.metadata.labels },
      annotations: { ...t.metadata.annotations, [cronJobScheduledTimestampAnnotation]: rfc3339In(scheduled, zone) },
      ownerReferences: [
        {
          apiVersion: "batch/v1",
          kind: "CronJob",
          name: cj.metadata.name ?? "",
          uid: cj.metadata.uid ?? "",
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: structuredClone(t.spec),
  };
}

/** `getFinishedStatus`: the Complete or Failed condition type that is True, if any. */
export function finishedType(job: Job): "Complete" | "Failed" | undefined {
  for (const c of job.status?.conditions ?? []) if ((c.type === "Complete" || c.type === "Failed") && c.status === "True") return c.type;
  return undefined;
}

/** The time a finished Job finished: completionTime, else its condition's transition time. */
export function finishTime(job: Job): number {
  if (job.status?.completionTime) return Date.parse(job.status.completionTime);
  const c = (job.status?.conditions ?? []).find((x) => (x.type === "Complete" || x.type === "Failed") && x.status === "True");
  return Date.parse(c?.lastTransitionTime ?? job.metadata.creationTimestamp ?? "") || 0;
}

/** `getRef`: the status.active entry of a Job. */
export function jobRef(job: Job): ObjectReference {
  return {
    kind: "Job",
    namespace: job.metadata.namespace ?? "",
    name: job.metadata.name ?? "",
    uid: job.metadata.uid ?? "",
    apiVersion: "batch/v1",
    resourceVersion: job.metadata.resourceVersion ?? "",
  };
}
