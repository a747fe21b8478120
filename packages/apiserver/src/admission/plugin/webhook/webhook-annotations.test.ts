/**
 * The audit annotations the dispatchers leave (upstream's plugin/webhook/testing/testcase.go
 * ExpectAnnotations of NewNonMutatingTestCases and NewMutatingTestCases): the mutating ones of each
 * call, a patch's, and the failed-open ones of a call ignored under failurePolicy Ignore, keyed by
 * the webhook's index among all the webhooks of its kind.
 */
import { describe, expect, it } from "vitest";
import { newAdmissionContext } from "../../interfaces.ts";
import { dispatchMutating } from "./mutating/dispatcher.ts";
import { dispatchValidating } from "./validating/dispatcher.ts";
import { accessor, attrs, recordingPoster } from "./testing.ts";

const noNamespace = (): unknown => undefined;
const addLabel = {
  allowed: true,
  patchType: "JSONPatch",
  patch: Buffer.from('[{"op":"add","path":"/metadata/labels/added","value":"yes"}]').toString("base64"),
};
const boom = new Error('Post "https://hook.test/internalErr?timeout=10s": boom');

describe("mutating dispatcher annotations", () => {
  it.each([
    {
      name: "match & fail (but allow because fail open): failed-open and mutated false",
      hooks: [accessor("internalErr", { failurePolicy: "Ignore" })],
      responses: { internalErr: boom },
      annotations: {
        "failed-open.mutation.webhook.admission.k8s.io/round_0_index_0": "internalErr",
        "mutation.webhook.admission.k8s.io/round_0_index_0": '{"configuration":"c","webhook":"internalErr","mutated":false}',
      },
    },
    {
      name: "match & allow with a patch: mutation and patch",
      hooks: [accessor("skipped", { objectSelector: { matchLabels: { nope: "x" } } }), accessor("patcher")],
      responses: { patcher: addLabel },
      annotations: {
        "mutation.webhook.admission.k8s.io/round_0_index_1": '{"configuration":"c","webhook":"patcher","mutated":true}',
        "patch.webhook.admission.k8s.io/round_0_index_1":
          '{"configuration":"c","webhook":"patcher","patch":[{"op":"add","path":"/metadata/labels/added","value":"yes"}],"patchType":"JSONPatch"}',
      },
    },
    {
      name: "an empty patch is no patch",
      hooks: [accessor("empty")],
      responses: { empty: { allowed: true, patchType: "JSONPatch", patch: Buffer.from("[]").toString("base64") } },
      annotations: { "mutation.webhook.admission.k8s.io/round_0_index_0": '{"configuration":"c","webhook":"empty","mutated":false}' },
    },
    {
      name: "a false matchCondition under Ignore is no call: nothing",
      hooks: [accessor("unmatched", { failurePolicy: "Ignore", matchConditions: [{ name: "never", expression: "false" }] })],
      responses: {},
      annotations: {},
    },
  ])("$name", async ({ hooks, responses, annotations }) => {
    const ctx = newAdmissionContext();
    await dispatchMutating(hooks, attrs(), ctx, noNamespace, recordingPoster(responses));
    expect(ctx.auditAnnotations).toEqual(annotations);
  });

  it("match & fail (disallow because fail close): the mutation annotation is still written", async () => {
    const ctx = newAdmissionContext();
    await expect(
      dispatchMutating([accessor("internalErr")], attrs(), ctx, noNamespace, recordingPoster({ internalErr: boom })),
    ).rejects.toThrow(/failed calling webhook "internalErr"/);
    expect(ctx.auditAnnotations).toEqual({
      "mutation.webhook.admission.k8s.io/round_0_index_0": '{"configuration":"c","webhook":"internalErr","mutated":false}',
    });
  });
});

describe("validating dispatcher annotations", () => {
  it.each([
    {
      name: "match & fail (but allow because fail open)",
      hooks: [accessor("allow"), accessor("internalErr", { failurePolicy: "Ignore" })],
      responses: { allow: { allowed: true }, internalErr: boom },
      annotations: { "failed-open.validating.webhook.admission.k8s.io/round_0_index_1": "internalErr" },
    },
    {
      name: "match & allow: nothing",
      hooks: [accessor("allow")],
      responses: { allow: { allowed: true } },
      annotations: {},
    },
  ])("$name", async ({ hooks, responses, annotations }) => {
    const ctx = newAdmissionContext();
    await dispatchValidating(hooks, attrs(), ctx, noNamespace, recordingPoster(responses));
    expect(ctx.auditAnnotations).toEqual(annotations);
  });
});
