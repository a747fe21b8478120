/**
 * The seat bookkeeping of one QueueSet (queueset.go's totRequestsWaiting, totSeatsWaiting,
 * totRequestsExecuting, totSeatsInUse and dCfg.ConcurrencyLimit): what waits and what executes,
 * whether a request of some width fits the current concurrency limit (which borrowing moves),
 * and the seat demand (in use plus waiting) the borrowing adjustment integrates.
 */
import type { RejectReason } from "./types.ts";

/** Counters the level's metrics read. */
export interface QueueSetCounts {
  requestsWaiting: number;
  seatsWaiting: number;
  requestsExecuting: number;
  seatsInUse: number;
  /** Since the QueueSet was made (the debug dump's totals). */
  dispatched: number;
  rejected: number;
  timedOut: number;
  cancelled: number;
}

/** Where a QueueSet reports its seat demand (seats in use plus waiting) as it changes. */
export interface SeatDemandGauge {
  set(seats: number): void;
}

/** The seats of one priority level against its current concurrency limit. */
export class SeatAccounting {
  readonly counts: QueueSetCounts = {
    requestsWaiting: 0,
    seatsWaiting: 0,
    requestsExecuting: 0,
    seatsInUse: 0,
    dispatched: 0,
    rejected: 0,
    timedOut: 0,
    cancelled: 0,
  };
  readonly #seatDemand: SeatDemandGauge | undefined;
  /** The current limit: the nominal one moved by lending and borrowing (DispatchingConfig). */
  concurrencyLimit: number;

  constructor(concurrencyLimit: number, seatDemand?: SeatDemandGauge) {
    this.concurrencyLimit = concurrencyLimit;
    this.#seatDemand = seatDemand;
  }

  /** canAccommodateSeatsLocked: a request wider than the whole level runs alone. */
  canAccommodate(seats: number): boolean {
    if (seats > this.concurrencyLimit) return this.counts.requestsExecuting === 0;
    return this.counts.seatsInUse + seats <= this.concurrencyLimit;
  }

  /** Whether every seat is taken (a full queue then rejects). */
  get saturated(): boolean {
    return this.counts.seatsInUse >= this.concurrencyLimit;
  }

  /** The seats the virtual clock advances by: min(seats requested, limit) (syncTimeLocked). */
  get effectiveDemand(): number {
    return Math.min(this.counts.seatsInUse + this.counts.seatsWaiting, this.concurrencyLimit);
  }

  /** A request of `seats` joined a queue. */
  enqueued(seats: number): void {
    this.counts.requestsWaiting++;
    this.counts.seatsWaiting += seats;
    this.noteSeatDemand();
  }

  /** A request of `seats` left its queue (to run, or given up): the caller notes the demand. */
  dequeued(seats: number): void {
    this.counts.requestsWaiting--;
    this.counts.seatsWaiting -= seats;
  }

  /** A request of `seats` started executing. */
  started(seats: number): void {
    this.counts.requestsExecuting++;
    this.counts.dispatched++;
    this.counts.seatsInUse += seats;
    this.noteSeatDemand();
  }

  /** A request finished executing; its seats stay taken until `released`. */
  finished(): void {
    this.counts.requestsExecuting--;
  }

  /** A finished request's seats are free again (after its final seats' additional latency). */
  released(seats: number): void {
    this.counts.seatsInUse -= seats;
    this.noteSeatDemand();
  }

  /** A request was turned away for `reason`. */
  rejected(reason: RejectReason): void {
    if (reason === "time-out") this.counts.timedOut++;
    else if (reason === "cancelled") this.counts.cancelled++;
    else this.counts.rejected++;
  }

  /** seatDemandIntegrator.Set(totSeatsInUse + totSeatsWaiting). */
  noteSeatDemand(): void {
    this.#seatDemand?.set(this.counts.seatsInUse + this.counts.seatsWaiting);
  }
}
