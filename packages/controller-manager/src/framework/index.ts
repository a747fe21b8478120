/** Controller framework: clock, rate limiters, work queue, informers, controller runner, leader election. */
export { realClock, FakeClock } from "./clock.ts";
export type { Clock, TimerHandle } from "./clock.ts";
export { ItemExponentialFailureRateLimiter, BucketRateLimiter, MaxOfRateLimiter, defaultControllerRateLimiter } from "./rate-limiter.ts";
export type { RateLimiter } from "./rate-limiter.ts";
export { WorkQueue, RateLimitingQueue } from "./work-queue.ts";
export type { QueueItem, RateLimitingQueueOptions } from "./work-queue.ts";
export { SharedInformer } from "./informer.ts";
export type { EventHandlers, Informer, ObjectWithMeta, PlainList, SharedInformerOptions } from "./informer.ts";
export { MemoryInformer } from "./memory-informer.ts";
export { Controller, waitForCacheSync, defaultMaxRetries } from "./controller.ts";
export type { ControllerSpec } from "./controller.ts";
export { metaNamespaceKey, splitMetaNamespaceKey } from "./keys.ts";
export { noopLogger, jsonLogger } from "./logger.ts";
export type { Logger, LogFields } from "./logger.ts";
export { toPlain, httpStatusOf, isNotFound, isConflict, describeError } from "./plain.ts";
export { LeaderElector, decideLease, releasedRecord, defaultLeaderElection, sleep } from "./leader-election.ts";
export type { LeaseClient, LeaseRecord, ObservedLease, LeaseDecision, LeaseDecisionInput, LeaderElectorOptions } from "./leader-election.ts";
export { leaseLock, leaseToRecord, recordToLease } from "./lease-client.ts";
