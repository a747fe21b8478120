/**
 * The fair queuing of one priority level (staging/src/k8s.io/apiserver/pkg/util/flowcontrol/
 * fairqueuing/queueset/queueset.go): shuffle sharding picks a flow's queue among `handSize`
 * candidates, a request is rejected when its queue is full while the level is saturated, and
 * dispatch follows virtual time (R, in seat-milliseconds): the queue whose oldest request would
 * finish first in the virtual world goes next, when enough seats are free for it.
 */
import type { Clock } from "@servicenet/component-base/clock";
import { Dealer } from "@servicenet/api/flowcontrol/v1";
import { maxSeats, type WorkEstimate } from "../../request/width.ts";
import { SeatAccounting, type QueueSetCounts, type SeatDemandGauge } from "./seat-accounting.ts";
import type { Admission, Queue, QueuedRequest, QueuingConfig, RejectReason, RequestDescr } from "./types.ts";

export type { QueueSetCounts, SeatDemandGauge } from "./seat-accounting.ts";

/** The service time every request is assumed to take (estimatedServiceDuration, 3 s). */
export const estimatedServiceDurationMs = 3000;

const maxCachedHands = 10_000;

/** Dump: the queues and the requests executing without one (the Reject limit response). */
export interface QueueSetDump {
  queues: readonly Queue[];
  queuelessExecuting: readonly QueuedRequest[];
}

/** A QueueSet: the queues of one Limited priority level with its concurrency limit in seats. */
export class QueueSet {
  readonly #clock: Clock;
  readonly #seats: SeatAccounting;
  #cfg: QueuingConfig;
  #dealer: Dealer | undefined;
  /** Each flow's hand, dealt once per configuration (the deal is bigint arithmetic). */
  readonly #hands = new Map<bigint, number[]>();
  #queues: Queue[] = [];
  #currentR = 0;
  #lastRealTime: number;
  #robinIndex = -1;
  #activeQueues = 0;
  readonly #queueless = new Set<QueuedRequest>();
  /** Counters the level's metrics read. */
  readonly counts: QueueSetCounts;

  constructor(cfg: QueuingConfig, concurrencyLimit: number, clock: Clock, seatDemand?: SeatDemandGauge) {
    this.#clock = clock;
    this.#seats = new SeatAccounting(concurrencyLimit, seatDemand);
    this.counts = this.#seats.counts;
    this.#lastRealTime = clock.now();
    this.#cfg = cfg;
    this.#configureQueues(cfg);
  }

  get concurrencyLimit(): number {
    return this.#seats.concurrencyLimit;
  }

  /** The current virtual time (for tests and the debug dump). */
  get currentR(): number {
    this.#syncTime();
    return this.#currentR;
  }

