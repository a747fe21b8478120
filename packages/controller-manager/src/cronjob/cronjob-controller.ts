/**
 * The CronJob controller (pkg/controller/cronjob/cronjob_controllerv2.go): per CronJob, folds its
 * Jobs into `status.active` and `lastSuccessfulTime`, removes finished Jobs past the history
 * limits, and at each schedule time (in spec.timeZone, else the controller's zone) creates the
 * Job `<cronjob>-<minutes>` unless it is too late (startingDeadlineSeconds) or the policy says
 * otherwise (Forbid: skip while one runs; Replace: delete the running ones first). It comes back
 * just after the next schedule time, on the injected clock.
 */
import { CronParseError, isKnownTimeZone, parseStandard, semanticEqual, type CronJob, type Job, type Schedule } from "@servicenet/api";
import { realClock, type Clock } from "@servicenet/component-base/clock";
import { noopLogger, type Logger } from "@servicenet/component-base/logs";
import { metaNamespaceKey, type IndexInformer } from "@servicenet/client/tools/cache";
import { getReference, type EventRecorder } from "@servicenet/client/tools/record";
import { RateLimitingQueue } from "@servicenet/client/util/workqueue";
import { isAlreadyExists, isNotFound } from "@servicenet/client/errors";
import { Controller } from "../framework/controller.ts";
import { getControllerOf } from "../controller/controller-ref-manager.ts";
import type { CronJobClient } from "./cronjob-client.ts";
import {
  finishedType,
  finishTime,
  jobFromTemplate,
  jobNameFor,
  jobRef,
  mostRecentScheduleTime,
  nextScheduleAfterMs,
  tooManyMissed,
} from "./utils.ts";

export interface CronJobControllerDeps {
  cronJobs: IndexInformer<CronJob>;
  jobs: IndexInformer<Job>;
  client: CronJobClient;
  recorder: EventRecorder;
  queue?: RateLimitingQueue<string>;
  clock?: Clock;
  /** The zone of CronJobs without spec.timeZone (kube-controller-manager's local zone); default UTC. */
  localZone?: string;
  logger?: Logger;
}

const rfc3339 = (t: number) => new Date(t).toISOString().replace(/\.\d{3}Z$/, "Z");

export class CronJobController {
  readonly queue: RateLimitingQueue<string>;
  readonly #d: CronJobControllerDeps;
  readonly #clock: Clock;
  readonly #runner: Controller;

