/**
 * Work estimates (staging/src/k8s.io/apiserver/pkg/util/flowcontrol/request/width.go and config.go):
 * how many seats a request occupies while it runs, and for how long it keeps some after it answered.
 */

/** A request's estimated cost. */
export interface WorkEstimate {
  /** Seats held while the request executes (at least 1). */
  initialSeats: number;
  /** Seats held after execution, for `additionalLatencyMs` (watch notification work of a write). */
  finalSeats: number;
  additionalLatencyMs: number;
}

/** The most seats one request may take (MaximumSeatsLimit). */
export const maximumSeatsLimit = 10;
/** The fewest (MinimumSeats). */
export const minimumSeats = 1;
/** DefaultObjectsPerSeat: a LIST takes a seat per 100 objects it processes. */
export const objectsPerSeat = 100;
/** DefaultWatchesPerSeat: a write takes a final seat per 10 watchers it notifies. */
export const watchesPerSeat = 10;
/** DefaultEnableMutatingWorkEstimator's eventAdditionalDuration: 5 ms of a final seat per event. */
export const eventAdditionalDurationMs = 5;

/** The estimate of a cheap request: one seat, nothing after. */
export const oneSeat: WorkEstimate = { initialSeats: minimumSeats, finalSeats: 0, additionalLatencyMs: 0 };

/** MaxSeats: what the request holds from dispatch until its final seats are released. */
export function maxSeats(we: WorkEstimate): number {
  return Math.max(we.initialSeats, we.finalSeats);
}
