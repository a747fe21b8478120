/**
 * The admission webhook metrics (k8s.io/apiserver/pkg/admission/metrics/metrics.go: ObserveWebhook,
 * ObserveWebhookRejection, ObserveWebhookFailOpen), on the server's one metrics registry. `type`
 * is `validating` or `admit` (the mutating dispatcher's word); codes above 600 are cut to 600.
 */
import { MetricsRegistry, type CounterVec, type HistogramVec } from "@servicenet/component-base/metrics";

/** metrics.go WebhookRejectionErrorType. */
export type WebhookRejectionErrorType = "calling_webhook_error" | "apiserver_internal_error" | "no_error";

/** The step type label of the two webhook dispatchers. */
export type WebhookStepType = "validating" | "admit";

/** The webhook metrics of one apiserver. */
export class AdmissionWebhookMetrics {
  readonly #latency: HistogramVec;
  readonly #rejection: CounterVec;
  readonly #failOpen: CounterVec;
  readonly #request: CounterVec;

  /** Registers the metrics on `registry` (a private one when none is given: nothing is served). */
  constructor(registry: MetricsRegistry = new MetricsRegistry()) {
    this.#latency = registry.histogram(
      "apiserver_admission_webhook_admission_duration_seconds",
      "[STABLE] Admission webhook latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).",
      [0.005, 0.025, 0.1, 0.5, 1.0, 2.5, 10, 25],
    );
    this.#rejection = registry.counter(
      "apiserver_admission_webhook_rejection_count",
      "[ALPHA] Admission webhook rejection count, identified by name and broken out for each admission type (validating or admit) and operation. Additional labels specify an error type (calling_webhook_error or apiserver_internal_error if an error occurred; no_error otherwise) and optionally a non-zero rejection code if the webhook rejects the request with an HTTP status code (honored by the apiserver when the code is greater or equal to 400). Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.",
    );
    this.#failOpen = registry.counter(
      "apiserver_admission_webhook_fail_open_count",
      "[ALPHA] Admission webhook fail open count, identified by name and broken out for each admission type (validating or mutating).",
    );
    this.#request = registry.counter(
      "apiserver_admission_webhook_request_total",
      "[ALPHA] Admission webhook request total, identified by name and broken out for each admission type (validating or mutating) and operation. Additional labels specify whether the request was rejected or not and an HTTP status code. Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.",
    );
  }

  /** ObserveWebhook: one call's latency and its request count by code. */
  observeWebhook(name: string, seconds: number, rejected: boolean, operation: string, type: WebhookStepType, code: number): void {
    const r = String(rejected);
    this.#request.inc({ name, type, operation, code: String(Math.min(code, 600)), rejected: r });
    this.#latency.observe({ name, type, operation, rejected: r }, seconds);
  }

  /** ObserveWebhookRejection. */
  observeWebhookRejection(
    name: string,
    type: WebhookStepType,
    operation: string,
    errorType: WebhookRejectionErrorType,
    code: number,
  ): void {
    this.#rejection.inc({ name, type, operation, error_type: errorType, rejection_code: String(Math.min(code, 600)) });
  }

  /** ObserveWebhookFailOpen. */
  observeWebhookFailOpen(name: string, type: WebhookStepType): void {
    this.#failOpen.inc({ name, type });
  }
}