  /** Dump (for /debug/api_priority_and_fairness/): the live queues and queueless requests. */
  dump(): QueueSetDump {
    this.#syncTime();
    return { queues: this.#queues, queuelessExecuting: [...this.#queueless] };
  }

  /** Applies a new config and limit (BeginConfigChange/Complete); waiting requests stay queued. */
  reconfigure(cfg: QueuingConfig, concurrencyLimit: number): void {
    this.#syncTime();
    this.#cfg = cfg;
    this.#seats.concurrencyLimit = concurrencyLimit;
    if (cfg.queues !== this.#queues.length) this.#configureQueues(cfg);
    else this.#dealer = cfg.queues > 0 ? new Dealer(cfg.queues, cfg.handSize) : undefined;
    this.#hands.clear();
    this.#dispatchAsMuchAsPossible();
  }

  /** A new current concurrency limit (the borrowing adjustment's DispatchingConfig); more room dispatches at once. */
  setConcurrencyLimit(concurrencyLimit: number): void {
    if (concurrencyLimit === this.#seats.concurrencyLimit) return;
    this.#syncTime();
    this.#seats.concurrencyLimit = concurrencyLimit;
    this.#dispatchAsMuchAsPossible();
  }

  #configureQueues(cfg: QueuingConfig): void {
    // Existing queues keep their requests; new ones start empty (upstream keeps extra queues until they drain).
    const old = this.#queues;
    this.#queues = Array.from({ length: Math.max(cfg.queues, old.length) }, (_, i) => old[i] ?? newQueue(i));
    this.#dealer = cfg.queues > 0 ? new Dealer(cfg.queues, cfg.handSize) : undefined;
    this.#hands.clear();
  }

  /**
   * StartRequest: admits, queues or rejects a request of the flow `flowHash`. A queued request
   * waits at most `waitLimitMs` (then "time-out") or until `signal` aborts ("cancelled").
   */
  startRequest(
    flowHash: bigint,
    estimate: WorkEstimate,
    waitLimitMs: number,
    signal?: AbortSignal,
    descr?: RequestDescr,
  ): Promise<Admission> | Admission {
    this.#syncTime();
    const seats = maxSeats(estimate);
    const now = this.#clock.now();
    let decided: Admission | undefined;
    const req: QueuedRequest = {
      descr,
      estimate,
      totalWork: estimate.initialSeats * estimatedServiceDurationMs + estimate.finalSeats * estimate.additionalLatencyMs,
      arrivalR: this.#currentR,
      arrivedAt: now,
      startedAt: 0,
      queue: undefined,
      decide: (a) => (decided = a),
    };
    if (this.#dealer === undefined) {
      // The Reject limit response: run now or never (dispatchSansQueueLocked).
      if (!this.#seats.canAccommodate(seats)) return this.#reject("concurrency-limit", 0);
      return this.#dispatch(req, undefined);
    }
    const queue = this.#shuffleShard(flowHash);
    if (this.#seats.saturated && queue.waiting.length - queue.head >= this.#cfg.queueLengthLimit) return this.#reject("queue-full", 0);
    if (this.counts.requestsWaiting === 0 && this.#seats.canAccommodate(seats)) {
      // Nothing waits and it fits: what enqueue-then-dispatch would do, without scanning every queue.
      if (isIdle(queue)) {
        queue.nextDispatchR = this.#currentR;
        this.#activeQueues++;
      }
      queue.nextDispatchR += req.totalWork;
      this.#robinIndex = queue.index;
      req.queue = queue;
      return this.#dispatch(req, queue);
    }
    this.#enqueue(req, queue);
    this.#dispatchAsMuchAsPossible();
    if (decided !== undefined) return decided;
    return new Promise<Admission>((resolve) => {
      const give = (a: Admission): void => {
        this.#clock.clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        resolve(a);
      };
      req.decide = give;
      const leave = (reason: RejectReason): void => {
        if (req.queue === undefined || req.startedAt !== 0) return;
        this.#syncTime();
        this.#removeWaiting(req);
        give(this.#reject(reason, this.#clock.now() - req.arrivedAt));
        this.#dispatchAsMuchAsPossible();
      };
      const timer = this.#clock.setTimeout(() => leave("time-out"), waitLimitMs);
      const onAbort = (): void => leave("cancelled");
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  #reject(reason: RejectReason, waitedMs: number): Admission {
    this.#seats.rejected(reason);
    return { admitted: false, reason, waitedMs };
  }

  /** shuffleShardLocked: the queue of the hand with the fewest waiting initial seats. */
  #shuffleShard(flowHash: bigint): Queue {
    let hand = this.#hands.get(flowHash);
    if (hand === undefined) {
      const dealt: number[] = [];
      this.#dealer!.deal(flowHash, (i) => dealt.push(i));
      // Bounded: flows come and go; start over rather than grow without end.
      if (this.#hands.size >= maxCachedHands) this.#hands.clear();
      this.#hands.set(flowHash, (hand = dealt));
    }
    let best = this.#queues[hand[0]!]!;
    for (let k = 1; k < hand.length; k++) {
      const q = this.#queues[hand[k]!]!;
      if (q.waitingSeats < best.waitingSeats) best = q;
    }
    return best;
  }

  #enqueue(req: QueuedRequest, queue: Queue): void {
    if (isIdle(queue)) {
      queue.nextDispatchR = this.#currentR;
      this.#activeQueues++;
    }
    req.queue = queue;
    queue.waiting.push(req);
    const seats = maxSeats(req.estimate);
    queue.waitingSeats += seats;
    this.#seats.enqueued(seats);
  }

  #removeWaiting(req: QueuedRequest): void {
    const q = req.queue!;
    const i = q.waiting.indexOf(req, q.head);
    if (i < 0) return;
    q.waiting.splice(i, 1);
    const seats = maxSeats(req.estimate);
    q.waitingSeats -= seats;
    this.#seats.dequeued(seats);
    if (isIdle(q)) this.#activeQueues--;
    this.#seats.noteSeatDemand();
  }

  #dispatchAsMuchAsPossible(): void {
    while (this.counts.requestsWaiting > 0) {
      const picked = this.#findDispatchQueue();
      if (picked === undefined) return;
      const [queue, req] = picked;
      this.#popHead(queue);
      queue.nextDispatchR += req.totalWork;
      const a = this.#dispatch(req, queue);
      req.decide(a);
    }
  }

  #popHead(queue: Queue): void {
    const req = queue.waiting[queue.head]!;
    queue.head++;
    if (queue.head > 64 && queue.head * 2 > queue.waiting.length) {
      queue.waiting = queue.waiting.slice(queue.head);
      queue.head = 0;
    }
    const seats = maxSeats(req.estimate);
    queue.waitingSeats -= seats;
    this.#seats.dequeued(seats);
  }

  /** findDispatchQueueToBoundLocked: the queue whose oldest request finishes first in virtual time, if it fits. */
  #findDispatchQueue(): [Queue, QueuedRequest] | undefined {
    let min: Queue | undefined;
    let minFinish = Infinity;
    let minIndex = 0;
    const n = this.#queues.length;
    let robin = this.#robinIndex;
    for (let k = 0; k < n; k++) {
      robin = (robin + 1) % n;
      const q = this.#queues[robin]!;
      const oldest = q.waiting[q.head];
      if (oldest === undefined) continue;
      const finish = q.nextDispatchR + oldest.totalWork;
      if (finish < minFinish) {
        minFinish = finish;
        min = q;
        minIndex = robin;
      }
    }
    if (min === undefined) return undefined;
    const oldest = min.waiting[min.head]!;
    if (!this.#seats.canAccommodate(maxSeats(oldest.estimate))) return undefined;
    this.#robinIndex = minIndex;
    return [min, oldest];
  }

  #dispatch(req: QueuedRequest, queue: Queue | undefined): Admission {
    const now = this.#clock.now();
    req.startedAt = now;
    const seats = maxSeats(req.estimate);
    if (queue) {
      queue.executing++;
      queue.executingRequests.add(req);
      queue.seatsInUse += seats;
    } else this.#queueless.add(req);
    this.#seats.started(seats);
    let finished = false;
    return {
      admitted: true,
      waitedMs: now - req.arrivedAt,
      finish: () => {
        if (finished) return;
        finished = true;
        this.#finish(req, queue);
      },
    };
  }

  /** finishRequestLocked: gives back the seats, after the final seats' additional latency when there is one. */
  #finish(req: QueuedRequest, queue: Queue | undefined): void {
    this.#syncTime();
    const actualMs = this.#clock.now() - req.startedAt;
    this.#seats.finished();
    if (queue) {
      queue.executing--;
      queue.executingRequests.delete(req);
      // When a request finishes after S instead of the estimated G, its queue's start R moves back by (G - S) x width.
      queue.nextDispatchR -= req.estimate.initialSeats * (estimatedServiceDurationMs - actualMs);
      this.#boundNextDispatch(queue);
    } else this.#queueless.delete(req);
    const release = (): void => {
      this.#syncTime();
      const seats = maxSeats(req.estimate);
      if (queue) {
        queue.seatsInUse -= seats;
        if (isIdle(queue)) this.#activeQueues--;
      }
      this.#seats.released(seats);
      this.#dispatchAsMuchAsPossible();
    };
    if (req.estimate.additionalLatencyMs > 0) this.#clock.setTimeout(release, req.estimate.additionalLatencyMs);
    else release();
  }

  /** boundNextDispatchLocked: dispatch in the virtual world does not precede arrival (anti-windup). */
  #boundNextDispatch(queue: Queue): void {
    const oldest = queue.waiting[queue.head];
    if (oldest !== undefined && queue.nextDispatchR < oldest.arrivalR) queue.nextDispatchR = oldest.arrivalR;
  }

  /** syncTimeLocked: R advances at min(seats requested, limit) / active queues per real millisecond. */
  #syncTime(): void {
    const now = this.#clock.now();
    const elapsed = now - this.#lastRealTime;
    this.#lastRealTime = now;
    if (elapsed <= 0 || this.#activeQueues === 0) return;
    this.#currentR += (elapsed * this.#seats.effectiveDemand) / this.#activeQueues;
  }
}

function newQueue(index: number): Queue {
  return { index, waiting: [], head: 0, waitingSeats: 0, executing: 0, executingRequests: new Set(), seatsInUse: 0, nextDispatchR: 0 };
}

function isIdle(q: Queue): boolean {
  return q.waiting.length === q.head && q.executing === 0 && q.seatsInUse === 0;
}
