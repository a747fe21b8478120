/**
 * API Priority and Fairness metrics (staging/src/k8s.io/apiserver/pkg/util/flowcontrol/metrics/metrics.go),
 * upstream's names and labels, in the component's metrics registry.
 */
import type { CounterVec, GaugeVec, HistogramVec, MetricsRegistry } from "@servicenet/component-base/metrics";

const queueWaitBuckets = [0, 0.005, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30];
const executionBuckets = [0, 0.005, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30];
const seatBuckets = [1, 2, 4, 10];

/** The APF metric vectors. */
export interface FlowControlMetrics {
  dispatched: CounterVec;
  rejected: CounterVec;
  inqueueRequests: GaugeVec;
  inqueueSeats: GaugeVec;
  executingRequests: GaugeVec;
  executingSeats: GaugeVec;
  waitDuration: HistogramVec;
  executionSeconds: HistogramVec;
  estimatedSeats: HistogramVec;
  nominalLimitSeats: GaugeVec;
  lowerLimitSeats: GaugeVec;
  upperLimitSeats: GaugeVec;
  currentLimitSeats: GaugeVec;
  demandSeatsHighWatermark: GaugeVec;
  demandSeatsAverage: GaugeVec;
  demandSeatsStdev: GaugeVec;
  demandSeatsSmoothed: GaugeVec;
  targetSeats: GaugeVec;
  /** Unlabelled. */
  seatFairFrac: GaugeVec;
  /** apiserver_dropped_requests_total (maxinflight's and APF's), by request kind. */
  droppedRequests: CounterVec;
  /** apiserver_current_inflight_requests of WithMaxInFlightLimit, by request kind. */
  currentInflight: GaugeVec;
}

/** Registers (or finds) the APF metrics in `registry`. */
export function flowControlMetrics(registry: MetricsRegistry): FlowControlMetrics {
  const ns = "apiserver_flowcontrol_";
  return {
    dispatched: registry.counter(`${ns}dispatched_requests_total`, "Number of requests executed by API Priority and Fairness subsystem"),
    rejected: registry.counter(`${ns}rejected_requests_total`, "Number of requests rejected by API Priority and Fairness subsystem"),
    inqueueRequests: registry.gauge(
      `${ns}current_inqueue_requests`,
      "Number of requests currently pending in queues of the API Priority and Fairness subsystem",
    ),
    inqueueSeats: registry.gauge(
      `${ns}current_inqueue_seats`,
      "Number of seats currently pending in queues of the API Priority and Fairness subsystem",
    ),
    executingRequests: registry.gauge(
      `${ns}current_executing_requests`,
      "Number of requests in initial (for a WATCH) or any (for a non-WATCH) execution stage in the API Priority and Fairness subsystem",
    ),
    executingSeats: registry.gauge(
      `${ns}current_executing_seats`,
      "Concurrency (number of seats) occupied by the currently executing (initial stage for a WATCH, any stage otherwise) requests in the API Priority and Fairness subsystem",
    ),
    waitDuration: registry.histogram(
      `${ns}request_wait_duration_seconds`,
      "Length of time a request spent waiting in its queue",
      queueWaitBuckets,
    ),
    executionSeconds: registry.histogram(
      `${ns}request_execution_seconds`,
      "Duration of initial stage (for a WATCH) or any (for a non-WATCH) stage of request execution in the API Priority and Fairness subsystem",
      executionBuckets,
    ),
    estimatedSeats: registry.histogram(
      `${ns}work_estimated_seats`,
      "Number of estimated seats (maximum of initial and final seats) associated with requests in API Priority and Fairness",
      seatBuckets,
    ),
    nominalLimitSeats: registry.gauge(`${ns}nominal_limit_seats`, "Nominal number of execution seats configured for each priority level"),
    lowerLimitSeats: registry.gauge(
      `${ns}lower_limit_seats`,
      "Configured lower bound on number of execution seats available to each priority level",
    ),
    upperLimitSeats: registry.gauge(
      `${ns}upper_limit_seats`,
      "Configured upper bound on number of execution seats available to each priority level",
    ),
    demandSeatsHighWatermark: registry.gauge(
      `${ns}demand_seats_high_watermark`,
      "High watermark, over last adjustment period, of demand_seats",
    ),
    demandSeatsAverage: registry.gauge(`${ns}demand_seats_average`, "Time-weighted average, over last adjustment period, of demand_seats"),
    demandSeatsStdev: registry.gauge(
      `${ns}demand_seats_stdev`,
      "Time-weighted standard deviation, over last adjustment period, of demand_seats",
    ),
    demandSeatsSmoothed: registry.gauge(`${ns}demand_seats_smoothed`, "Smoothed seat demands"),
    targetSeats: registry.gauge(`${ns}target_seats`, "Seat allocation targets"),
    seatFairFrac: registry.gauge(
      `${ns}seat_fair_frac`,
      "Fair fraction of server's concurrency to allocate to each priority level that can use it",
    ),
    currentLimitSeats: registry.gauge(
      `${ns}current_limit_seats`,
      "current derived number of execution seats available to each priority level",
    ),
    droppedRequests: registry.counter(
      "apiserver_dropped_requests_total",
      "Number of requests dropped with 'Try again later' response. Use apiserver_request_total and/or apiserver_flowcontrol_rejected_requests_total metrics instead.",
    ),
    currentInflight: registry.gauge(
      "apiserver_current_inflight_requests",
      "Maximal number of currently used inflight request limit of this apiserver per request kind in last second.",
    ),
  };
}
