/**
 * Job status validation (pkg/apis/batch/validation/validation.go validateJobStatus,
 * ValidateJobStatusUpdate) with the options pkg/registry/batch/job/strategy.go
 * `getStatusValidationOptions` sets when JobManagedBy is on (beta, on in 1.33): a rule runs when
 * the fields it reads change, so a Job already off the rules can still be updated.
 */
import { field, omitValue, path, type FieldErrorList } from "../../errors/index.ts";
import { validateNonnegativeField } from "../../apps/v1/validation.ts";
import { semanticEqual } from "../../meta/v1/validation/immutable.ts";
import { validateObjectMetaUpdate } from "../../meta/v1/validation/object-meta.ts";
import { indexedCompletion } from "./defaults.ts";
import type { Job, JobCondition } from "./types.ts";

/** Whether `conds` hold condition `type` with status True (`IsConditionTrue`). */
export function isConditionTrue(conds: readonly JobCondition[] | undefined, type: string): boolean {
  return (conds ?? []).some((c) => c.type === type && c.status === "True");
}

/** `IsJobFinished`: Complete or Failed is True. */
export function isJobFinished(job: Job): boolean {
  return isConditionTrue(job.status?.conditions, "Complete") || isConditionTrue(job.status?.conditions, "Failed");
}

const conditionsPath = "status.conditions";
const bad = (msg: string) => field.invalid(conditionsPath, omitValue, msg);

function validateUncounted(job: Job): FieldErrorList {
  const u = job.status?.uncountedTerminatedPods;
  if (u === undefined) return [];
  const errs: FieldErrorList = [];
  const seen = new Set<string>();
  for (const [list, uids] of [["succeeded", u.succeeded ?? []] as const, ["failed", u.failed ?? []] as const])
    uids.forEach((k, i) => {
      const p = path("status.uncountedTerminatedPods", list, i);
      if (k === "") errs.push(field.invalid(p, k, "must not be empty"));
      else if (seen.has(k)) errs.push(field.duplicate(p, k));
      else seen.add(k);
    });
  return errs;
}

