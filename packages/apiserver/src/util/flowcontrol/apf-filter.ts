/**
 * The API Priority and Fairness dispatcher (staging/src/k8s.io/apiserver/pkg/util/flowcontrol/
 * apf_filter.go, Interface.Handle): classifies a request, estimates its work, and runs it when its
 * priority level's QueueSet dispatches it, or tells the caller it was rejected.
 */
import { realClock, type Clock } from "@servicenet/component-base/clock";
import type { FlowSchema, PriorityLevelConfiguration } from "@servicenet/api/flowcontrol/v1";
import { borrowingAdjustmentPeriodMs } from "./apf-borrowing.ts";
import { APFConfig, type Classification, type PriorityLevelState } from "./apf-controller.ts";
import { DroppedRequestsTracker } from "./dropped-requests-tracker.ts";
import type { DumpedRequest, RejectReason } from "./fairqueuing/queueset/types.ts";
import type { RequestDigest } from "./match.ts";
import { FlowMetricsCache, type FlowMetrics } from "./flow-metrics.ts";
import type { FlowControlMetrics } from "./metrics.ts";
import { estimateWork, type EstimatedRequest, type WorkEstimatorSources } from "./request/work-estimator.ts";
import { maxSeats, type WorkEstimate } from "./request/width.ts";

/** How to build the dispatcher. */
export interface FlowControlOptions {
  /** `--max-requests-inflight` + `--max-mutating-requests-inflight` (default 400 + 200). */
  serverConcurrencyLimit: number;
  /** The longest a request waits in a queue: a quarter of `--request-timeout` (getRequestWaitContext). */
  requestWaitLimitMs: number;
  metrics: FlowControlMetrics;
  /** Registers a function run before /metrics renders (MetricsRegistry.addCollector). */
  addCollector: (fn: () => void) => void;
  sources: WorkEstimatorSources;
  clock?: Clock;
}

/** What Handle tells the caller: served (with the handler's value) or rejected. */
export type HandleResult<T> = { served: true; value: T } | { served: false; reason: RejectReason };

/** The hooks of one request (noteFn and the execution function of upstream's Handle). */
export interface HandleHooks<T> {
  /** Called once classified, served or not (the response headers go here). */
  note(c: Classification, estimate: WorkEstimate): void;
  /**
   * Runs the request. `release` gives the seats back before the handler ends (a WATCH once it is
   * initialized); otherwise they are released when the returned promise settles.
   */
  exec(release: () => void): Promise<T>;
  signal?: AbortSignal;
}

/** The dispatcher (apf_filter.go's configController + Handle). */
export class FlowControl {
  readonly config: APFConfig;
  /** The Retry-After of rejected requests, per priority level (the filter's droppedRequests). */
  readonly droppedRequests: DroppedRequestsTracker;
  readonly #opts: FlowControlOptions;
  readonly #clock: Clock;
  readonly #flows: FlowMetricsCache;

