/**
 * The TTL-after-finished controller (pkg/controller/ttlafterfinished/ttlafterfinished_controller.go):
 * a finished Job with `spec.ttlSecondsAfterFinished` is deleted (foreground, UID precondition) that
 * long after its Complete or Failed condition's transition; until then it is looked at again when
 * it expires, on the injected clock. The Job is read afresh before the delete, as upstream does.
 */
import type { Job } from "@servicenet/api";
import { realClock, type Clock } from "@servicenet/component-base/clock";
import { noopLogger, V, type Logger } from "@servicenet/component-base/logs";
import { metaNamespaceKey, splitMetaNamespaceKey, type IndexInformer } from "@servicenet/client/tools/cache";
import { RateLimitingQueue } from "@servicenet/client/util/workqueue";
import { isNotFound } from "@servicenet/client/errors";
import { Controller } from "../framework/controller.ts";
import type { TTLJobClient } from "./ttl-job-client.ts";

export interface TTLAfterFinishedDeps {
  jobs: IndexInformer<Job>;
  client: TTLJobClient;
  queue?: RateLimitingQueue<string>;
  clock?: Clock;
  logger?: Logger;
}

/** `jobFinishTime`: the transition time of the True Complete or Failed condition. */
export function jobFinishTime(job: Job): number | undefined {
  const c = (job.status?.conditions ?? []).find((x) => (x.type === "Complete" || x.type === "Failed") && x.status === "True");
  if (c === undefined) return undefined;
  const t = Date.parse(c.lastTransitionTime ?? "");
  return Number.isNaN(t) ? undefined : t;
}

/** `needsCleanup`: a TTL, a finish, and not already being deleted. */
export function needsCleanup(job: Job): boolean {
  return job.spec.ttlSecondsAfterFinished !== undefined && jobFinishTime(job) !== undefined && !job.metadata.deletionTimestamp;
}

/** `timeLeft`: ms until the Job expires (<= 0: expired). */
export function timeLeftMs(job: Job, now: number): number | undefined {
  const finished = jobFinishTime(job);
  if (finished === undefined || job.spec.ttlSecondsAfterFinished === undefined) return undefined;
  return finished + job.spec.ttlSecondsAfterFinished * 1000 - now;
}

export class TTLAfterFinishedController {
  readonly queue: RateLimitingQueue<string>;
  readonly #d: TTLAfterFinishedDeps;
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #runner: Controller;

  constructor(deps: TTLAfterFinishedDeps) {
    this.#d = deps;
    this.#clock = deps.clock ?? realClock;
    this.#log = deps.logger ?? noopLogger;
    this.queue = deps.queue ?? new RateLimitingQueue<string>("ttl_jobs_to_delete", this.#clock);
    const enqueue = (j: Job) => {
      if (needsCleanup(j)) this.queue.add(metaNamespaceKey(j));
    };
    deps.jobs.addEventHandler({ onAdd: enqueue, onUpdate: (_o, j) => enqueue(j) });
    this.#runner = new Controller({
      name: "ttlafterfinished",
      queue: this.queue,
      sync: (k) => this.processJob(k),
      informers: [deps.jobs],
      maxRetries: Number.POSITIVE_INFINITY,
      logger: this.#log,
    });
  }

  /** `Run`: waits for the cache, then `workers` workers (--concurrent-ttl-after-finished-syncs). */
  run(signal: AbortSignal, workers: number): Promise<void> {
    return this.#runner.run(signal, workers);
  }

  /** `processJob`: deletes the Job once expired, else comes back when it expires. */
  async processJob(key: string): Promise<void> {
    const cached = this.#d.jobs.get(key);
    if (cached === undefined || !needsCleanup(cached)) return;
    const { namespace, name } = splitMetaNamespaceKey(key);
    const left = timeLeftMs(cached, this.#clock.now());
    if (left !== undefined && left > 0) {
      this.queue.addAfter(key, left);
      return;
    }
    // The cache may be stale (the TTL changed): check the live object before deleting.
    let fresh: Job;
    try {
      fresh = await this.#d.client.get(namespace ?? "", name);
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
    const freshLeft = timeLeftMs(fresh, this.#clock.now());
    if (!needsCleanup(fresh) || freshLeft === undefined) return;
    if (freshLeft > 0) {
      this.queue.addAfter(key, freshLeft);
      return;
    }
    V(this.#log, 4).info("Cleaning up Job", { job: key });
    try {
      await this.#d.client.delete(namespace ?? "", name, fresh.metadata.uid ?? "");
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}
