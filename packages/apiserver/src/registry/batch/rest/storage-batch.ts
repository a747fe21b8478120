/**
 * batch/v1 (pkg/registry/batch/rest/storage_batch.go): cronjobs (`cj`) and jobs, each with its
 * status subresource, in the `all` category, stored under upstream's keys.
 */
import { CronJobSchema, JobSchema } from "@servicenet/api/batch/v1";
import { cronJobHandler, jobHandler } from "@servicenet/printers";
import type { ResourceDef } from "../../../server/resource-def.ts";
import { cronJobStrategy } from "../cronjob/strategy.ts";
import { jobStrategy } from "../job/strategy.ts";

export const jobStoragePath = "jobs";
export const cronJobStoragePath = "cronjobs";

const common = {
  group: "batch",
  version: "v1",
  namespaced: true,
  categories: ["all"],
  verbs: ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"],
  subresources: ["status"],
} as const;

/** The group's resources, in discovery order (sorted, as the installer sorts its paths). */
export function batchV1(): ResourceDef[] {
  return [
    {
      ...common,
      resource: "cronjobs",
      kind: "CronJob",
      singular: "cronjob",
      shortNames: ["cj"],
      storagePath: cronJobStoragePath,
      strategy: cronJobStrategy,
      schema: CronJobSchema,
      printer: cronJobHandler,
    },
    {
      ...common,
      resource: "jobs",
      kind: "Job",
      singular: "job",
      shortNames: [],
      storagePath: jobStoragePath,
      strategy: jobStrategy,
      schema: JobSchema,
      printer: jobHandler,
    },
  ];
}