  constructor(opts: FlowControlOptions) {
    this.#opts = opts;
    this.#flows = new FlowMetricsCache(opts.metrics, opts.addCollector);
    this.#clock = opts.clock ?? realClock;
    this.config = new APFConfig(opts.serverConcurrencyLimit, this.#clock);
    this.droppedRequests = new DroppedRequestsTracker(this.#clock);
    this.#publishLimits();
  }

  /** Applies the FlowSchemas and PriorityLevelConfigurations (all of them, defaulted). */
  update(flowSchemas: readonly FlowSchema[], priorityLevels: readonly PriorityLevelConfiguration[]): void {
    this.config.update(flowSchemas, priorityLevels);
    this.#publishLimits();
  }

  /** updateBorrowing: one adjustment of the current limits to the seat demand since the last one. */
  updateBorrowing(): void {
    const { fairFrac } = this.config.updateBorrowing();
    this.#publishLimits();
    this.#opts.metrics.seatFairFrac.set({}, fairFrac);
  }

  /**
   * Runs the periodic rebalancing (the config controller's `wait.Until(updateBorrowing,
   * borrowingAdjustmentPeriod)`) on the dispatcher's clock until the returned function is called.
   */
  runBorrowing(): () => void {
    let stopped = false;
    const tick = (): void => {
      if (stopped) return;
      this.updateBorrowing();
      handle = this.#clock.setTimeout(tick, borrowingAdjustmentPeriodMs);
    };
    let handle = this.#clock.setTimeout(tick, borrowingAdjustmentPeriodMs);
    return () => {
      stopped = true;
      this.#clock.clearTimeout(handle);
    };
  }

  #publishLimits(): void {
    const m = this.#opts.metrics;
    for (const pl of this.config.priorityLevels) {
      const labels = { priority_level: pl.name };
      m.nominalLimitSeats.set(labels, pl.nominalCL);
      m.lowerLimitSeats.set(labels, pl.minCL);
      m.upperLimitSeats.set(labels, pl.maxCL);
      m.currentLimitSeats.set(labels, pl.currentCL);
      const stats = pl.seatDemandStats;
      m.demandSeatsHighWatermark.set(labels, stats.highWatermark);
      m.demandSeatsAverage.set(labels, stats.avg);
      m.demandSeatsStdev.set(labels, stats.stdDev);
      m.demandSeatsSmoothed.set(labels, stats.smoothed);
      m.targetSeats.set(labels, pl.targetCL);
    }
  }

  /** Handle: classify, estimate, wait for a seat (or be rejected), execute. */
  async handle<T>(digest: RequestDigest, request: EstimatedRequest, hooks: HandleHooks<T>): Promise<HandleResult<T>> {
    const c = this.config.classify(digest);
    const pl = c.priorityLevel;
    const estimate = estimateWork(request, this.#opts.sources, pl.maxSeats);
    hooks.note(c, estimate);
    const f = this.#flows.of(c.flowSchema.metadata.name ?? "", pl.name);
    const seats = maxSeats(estimate);
    f.estimatedSeats.observe(seats);
    const descr = { flowSchema: f.labels.flow_schema, flowDistinguisher: c.flowDistinguisher, digest };
    if (pl.exempt || pl.queueSet === undefined) {
      const now = this.#clock.now();
      return this.#run(f, pl, estimate, 0, hooks, undefined, { descr, estimate, arrivedAt: now, startedAt: now });
    }
    f.inqueueRequests++;
    f.inqueueSeats += seats;
    const admission = await pl.queueSet.startRequest(c.flowHash, estimate, this.#opts.requestWaitLimitMs, hooks.signal, descr);
    f.inqueueRequests--;
    f.inqueueSeats -= seats;
    if (!admission.admitted) {
      this.#opts.metrics.rejected.inc({ ...f.labels, reason: admission.reason });
      f.waitRejected.observe(admission.waitedMs / 1000);
      return { served: false, reason: admission.reason };
    }
    return this.#run(f, pl, estimate, admission.waitedMs, hooks, () => admission.finish());
  }

  async #run<T>(
    f: FlowMetrics,
    pl: PriorityLevelState,
    estimate: WorkEstimate,
    waitedMs: number,
    hooks: HandleHooks<T>,
    finish: (() => void) | undefined,
    exempt?: DumpedRequest,
  ): Promise<HandleResult<T>> {
    f.dispatched.inc();
    f.waitExecuted.observe(waitedMs / 1000);
    const seats = estimate.initialSeats;
    f.executingRequests++;
    f.executingSeats += seats;
    if (exempt) {
      pl.exemptExecuting.requests.add(exempt);
      pl.exemptExecuting.dispatched++;
      pl.exemptExecuting.seats += seats;
      pl.seatDemand.set(pl.exemptExecuting.seats);
    }
    const started = this.#clock.now();
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      f.executingRequests--;
      f.executingSeats -= seats;
      f.execution.observe((this.#clock.now() - started) / 1000);
      if (exempt) {
        pl.exemptExecuting.requests.delete(exempt);
        pl.exemptExecuting.seats -= seats;
        pl.seatDemand.set(pl.exemptExecuting.seats);
      }
      finish?.();
    };
    try {
      return { served: true, value: await hooks.exec(release) };
    } finally {
      release();
    }
  }
}