/** `validateJobStatus` with the 1.33 options for an update from `old`. */
function validateJobStatus(job: Job, old: Job): FieldErrorList {
  const s = job.status ?? {};
  const o = old.status ?? {};
  const conds = s.conditions;
  const errs: FieldErrorList = [];
  for (const f of ["active", "succeeded", "failed"] as const) errs.push(...validateNonnegativeField(s[f] ?? 0, path("status", f)));
  for (const f of ["ready", "terminating"] as const)
    if (s[f] !== undefined) errs.push(...validateNonnegativeField(s[f], path("status", f)));
  errs.push(...validateUncounted(job));
  const complete = isConditionTrue(conds, "Complete");
  const failed = isConditionTrue(conds, "Failed");
  const target = isConditionTrue(conds, "FailureTarget");
  const met = isConditionTrue(conds, "SuccessCriteriaMet");
  const finished = complete || failed;
  const changed = {
    finished: isJobFinished(old) !== finished,
    complete: isConditionTrue(o.conditions, "Complete") !== complete,
    failed: isConditionTrue(o.conditions, "Failed") !== failed,
    target: isConditionTrue(o.conditions, "FailureTarget") !== target,
    met: isConditionTrue(o.conditions, "SuccessCriteriaMet") !== met,
    active: (o.active ?? 0) !== (s.active ?? 0),
    startTime: o.startTime !== s.startTime,
    completionTime: o.completionTime !== s.completionTime,
    uncounted: !semanticEqual(o.uncountedTerminatedPods, s.uncountedTerminatedPods),
  };
  if ((changed.complete || changed.failed) && complete && failed) errs.push(bad("cannot set Complete=True and Failed=true conditions"));
  if ((changed.complete || changed.target) && complete && target)
    errs.push(bad("cannot set Complete=True and FailureTarget=true conditions"));
  if ((changed.complete || changed.completionTime) && s.completionTime !== undefined && !complete)
    errs.push(
      field.invalid("status.completionTime", s.completionTime, "cannot set completionTime when there is no Complete=True condition"),
    );
  if ((changed.complete || changed.completionTime) && s.completionTime === undefined && complete)
    errs.push(field.required("status.completionTime", "completionTime is required for Complete jobs"));
  if (
    (changed.startTime || changed.completionTime) &&
    s.startTime !== undefined &&
    s.completionTime !== undefined &&
    Date.parse(s.completionTime) < Date.parse(s.startTime)
  )
    errs.push(field.invalid("status.completionTime", s.completionTime, "completionTime cannot be set before startTime"));
  if ((changed.failed || changed.target) && failed && !target)
    errs.push(bad("cannot set Failed=True condition without the FailureTarget=true condition"));
  if ((changed.complete || changed.met) && complete && !met)
    errs.push(bad("cannot set Complete=True condition without the SuccessCriteriaMet=true condition"));
  if ((changed.finished || changed.active) && (s.active ?? 0) > 0 && finished)
    errs.push(field.invalid("status.active", s.active, "active>0 is invalid for finished job"));
  if ((changed.finished || changed.startTime) && s.startTime === undefined && finished)
    errs.push(field.required("status.startTime", "startTime is required for finished job"));
  const uncounted = (s.uncountedTerminatedPods?.failed?.length ?? 0) + (s.uncountedTerminatedPods?.succeeded?.length ?? 0);
  if ((changed.finished || changed.uncounted) && finished && uncounted > 0)
    errs.push(field.invalid("status.uncountedTerminatedPods", omitValue, "uncountedTerminatedPods needs to be empty for finished job"));
  if (
    (s.completedIndexes ?? "") !== (o.completedIndexes ?? "") &&
    (s.completedIndexes ?? "") !== "" &&
    job.spec.completionMode !== indexedCompletion
  )
    errs.push(
      field.invalid(
        "status.completedIndexes",
        s.completedIndexes,
        "cannot set non-empty completedIndexes when non-indexed completion mode",
      ),
    );
  if ((changed.active || (s.ready ?? 0) !== (o.ready ?? 0)) && (s.ready ?? 0) > (s.active ?? 0))
    errs.push(field.invalid("status.ready", s.ready, "cannot set more ready pods than active"));
  if ((changed.finished || (s.terminating ?? 0) !== (o.terminating ?? 0)) && (s.terminating ?? 0) > 0 && finished)
    errs.push(field.invalid("status.terminating", s.terminating, "terminating>0 is invalid for finished job"));
  if (met && failed) errs.push(bad("cannot set SuccessCriteriaMet=True and Failed=true conditions"));
  if (met && target) errs.push(bad("cannot set SuccessCriteriaMet=True and FailureTarget=true conditions"));
  if (job.spec.successPolicy !== undefined && !met && complete)
    errs.push(bad("cannot set Complete=True for Job with SuccessPolicy unless SuccessCriteriaMet=True"));
  return errs;
}

/** `ValidateJobUpdateStatus` (ValidateJobStatusUpdate with the 1.33 options). */
export function validateJobUpdateStatus(job: Job, old: Job): FieldErrorList {
  const errs = [...validateObjectMetaUpdate(job.metadata, old.metadata), ...validateJobStatus(job, old)];
  const s = job.status ?? {};
  const o = old.status ?? {};
  for (const type of ["Failed", "Complete", "FailureTarget"])
    if (isConditionTrue(o.conditions, type) && !isConditionTrue(s.conditions, type))
      errs.push(bad(`cannot disable the terminal ${type}=True condition`));
  if ((s.failed ?? 0) < (o.failed ?? 0)) errs.push(field.invalid("status.failed", s.failed ?? 0, "cannot decrease the failed counter"));
  const elastic = job.spec.completionMode === indexedCompletion && job.spec.completions === job.spec.parallelism;
  if (!elastic && (s.succeeded ?? 0) < (o.succeeded ?? 0))
    errs.push(field.invalid("status.succeeded", s.succeeded ?? 0, "cannot decrease the succeeded counter"));
  if (s.completionTime !== undefined && o.completionTime !== undefined && s.completionTime !== o.completionTime)
    errs.push(field.invalid("status.completionTime", s.completionTime, "completionTime cannot be mutated"));
  if (o.startTime !== undefined && o.startTime !== s.startTime && job.spec.suspend !== true)
    errs.push(field.required("status.startTime", "startTime cannot be removed for unsuspended job"));
  if (isConditionTrue(o.conditions, "SuccessCriteriaMet") && !isConditionTrue(s.conditions, "SuccessCriteriaMet"))
    errs.push(bad("cannot disable the SuccessCriteriaMet=True condition"));
  return errs;
}
