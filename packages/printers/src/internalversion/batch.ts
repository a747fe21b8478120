/** The batch/v1 tables (pkg/printers/internalversion/printers.go printJob, printCronJob). */
import { labelSelectorString, type CronJob, type Job, type JobCondition, type Table } from "@servicenet/api";
import { humanDuration } from "../duration/duration.ts";
import { ageColumn, column, generateTable, nameColumn, type PrintOptions, type TableHandler } from "../tablegenerator.ts";
import { layoutContainerCells } from "./apps.ts";
import { parseTime, sinceMs, translateTimestampSince } from "./time.ts";

const containersDescription = "Names of each container in the template.";
const imagesDescription = "Images referenced by each container in the template.";
const jobSelectorDescription =
  "A label query over pods that should match the pod count. Normally, the system sets this field for you. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors";

const hasJobCondition = (conds: readonly JobCondition[] | undefined, type: string) =>
  (conds ?? []).some((c) => c.type === type && c.status === "True");

/** printJob's STATUS: a finished condition first, then Terminating, Suspended, FailureTarget, SuccessCriteriaMet. */
function jobStatus(job: Job): string {
  const conds = job.status?.conditions;
  if (hasJobCondition(conds, "Complete")) return "Complete";
  if (hasJobCondition(conds, "Failed")) return "Failed";
  if (job.metadata?.deletionTimestamp !== undefined) return "Terminating";
  if (hasJobCondition(conds, "Suspended")) return "Suspended";
  if (hasJobCondition(conds, "FailureTarget")) return "FailureTarget";
  if (hasJobCondition(conds, "SuccessCriteriaMet")) return "SuccessCriteriaMet";
  return "Running";
}

/** printJob's COMPLETIONS: `succeeded/completions`, or `succeeded/1 of parallelism` for a work queue. */
function jobCompletions(job: Job): string {
  const succeeded = job.status?.succeeded ?? 0;
  if (job.spec?.completions !== undefined) return `${succeeded}/${job.spec.completions}`;
  const parallelism = job.spec?.parallelism ?? 0;
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

/** printJob's DURATION: empty before it starts, then running time, then completion minus start. */
function jobDuration(job: Job, now: Date): string {
  const start = parseTime(job.status?.startTime);
  if (start === null) return "";
  const end = parseTime(job.status?.completionTime);
  return humanDuration(end === null ? sinceMs(now, start) : end.getTime() - start.getTime());
}

/** NAME STATUS COMPLETIONS DURATION AGE, wide: CONTAINERS IMAGES SELECTOR. */
export const jobHandler: TableHandler<Job> = {
  columnDefinitions: [
    nameColumn(),
    column("Status", "Status of the job."),
    column(
      "Completions",
      "The number of pods which reached phase Succeeded. The value increases monotonically for a given spec. However, it may decrease in reaction to scale down of elastic indexed jobs.",
    ),
    column("Duration", "Time required to complete the job."),
    ageColumn(),
    column("Containers", containersDescription, { priority: 1 }),
    column("Images", imagesDescription, { priority: 1 }),
    column("Selector", jobSelectorDescription, { priority: 1 }),
  ],
  printRow: (job, { wide, now }) => {
    const cells: unknown[] = [
      job.metadata?.name ?? "",
      jobStatus(job),
      jobCompletions(job),
      jobDuration(job, now),
      translateTimestampSince(job.metadata?.creationTimestamp, now),
    ];
    if (wide) cells.push(...layoutContainerCells(job.spec?.template?.spec?.containers ?? []), labelSelectorString(job.spec?.selector));
    return cells;
  },
};

/** The Table the apiserver returns for jobs. */
export function printJobTable(items: readonly Job[], opts: PrintOptions = {}): Table {
  return generateTable(jobHandler, items, opts);
}

/** printBoolPtr. */
const printBoolPtr = (v: boolean | undefined) => (v === undefined ? "<unset>" : v ? "True" : "False");

/** NAME SCHEDULE TIMEZONE SUSPEND ACTIVE LAST SCHEDULE AGE, wide: CONTAINERS IMAGES SELECTOR. */
export const cronJobHandler: TableHandler<CronJob> = {
  columnDefinitions: [
    nameColumn(),
    column("Schedule", "The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron."),
    column(
      "Timezone",
      "The time zone name for the given schedule, see https://en.wikipedia.org/wiki/List_of_tz_database_time_zones. If not specified, this will default to the time zone of the kube-controller-manager process. The set of valid time zone names and the time zone offset is loaded from the system-wide time zone database by the API server during CronJob validation and the controller manager during execution. If no system-wide time zone database can be found a bundled version of the database is used instead. If the time zone name becomes invalid during the lifetime of a CronJob or due to a change in host configuration, the controller will stop creating new new Jobs and will create a system event with the reason UnknownTimeZone. More information can be found in https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/#time-zones",
    ),
    column(
      "Suspend",
      "This flag tells the controller to suspend subsequent executions, it does not apply to already started executions. Defaults to false.",
      { type: "boolean" },
    ),
    column("Active", "A list of pointers to currently running jobs.", { type: "integer" }),
    column("Last Schedule", "Information when was the last time the job was successfully scheduled."),
    ageColumn(),
    column("Containers", containersDescription, { priority: 1 }),
    column("Images", imagesDescription, { priority: 1 }),
    column("Selector", jobSelectorDescription, { priority: 1 }),
  ],
  printRow: (cj, { wide, now }) => {
    const last = cj.status?.lastScheduleTime;
    const cells: unknown[] = [
      cj.metadata?.name ?? "",
      cj.spec?.schedule ?? "",
      cj.spec?.timeZone ?? "<none>",
      printBoolPtr(cj.spec?.suspend),
      (cj.status?.active ?? []).length,
      last === undefined ? "<none>" : translateTimestampSince(last, now),
      translateTimestampSince(cj.metadata?.creationTimestamp, now),
    ];
    if (wide) {
      const spec = cj.spec?.jobTemplate?.spec;
      cells.push(...layoutContainerCells(spec?.template?.spec?.containers ?? []), labelSelectorString(spec?.selector));
    }
    return cells;
  },
};

/** The Table the apiserver returns for cronjobs. */
export function printCronJobTable(items: readonly CronJob[], opts: PrintOptions = {}): Table {
  return generateTable(cronJobHandler, items, opts);
}
