/**
 * CronJob validation (pkg/apis/batch/validation/validation.go ValidateCronJobCreate,
 * ValidateCronJobUpdate, validateCronJobSpec, validateScheduleFormat, validateTimeZone,
 * ValidateJobTemplateSpec), with upstream's messages; schedules parse as robfig/cron's
 * `ParseStandard` does.
 */
import { field, path, type FieldErrorList } from "../../errors/index.ts";
import { goLabelSelector } from "../../apps/v1/go-values.ts";
import { validateNonnegativeField } from "../../apps/v1/validation.ts";
import { validateObjectMeta, validateObjectMetaUpdate } from "../../meta/v1/validation/object-meta.ts";
import { CronParseError, isKnownTimeZone, parseStandard } from "./cron-schedule.ts";
import { allowConcurrent, forbidConcurrent, replaceConcurrent } from "./defaults.ts";
import type { CronJob, CronJobSpec, JobTemplateSpec } from "./types.ts";
import { validateJobSpecFields } from "./validation.ts";

/** `validateScheduleFormat`: a standard schedule; `TZ=` only where the stored one had it. */
export function validateScheduleFormat(
  schedule: string,
  allowTZInSchedule: boolean,
  timeZone: string | undefined,
  fldPath: string,
): FieldErrorList {
  const errs: FieldErrorList = [];
  try {
    parseStandard(schedule);
  } catch (e) {
    if (!(e instanceof CronParseError)) throw e;
    errs.push(field.invalid(fldPath, schedule, e.message));
  }
  if (allowTZInSchedule && schedule.includes("TZ") && timeZone !== undefined)
    errs.push(field.invalid(fldPath, schedule, "cannot use both timeZone field and TZ or CRON_TZ in schedule"));
  else if (!allowTZInSchedule && schedule.includes("TZ"))
    errs.push(field.invalid(fldPath, schedule, "cannot use TZ or CRON_TZ in schedule, use timeZone field instead"));
  return errs;
}

// https://data.iana.org/time-zones/theory.html#naming, with 0-9 and + for legacy names.
const validTimeZoneCharacters = /^[A-Za-z.\-_0-9+]{1,14}$/;

/** `validateTimeZone`. */
export function validateTimeZone(timeZone: string | undefined, fldPath: string): FieldErrorList {
  if (timeZone === undefined) return [];
  if (timeZone.length === 0) return [field.invalid(fldPath, timeZone, "timeZone must be nil or non-empty string")];
  for (const part of timeZone.split("/"))
    if (part === "." || part === ".." || part.startsWith("-") || !validTimeZoneCharacters.test(part))
      return [field.invalid(fldPath, timeZone, `unknown time zone ${timeZone}`)];
  const errs: FieldErrorList = [];
  if (timeZone.toLowerCase() === "local")
    errs.push(field.invalid(fldPath, timeZone, "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones"));
  // time.LoadLocation("Local") succeeds in Go; any other name must be in the zone database.
  else if (!isKnownTimeZone(timeZone)) errs.push(field.invalid(fldPath, timeZone, `unknown time zone ${timeZone}`));
  return errs;
}

/** `validateConcurrencyPolicy`. */
function validateConcurrencyPolicy(policy: string | undefined, fldPath: string): FieldErrorList {
  const p = policy ?? "";
  if (p === allowConcurrent || p === forbidConcurrent || p === replaceConcurrent) return [];
  if (p === "") return [field.required(fldPath)];
  return [field.notSupported(fldPath, p, [allowConcurrent, forbidConcurrent, replaceConcurrent])];
}

/** `ValidateJobTemplateSpec`: the JobSpec checks; the selector is the Job registry's to generate. */
export function validateJobTemplateSpec(t: JobTemplateSpec, fldPath: string): FieldErrorList {
  const errs = validateJobSpecFields(t.spec, path(fldPath, "spec"));
  if (t.spec.selector !== undefined)
    errs.push(field.invalid(path(fldPath, "spec", "selector"), goLabelSelector(t.spec.selector), "`selector` will be auto-generated"));
  if (t.spec.manualSelector === true) errs.push(field.notSupported(path(fldPath, "spec", "manualSelector"), true, ["nil", "false"]));
  return errs;
}

/** `validateCronJobSpec`. */
function validateCronJobSpec(spec: CronJobSpec, old: CronJobSpec | undefined, fldPath: string): FieldErrorList {
  const errs: FieldErrorList = [];
  if (spec.schedule.length === 0) errs.push(field.required(path(fldPath, "schedule")));
  else errs.push(...validateScheduleFormat(spec.schedule, old?.schedule.includes("TZ") ?? false, spec.timeZone, path(fldPath, "schedule")));
  if (spec.startingDeadlineSeconds !== undefined)
    errs.push(...validateNonnegativeField(spec.startingDeadlineSeconds, path(fldPath, "startingDeadlineSeconds")));
  if (old === undefined || old.timeZone !== spec.timeZone) errs.push(...validateTimeZone(spec.timeZone, path(fldPath, "timeZone")));
  errs.push(...validateConcurrencyPolicy(spec.concurrencyPolicy, path(fldPath, "concurrencyPolicy")));
  errs.push(...validateJobTemplateSpec(spec.jobTemplate, path(fldPath, "jobTemplate")));
  for (const f of ["successfulJobsHistoryLimit", "failedJobsHistoryLimit"] as const) {
    const v = spec[f];
    if (v !== undefined) errs.push(...validateNonnegativeField(v, path(fldPath, f)));
  }
  return errs;
}

/** `ValidateCronJobCreate`: also a name of at most 52 characters (the controller adds `-<minutes>`). */
export function validateCronJobCreate(cj: CronJob): FieldErrorList {
  const errs = [...validateObjectMeta(cj.metadata, { namespaced: true }), ...validateCronJobSpec(cj.spec, undefined, "spec")];
  if ((cj.metadata.name ?? "").length > 63 - 11)
    errs.push(field.invalid("metadata.name", cj.metadata.name, "must be no more than 52 characters"));
  return errs;
}

/** `ValidateCronJobUpdate`: no name length check, so older long names stay updatable. */
export function validateCronJobUpdate(cj: CronJob, old: CronJob): FieldErrorList {
  return [...validateObjectMetaUpdate(cj.metadata, old.metadata), ...validateCronJobSpec(cj.spec, old.spec, "spec")];
}
