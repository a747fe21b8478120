/** batch/v1: Job and CronJob, their defaulting and validation, and the cron schedule parser. */
export * from "./types.ts";
export * from "./defaults.ts";
export * from "./validation.ts";
export * from "./status-validation.ts";
export * from "./cronjob-validation.ts";
export * from "./cron-schedule.ts";
export * from "./cron-next.ts";
