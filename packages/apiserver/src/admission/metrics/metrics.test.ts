/**
 * The webhook metrics as the dispatchers record them (admission/metrics/metrics.go with
 * validating/dispatcher.go and mutating/dispatcher.go): the error type and code of each outcome.
 */
import { MetricsRegistry } from "@servicenet/component-base/metrics";
import type { MutatingWebhook } from "@servicenet/api/admissionregistration/v1";
import { describe, expect, it } from "vitest";
import { newAdmissionContext } from "../interfaces.ts";
import type { WebhookPoster } from "../plugin/webhook/generic/call-hook.ts";
import { dispatchMutating } from "../plugin/webhook/mutating/dispatcher.ts";
import { accessor, attrs } from "../plugin/webhook/testing.ts";
import { dispatchValidating } from "../plugin/webhook/validating/dispatcher.ts";
import { AdmissionWebhookMetrics } from "./metrics.ts";

/** Answers with `response`, or fails as the HTTPS client does (`statusCode` for a non-2xx answer). */
const answer =
  (response: Record<string, unknown> | Error): WebhookPoster =>
  (_cc, body) =>
    response instanceof Error
      ? Promise.reject(response)
      : Promise.resolve({
          apiVersion: "admission.k8s.io/v1",
          kind: "AdmissionReview",
          response: { uid: (body as { request: { uid: string } }).request.uid, ...response },
        });

const tests: {
  name: string;
  mutating?: boolean;
  dryRun?: boolean;
  webhook?: Partial<MutatingWebhook>;
  post: WebhookPoster;
  series: string[];
}[] = [
  {
    name: "allowed",
    post: answer({ allowed: true }),
    series: ['apiserver_admission_webhook_request_total{code="200",name="h",operation="UPDATE",rejected="false",type="validating"} 1'],
  },
  {
    name: "denied with the webhook's code",
    post: answer({ allowed: false, status: { code: 409, message: "no" } }),
    series: [
      'apiserver_admission_webhook_request_total{code="409",name="h",operation="UPDATE",rejected="true",type="validating"} 1',
      'apiserver_admission_webhook_rejection_count{error_type="no_error",name="h",operation="UPDATE",rejection_code="409",type="validating"} 1',
    ],
  },
  {
    name: "unreachable under Fail: 503 calling_webhook_error",
    post: answer(new Error("dial tcp 127.0.0.1:1: connect: connection refused")),
    series: [
      'apiserver_admission_webhook_request_total{code="503",name="h",operation="UPDATE",rejected="true",type="validating"} 1',
      'apiserver_admission_webhook_rejection_count{error_type="calling_webhook_error",name="h",operation="UPDATE",rejection_code="503",type="validating"} 1',
    ],
  },
  {
    name: "a 700 answer under Ignore: code cut to 600, failed open, no rejection",
    mutating: true,
    webhook: { failurePolicy: "Ignore" },
    post: answer(Object.assign(new Error("the server responded with the status code 700"), { statusCode: 700 })),
    series: [
      'apiserver_admission_webhook_request_total{code="600",name="h",operation="UPDATE",rejected="false",type="admit"} 1',
      'apiserver_admission_webhook_fail_open_count{name="h",type="admit"} 1',
    ],
  },
  {
    name: "a dry run the webhook may not see: apiserver_internal_error, code 0",
    dryRun: true,
    webhook: { sideEffects: "Some" },
    post: answer({ allowed: true }),
    series: [
      'apiserver_admission_webhook_request_total{code="0",name="h",operation="UPDATE",rejected="true",type="validating"} 1',
      'apiserver_admission_webhook_rejection_count{error_type="apiserver_internal_error",name="h",operation="UPDATE",rejection_code="0",type="validating"} 1',
    ],
  },
];

describe("admission webhook metrics", () => {
  it.each(tests)("$name", async (t) => {
    const registry = new MetricsRegistry();
    const metrics = new AdmissionWebhookMetrics(registry);
    const dispatch = t.mutating ? dispatchMutating : dispatchValidating;
    await dispatch(
      [accessor("h", t.webhook)],
      attrs({ operation: "UPDATE", dryRun: t.dryRun ?? false }),
      newAdmissionContext(),
      () => undefined,
      t.post,
      metrics,
    ).catch(() => undefined);
    const text = registry.render();
    for (const s of t.series) expect(text).toContain(`${s}\n`);
    const type = t.mutating ? "admit" : "validating";
    expect(text).toContain(`apiserver_admission_webhook_admission_duration_seconds_count{name="h",operation="UPDATE",rejected=`);
    expect(text).toContain(`type="${type}"} 1\n`);
    if (!t.series.some((s) => s.includes("rejection_count"))) expect(text).not.toContain("apiserver_admission_webhook_rejection_count{");
  });
});
