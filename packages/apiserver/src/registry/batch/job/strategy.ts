/**
 * batch/v1 Job REST strategy (pkg/registry/batch/job/strategy.go): the generated selector and
 * Pod labels (`generateSelector`), generation on spec changes, the status subresource with the
 * 1.33 status rules, validation options from the stored Job (`validationOptionsForJob`), the
 * DNS-label warning, the `status.successful` field selector and OrphanDependents for batch/v1.
 */
import {
  controllerUidLabel,
  jobNameLabel,
  legacyControllerUidLabel,
  legacyJobNameLabel,
  setDefaultsJob,
  validateJob,
  validateJobUpdate,
  validateJobUpdateStatus,
  type Job,
  type JobValidationOptions,
} from "@servicenet/api/batch/v1";
import { isDNS1123Label } from "@servicenet/api";
import { specAndStatusStrategy } from "../../generic/spec-status-strategy.ts";
import type { RESTStrategy } from "../../generic/strategy.ts";

/** `generateSelector`: the job-name and controller-uid labels (legacy and prefixed) and a selector on the UID. */
export function generateSelector(job: Job): void {
  const labels = (job.spec.template.metadata.labels ??= {});
  const name = job.metadata.name ?? "";
  const uid = job.metadata.uid ?? "";
  // A label the user set is kept: a conflicting one fails validation.
  for (const k of [legacyJobNameLabel, jobNameLabel]) labels[k] ??= name;
  for (const k of [legacyControllerUidLabel, controllerUidLabel]) labels[k] ??= uid;
  const selector = (job.spec.selector ??= {});
  const matchLabels = (selector.matchLabels ??= {});
  matchLabels[controllerUidLabel] ??= uid;
}

/** `validationOptionsForJob` for an update: prefixed labels only when the stored Job has them. */
function updateOptions(old: Job): JobValidationOptions {
  const labels = old.spec.template.metadata.labels ?? {};
  return {
    requirePrefixedLabels: jobNameLabel in labels && controllerUidLabel in labels,
    allowMutableSchedulingDirectives: old.spec.suspend === true && old.status?.startTime === undefined,
  };
}

const base = specAndStatusStrategy<Job>({
  group: "batch",
  kind: "Job",
  namespaced: true,
  defaults: (o) => {
    setDefaultsJob(o);
  },
  validate: (o) => validateJob(o, { requirePrefixedLabels: true }),
  validateUpdate: (o, old) => {
    const opts = updateOptions(old);
    return [...validateJob(o, opts), ...validateJobUpdate(o, old, opts)];
  },
  // jobStatusStrategy.PrepareForUpdate: only the spec is the stored one's.
  prepareForStatusUpdate: (o, old) => {
    o.spec = structuredClone(old.spec);
  },
  validateStatusUpdate: validateJobUpdateStatus,
});

export const jobStrategy: RESTStrategy<Job> = {
  ...base,
  prepareForCreate: (o) => {
    if (o.spec.manualSelector !== true) generateSelector(o);
    base.prepareForCreate(o);
  },
  warningsOnCreate: (o) => {
    const msgs = isDNS1123Label(o.metadata.name ?? "");
    return msgs.length > 0
      ? [
          `metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [${msgs.join(" ")}]`,
        ]
      : [];
  },
  // batch/v1 keeps the old default: a Job's Pods are orphaned unless the client asks otherwise.
  defaultGarbageCollectionPolicy: "OrphanDependents",
  selectableFieldNames: ["status.successful"],
  selectableFields: (o) => ({ "status.successful": String(o.status?.succeeded ?? 0) }),
};
