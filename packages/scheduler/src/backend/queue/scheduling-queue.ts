/**
 * The scheduling queue (pkg/scheduler/backend/queue/scheduling_queue.go `PriorityQueue`, without
 * queueing hints): an activeQ of Pods to try, a backoffQ of Pods waiting out their backoff, and
 * the unschedulablePods that wait for a cluster event. Keyed by `namespace/name`.
 *
 * The activeQ is a work queue (one Pod processed at a time, an add while processing re-queues it
 * after `done`) ordered by the profile's QueueSort (default PrioritySort: higher `spec.priority`
 * first, then the earlier queue timestamp), over the scheduler's heap; its delayed adds are the
 * backoffQ: a Pod leaves it the moment its backoff expires rather than at upstream's next
 * once-a-second `flushBackoffQCompleted`.
 */
import { RateLimitingQueue } from "@servicenet/client/util/workqueue";
import { sleep, type Clock } from "@servicenet/component-base/clock";
import { Heap } from "../heap/heap.ts";
import { prioritySortLess, type LessFunc } from "../../framework/plugins/queuesort/priority-sort.ts";

/** `DefaultPodInitialBackoffDuration` and `DefaultPodMaxBackoffDuration` (1 s, 10 s). */
export const defaultPodInitialBackoffMs = 1000;
export const defaultPodMaxBackoffMs = 10_000;
/** `DefaultPodMaxInUnschedulablePodsDuration`: 5 min. */
export const defaultPodMaxInUnschedulablePodsDurationMs = 5 * 60_000;
/** How often `Run` calls `flushUnschedulablePodsLeftover`: 30 s. */
export const unschedulableFlushPeriodMs = 30_000;

export interface SchedulingQueueOptions {
  clock: Clock;
  podInitialBackoffMs?: number;
  podMaxBackoffMs?: number;
  podMaxInUnschedulablePodsDurationMs?: number;
  /** The QueueSort plugin's `Less` (NewPriorityQueue's lessFn); default PrioritySort's. */
  less?: LessFunc;
}

/** `QueuedPodInfo`: the Pod's priority, when it was queued or last failed, and how often it failed. */
interface QueuedPod {
  priority: number;
  timestamp: number;
  attempts: number;
}

/** A Pod popped for a scheduling cycle. */
export interface PoppedPod {
  key: string;
  /** The scheduling cycle that popped it, for `addUnschedulableIfNotPresent`. */
  cycle: number;
}

export class SchedulingQueue {
  readonly #clock: Clock;
  readonly #initialBackoff: number;
  readonly #maxBackoff: number;
  readonly #maxInUnschedulable: number;
  readonly #active: RateLimitingQueue<string>;
  readonly #pods = new Map<string, QueuedPod>();
  /** unschedulablePods: the Pods waiting for an event (their `QueuedPod` is in #pods). */
  readonly #unschedulable = new Set<string>();
  #schedulingCycle = 0;
  /** The cycle of the last move request: a Pod whose cycle started before it goes to backoff. */
  #moveRequestCycle = -1;

