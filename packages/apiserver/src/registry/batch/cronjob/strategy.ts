/**
 * batch/v1 CronJob REST strategy (pkg/registry/batch/cronjob/strategy.go): generation on spec
 * changes, the status subresource (spec kept, no status validation), create and update validation
 * (the 52-character name limit on create only), DeleteDependents for batch/v1.
 */
import { setDefaultsCronJob, validateCronJobCreate, validateCronJobUpdate, type CronJob } from "@servicenet/api/batch/v1";
import { specAndStatusStrategy } from "../../generic/spec-status-strategy.ts";

export const cronJobStrategy = specAndStatusStrategy<CronJob>({
  group: "batch",
  kind: "CronJob",
  namespaced: true,
  defaults: (o) => {
    setDefaultsCronJob(o);
  },
  validate: validateCronJobCreate,
  validateUpdate: validateCronJobUpdate,
  prepareForStatusUpdate: (o, old) => {
    o.spec = structuredClone(old.spec);
  },
  // cronJobStatusStrategy.ValidateUpdate validates nothing.
  validateStatusUpdate: () => [],
});
