/** @servicenet/scheduler: a kube-scheduler for servicenet, an API client of the apiserver over HTTP only. */
export { runScheduler, defaultSchedulerName, type RunOptions } from "./app/run.ts";
export { parseOptions, usage, UsageError, type Options } from "./app/options.ts";
export { Algorithm, numFeasibleNodesToFind, errNoNodesAvailable, type Profile, type ScheduleResult } from "./scheduler.ts";
export { SchedulerCache } from "./backend/cache/cache.ts";
export { fitErrorMessage } from "./framework/fit-error.ts";
export { defaultProfile, serviceSelector } from "./framework/plugins/registry.ts";
export type { Code, FilterPlugin, NodeInfo, ScorePlugin, Status } from "./framework/types.ts";
export { testEnvironmentScheduler, type TestEnvironmentStarter } from "./app/test-environment.ts";
