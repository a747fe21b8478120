/**
 * Write work estimates (staging/src/k8s.io/apiserver/pkg/util/flowcontrol/request/
 * mutating_work_estimator.go): one seat to run, and, with 10 or more watchers of the resource, a
 * final seat per 10 watchers held for 5 ms per seat after the answer (the watch events' fan-out).
 */
import { eventAdditionalDurationMs, minimumSeats, watchesPerSeat, type WorkEstimate } from "./width.ts";

/** estimate: the seats of a create, update, patch or delete with `watchCount` watchers of its resource. */
export function estimateMutatingWork(watchCount: number, maxSeats: number): WorkEstimate {
  if (watchCount < watchesPerSeat) return { initialSeats: minimumSeats, finalSeats: 0, additionalLatencyMs: 0 };
  const wanted = Math.ceil(watchCount / watchesPerSeat);
  // The final work (seats x duration) keeps its area when the seats are capped.
  const finalWork = wanted * eventAdditionalDurationMs;
  const finalSeats = Math.min(wanted, maxSeats);
  return { initialSeats: minimumSeats, finalSeats, additionalLatencyMs: finalWork / finalSeats };
}