  constructor(deps: CronJobControllerDeps) {
    this.#d = deps;
    this.#clock = deps.clock ?? realClock;
    this.queue = deps.queue ?? new RateLimitingQueue<string>("cronjob", this.#clock);
    deps.cronJobs.addEventHandler({
      onAdd: (cj) => this.queue.add(metaNamespaceKey(cj)),
      onUpdate: (_o, cj) => this.queue.add(metaNamespaceKey(cj)),
      onDelete: (cj) => this.queue.add(metaNamespaceKey(cj)),
    });
    const ownerOf = (j: Job) => {
      const ref = getControllerOf(j);
      if (ref?.kind === "CronJob") this.queue.add(`${j.metadata.namespace ?? ""}/${ref.name}`);
    };
    deps.jobs.addEventHandler({ onAdd: ownerOf, onUpdate: (_o, j) => ownerOf(j), onDelete: ownerOf });
    this.#runner = new Controller({
      name: "cronjob",
      queue: this.queue,
      sync: (k) => this.sync(k),
      informers: [deps.jobs, deps.cronJobs],
      maxRetries: Number.POSITIVE_INFINITY,
      logger: deps.logger ?? noopLogger,
    });
  }

  /** `Run`: waits for the caches, then `workers` workers (--concurrent-cron-job-syncs). */
  run(signal: AbortSignal, workers: number): Promise<void> {
    return this.#runner.run(signal, workers);
  }

  /** Syncs the next queued key (a worker's step); false once the queue is shut down. */
  processNextWorkItem(): Promise<boolean> {
    return this.#runner.processNextWorkItem();
  }

  #event(cj: CronJob, type: "Normal" | "Warning", reason: string, message: string): void {
    this.#d.recorder.event(getReference(cj, "CronJob", "batch/v1"), type, reason, message);
  }

  /** `sync`: the CronJob's Jobs, then `syncCronJob`, then the history clean-up and the status write. */
  async sync(key: string): Promise<void> {
    const cj = this.#d.cronJobs.get(key);
    if (cj === undefined) return;
    const jobs = this.#d.jobs
      .list()
      .filter((j) => j.metadata.namespace === cj.metadata.namespace && getControllerOf(j)?.uid === cj.metadata.uid);
    const fresh = await this.#freshIfBehind(cj, jobs);
    const status = structuredClone(fresh.status ?? {});
    const requeue = await this.#syncCronJob(fresh, status, jobs);
    await this.#cleanupFinishedJobs(cj, jobs);
    if (!semanticEqual(status, fresh.status ?? {})) await this.#d.client.updateStatus({ ...fresh, status });
    if (requeue !== undefined) this.queue.addAfter(key, requeue);
  }

  /**
   * syncCronJob's first loop: an unfinished child missing from `status.active` makes it read the
   * CronJob again (the informer may not have the status this controller wrote yet) and use that
   * copy when it lists the Job.
   */
  async #freshIfBehind(cj: CronJob, jobs: readonly Job[]): Promise<CronJob> {
    for (const j of jobs) {
      const listed = (c: CronJob) => (c.status?.active ?? []).some((r) => r.uid === j.metadata.uid);
      if (listed(cj) || finishedType(j) !== undefined) continue;
      const copy = await this.#d.client.getCronJob(cj.metadata.namespace ?? "", cj.metadata.name ?? "");
      if (listed(copy)) cj = copy;
    }
    return cj;
  }

  /** `syncCronJob`: updates `status` in place and returns when to look again. */
  async #syncCronJob(cj: CronJob, status: NonNullable<CronJob["status"]>, jobs: readonly Job[]): Promise<number | undefined> {
    const now = this.#clock.now();
    const byUid = new Map(jobs.map((j) => [j.metadata.uid ?? "", j]));
    // Running children join status.active; finished ones leave it.
    for (const j of jobs) {
      const inActive = (status.active ?? []).some((r) => r.uid === j.metadata.uid);
      const finished = finishedType(j);
      // Not adopted: upstream only warns (a Job made with `kubectl create job --from=cronjob/x`, or
      // one created just before a crash, stays out of status.active).
      if (!inActive && finished === undefined)
        this.#event(cj, "Warning", "UnexpectedJob", `Saw a job that the controller did not create or forgot: ${j.metadata.name ?? ""}`);
      else if (inActive && finished !== undefined) {
        status.active = (status.active ?? []).filter((r) => r.uid !== j.metadata.uid);
        this.#event(cj, "Normal", "SawCompletedJob", `Saw completed job: ${j.metadata.name ?? ""}, status: ${finished}`);
      }
      if (finished === "Complete") {
        const t = finishTime(j);
        if (status.lastSuccessfulTime === undefined || Date.parse(status.lastSuccessfulTime) < t) status.lastSuccessfulTime = rfc3339(t);
      }
    }
    // Active entries whose Job is gone.
    for (const r of status.active ?? [])
      if (!byUid.has(r.uid ?? "")) {
        status.active = (status.active ?? []).filter((x) => x.uid !== r.uid);
        this.#event(cj, "Normal", "MissingJob", `Active job went missing: ${r.name ?? ""}`);
      }
    if (status.active !== undefined && status.active.length === 0) delete status.active;
    if (cj.metadata.deletionTimestamp) return undefined;
    const zone = cj.spec.timeZone ?? this.#d.localZone ?? "UTC";
    if (cj.spec.timeZone !== undefined && !isKnownTimeZone(cj.spec.timeZone)) {
      this.#event(
        cj,
        "Warning",
        "UnknownTimeZone",
        `invalid timeZone: ${JSON.stringify(cj.spec.timeZone)}: unknown time zone ${cj.spec.timeZone}`,
      );
      return undefined;
    }
    if (cj.spec.suspend === true) return undefined;
    let schedule: Schedule;
    try {
      schedule = parseStandard(cj.spec.schedule);
    } catch (e) {
      if (!(e instanceof CronParseError)) throw e;
      this.#event(cj, "Warning", "UnparseableSchedule", `unparseable schedule: ${JSON.stringify(cj.spec.schedule)} : ${e.message}`);
      return undefined;
    }
    const next = () => nextScheduleAfterMs({ ...cj, status }, now, schedule, zone);
    const { time: scheduled, missed } = mostRecentScheduleTime({ ...cj, status }, now, schedule, zone, true);
    if (missed > tooManyMissed)
      this.#event(
        cj,
        "Warning",
        "TooManyMissedTimes",
        "too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew",
      );
    if (scheduled === undefined) return next();
    const deadline = cj.spec.startingDeadlineSeconds;
    if (deadline !== undefined && scheduled + deadline * 1000 < now) {
      this.#event(cj, "Warning", "MissSchedule", `Missed scheduled time to start a job: ${new Date(scheduled).toUTCString()}`);
      return next();
    }
    const name = jobNameFor(cj, scheduled);
    if (
      (status.active ?? []).some((r) => r.name === name) ||
      (status.lastScheduleTime !== undefined && Date.parse(status.lastScheduleTime) === scheduled)
    )
      return next();
    if (cj.spec.concurrencyPolicy === "Forbid" && (status.active ?? []).length > 0) {
      this.#event(cj, "Normal", "JobAlreadyActive", "Not starting job because prior execution is running and concurrency policy is Forbid");
      return next();
    }
    if (cj.spec.concurrencyPolicy === "Replace")
      for (const r of [...(status.active ?? [])]) {
        await this.#deleteJob(cj, r.name ?? "");
        status.active = (status.active ?? []).filter((x) => x.uid !== r.uid);
      }
    let created: Job;
    try {
      created = await this.#d.client.createJob(cj.metadata.namespace ?? "", jobFromTemplate(cj, scheduled, zone));
      this.#event(cj, "Normal", "SuccessfulCreate", `Created job ${created.metadata.name ?? ""}`);
    } catch (err) {
      if (!isAlreadyExists(err)) {
        this.#event(cj, "Warning", "FailedCreate", `Error creating job: ${(err as Error).message}`);
        throw err;
      }
      // Created by an earlier sync whose status write was lost: it is this schedule's Job.
      const existing = jobs.find((j) => j.metadata.name === name);
      if (existing === undefined) return next();
      created = existing;
    }
    if (finishedType(created) === undefined && !(status.active ?? []).some((r) => r.uid === created.metadata.uid))
      (status.active ??= []).push(jobRef(created));
    status.lastScheduleTime = rfc3339(scheduled);
    return next();
  }

  async #deleteJob(cj: CronJob, name: string): Promise<void> {
    try {
      await this.#d.client.deleteJob(cj.metadata.namespace ?? "", name);
      this.#event(cj, "Normal", "SuccessfulDelete", `Deleted job ${name}`);
    } catch (err) {
      if (isNotFound(err)) return;
      this.#event(cj, "Warning", "FailedDelete", `Deleted job: ${(err as Error).message}`);
      throw err;
    }
  }

  /** `cleanupFinishedJobs`: the oldest finished Jobs past successfulJobsHistoryLimit and failedJobsHistoryLimit go. */
  async #cleanupFinishedJobs(cj: CronJob, jobs: readonly Job[]): Promise<void> {
    const limits = { Complete: cj.spec.successfulJobsHistoryLimit, Failed: cj.spec.failedJobsHistoryLimit };
    for (const type of ["Complete", "Failed"] as const) {
      const limit = limits[type];
      if (limit === undefined) continue;
      const finished = jobs.filter((j) => finishedType(j) === type && !j.metadata.deletionTimestamp);
      if (finished.length <= limit) continue;
      const oldestFirst = [...finished].sort((a, b) => (a.status?.startTime ?? "").localeCompare(b.status?.startTime ?? ""));
      for (const j of oldestFirst.slice(0, finished.length - limit)) await this.#deleteJob(cj, j.metadata.name ?? "");
    }
  }
}
