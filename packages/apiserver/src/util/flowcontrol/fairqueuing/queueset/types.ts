/** Shared shapes of the queueset (staging/src/k8s.io/apiserver/pkg/util/flowcontrol/fairqueuing/queueset/types.go). */
import type { RequestDigest } from "../../match.ts";
import type { WorkEstimate } from "../../request/width.ts";

/** Why a request was not executed (the `reason` label of apiserver_flowcontrol_rejected_requests_total). */
export type RejectReason = "queue-full" | "concurrency-limit" | "time-out" | "cancelled";

/** QueuingConfig: shuffle sharding and queue bounds; `queues` 0 means the Reject limit response. */
export interface QueuingConfig {
  name: string;
  queues: number;
  handSize: number;
  queueLengthLimit: number;
}

/** The answer to StartRequest: run (then call `finish`) or the reason of the rejection. */
export type Admission = { admitted: true; waitedMs: number; finish(): void } | { admitted: false; reason: RejectReason; waitedMs: number };

/** Who sent a request and how it was classified, for the debug dump (the fields of debug.RequestDump). */
export interface RequestDescr {
  flowSchema: string;
  flowDistinguisher: string;
  digest: RequestDigest;
}

/** What the debug dump shows of a request. */
export interface DumpedRequest {
  descr: RequestDescr | undefined;
  estimate: WorkEstimate;
  arrivedAt: number;
  /** 0 while it waits. */
  startedAt: number;
}

/** One request in a queue or executing. */
export interface QueuedRequest extends DumpedRequest {
  /** Seat-milliseconds of virtual work: initial seats x the estimated service duration plus the final work. */
  totalWork: number;
  arrivalR: number;
  queue: Queue | undefined;
  decide(admission: Admission): void;
}

/** A FIFO of waiting requests plus what of it executes. */
export interface Queue {
  index: number;
  waiting: QueuedRequest[];
  /** Head of `waiting` (a moving index instead of Array.shift). */
  head: number;
  /** Sum of waiting requests' max seats. */
  waitingSeats: number;
  executing: number;
  /** The requests of this queue that execute (for the debug dump). */
  executingRequests: Set<QueuedRequest>;
  seatsInUse: number;
  /** The virtual time at which this queue's next request would start (nextDispatchR). */
  nextDispatchR: number;
}