  constructor(o: SchedulingQueueOptions) {
    this.#clock = o.clock;
    this.#initialBackoff = o.podInitialBackoffMs ?? defaultPodInitialBackoffMs;
    this.#maxBackoff = o.podMaxBackoffMs ?? defaultPodMaxBackoffMs;
    this.#maxInUnschedulable = o.podMaxInUnschedulablePodsDurationMs ?? defaultPodMaxInUnschedulablePodsDurationMs;
    const activeQ = new Heap(o.less ?? prioritySortLess, (k) => this.#pods.get(k) ?? { priority: 0, timestamp: 0 });
    this.#active = new RateLimitingQueue<string>("scheduler", o.clock, undefined, undefined, activeQ);
  }

  /** `Add`: a new Pod to schedule (of `priority`, PodPriority) goes to the activeQ, stamped now. */
  add(key: string, priority = 0): void {
    this.#unschedulable.delete(key);
    const info = this.#pods.get(key);
    if (info === undefined) this.#pods.set(key, { priority, timestamp: this.#clock.now(), attempts: 0 });
    else info.priority = priority;
    this.#active.add(key);
  }

  /**
   * `Update` of a Pod whose spec or labels changed: one waiting as unschedulable may fit now (after
   * its backoff); one backing off stays there; any other goes to the activeQ.
   */
  update(key: string, priority = 0): void {
    // A Pod in no queue yet is added (upstream's Update falls through to an add).
    if (!this.#pods.has(key)) this.#pods.set(key, { priority, timestamp: this.#clock.now(), attempts: 0 });
    if (this.#unschedulable.has(key)) this.#requeue(key);
    else if (this.#backoffExpiry(key) <= this.#clock.now()) this.#active.add(key);
  }

  /** `Delete`: the Pod is gone or bound; forget it. */
  delete(key: string): void {
    this.#unschedulable.delete(key);
    this.#pods.delete(key);
  }

  /** `Pop`: waits for a Pod to schedule; starts a scheduling cycle. Undefined once shut down. */
  async pop(): Promise<PoppedPod | undefined> {
    const key = await this.#active.get();
    if (key === undefined) return undefined;
    return { key, cycle: ++this.#schedulingCycle };
  }

  /** `Done`: the scheduling cycle of `key` ended. */
  done(key: string): void {
    this.#active.done(key);
  }

  /**
   * `AddUnschedulableIfNotPresent`: a Pod that failed in scheduling cycle `cycle`. One rejected by
   * the filters waits in unschedulablePods, unless a move request came after its cycle started
   * (the event may have made it fit: backoffQ); one that failed for an error (`rejected` false)
   * goes to backoffQ (addUnschedulableWithoutQueueingHint).
   */
  addUnschedulableIfNotPresent(key: string, cycle: number, rejected: boolean): void {
    const info = this.#pods.get(key) ?? { priority: 0, timestamp: 0, attempts: 0 };
    info.attempts++;
    info.timestamp = this.#clock.now();
    this.#pods.set(key, info);
    if (this.#moveRequestCycle >= cycle || !rejected) this.#toBackoff(key);
    else this.#unschedulable.add(key);
  }

  /**
   * `MoveAllToActiveOrBackoffQueue`: after a cluster event every unschedulable Pod (but those
   * `except` refuses) goes to the backoffQ if still backing off, else to the activeQ.
   */
  moveAllToActiveOrBackoffQueue(except?: (key: string) => boolean): void {
    this.#movePods([...this.#unschedulable].filter((k) => except === undefined || !except(k)));
  }

  /** `flushUnschedulablePodsLeftover`: Pods unschedulable longer than 5 min are tried again. */
  flushUnschedulablePodsLeftover(): void {
    const now = this.#clock.now();
    const leftover = [...this.#unschedulable].filter((k) => now - (this.#pods.get(k)?.timestamp ?? now) > this.#maxInUnschedulable);
    if (leftover.length > 0) this.#movePods(leftover);
  }

  /** `Run`: the leftover flush every 30 s until `signal` aborts. */
  async run(signal: AbortSignal): Promise<void> {
    while (await sleep(this.#clock, unschedulableFlushPeriodMs, signal)) this.flushUnschedulablePodsLeftover();
  }

  /** `Close`. */
  shutDown(): void {
    this.#active.shutDown();
  }

  /** True while `key` waits in unschedulablePods. */
  isUnschedulable(key: string): boolean {
    return this.#unschedulable.has(key);
  }

  /** Pods in the activeQ (not in flight) and in unschedulablePods, as `PendingPods`' summary. */
  pending(): { active: number; unschedulable: number } {
    return { active: this.#active.len(), unschedulable: this.#unschedulable.size };
  }

  // movePodsToActiveOrBackoffQueue: every move request counts for the Pods in flight.
  #movePods(keys: string[]): void {
    for (const k of keys) this.#requeue(k);
    this.#moveRequestCycle = this.#schedulingCycle;
  }

  // requeuePodWithQueueingStrategy(queueAfterBackoff).
  #requeue(key: string): void {
    this.#unschedulable.delete(key);
    this.#toBackoff(key);
  }

  #toBackoff(key: string): void {
    this.#active.addAfter(key, this.#backoffExpiry(key) - this.#clock.now());
  }

  // backoffQueue.calculateBackoffDuration: initial * 2^(attempts-1), at most the max.
  #backoffExpiry(key: string): number {
    const info = this.#pods.get(key);
    if (info === undefined || info.attempts === 0) return 0;
    let d = this.#initialBackoff;
    for (let i = 1; i < info.attempts && d < this.#maxBackoff; i++) d = Math.min(2 * d, this.#maxBackoff);
    return info.timestamp + d;
  }
}
