/**
 * The webhook dispatchers without a network (upstream's admission/plugin/webhook/{validating,
 * mutating}/plugin_test.go and testcase.go NewNonMutatingTestCases/NewMutatingTestCases, in
 * miniature): a recording poster stands in for the HTTPS client.
 */
import { StatusError } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import type {
  Attributes as AuthorizationAttributes,
  AuthorizationResult,
  Authorizer,
} from "../../../authorization/authorizer/interfaces.ts";
import { newAdmissionContext } from "../../interfaces.ts";
import type { WebhookPoster } from "./generic/call-hook.ts";
import { isExemptAdmissionConfigurationResource } from "./generic/should-call-hook.ts";
import { dispatchMutating } from "./mutating/dispatcher.ts";
import { dispatchValidating } from "./validating/dispatcher.ts";
import { accessor, attrs, recordingPoster as poster } from "./testing.ts";

const noNamespace = (): unknown => undefined;
const errorOf = async (p: Promise<unknown>): Promise<StatusError> => {
  try {
    await p;
  } catch (e) {
    return e as StatusError;
  }
  throw new Error("no error");
};

describe("NewNonMutatingTestCases (validating dispatcher)", () => {
  it.each([
    {
      name: "match & allow",
      hooks: [accessor("allow")],
      responses: { allow: { allowed: true } },
      status: undefined,
    },
    {
      name: "match & disallow with a status",
      hooks: [accessor("disallow")],
      responses: { disallow: { allowed: false, status: { code: 403, reason: "Forbidden", message: "you shall not pass" } } },
      status: { code: 403, reason: "Forbidden", message: 'admission webhook "disallow" denied the request: you shall not pass' },
    },
    {
      name: "match & disallow with only a reason",
      hooks: [accessor("disallowReason")],
      responses: { disallowReason: { allowed: false, status: { code: 200, reason: "Conflict" } } },
      status: { code: 400, reason: "Conflict", message: 'admission webhook "disallowReason" denied the request: Conflict' },
    },
    {
      name: "match & fail (but allow because fail open)",
      hooks: [accessor("internalErr", { failurePolicy: "Ignore" })],
      responses: { internalErr: new Error("boom") },
      status: undefined,
    },
    {
      name: "match & fail (but disallow because fail close)",
      hooks: [accessor("internalErr")],
      responses: { internalErr: new Error('Post "https://hook.test/internalErr?timeout=10s": boom') },
      status: {
        code: 500,
        reason: "InternalError",
        message:
          'Internal error occurred: failed calling webhook "internalErr": failed to call webhook: Post "https://hook.test/internalErr?timeout=10s": boom',
      },
    },
    {
      name: "no match: other resource",
      hooks: [accessor("nomatch", { rules: [{ operations: ["*"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"] }] })],
      responses: { nomatch: { allowed: false } },
      status: undefined,
    },
    {
      name: "no match: objectSelector",
      hooks: [accessor("selector", { objectSelector: { matchLabels: { app: "db" } } })],
      responses: { selector: { allowed: false } },
      status: undefined,
    },
    {
      name: "no match: matchConditions false",
      hooks: [accessor("cond", { matchConditions: [{ name: "db-only", expression: "object.metadata.labels.app == 'db'" }] })],
      responses: { cond: { allowed: false } },
      status: undefined,
    },
    {
      name: "validating webhook returning a patch is an invalid response",
      hooks: [accessor("patcher")],
      responses: { patcher: { allowed: true, patch: "W10=", patchType: "JSONPatch" } },
      status: {
        code: 500,
        reason: "InternalError",
        message:
          'Internal error occurred: failed calling webhook "patcher": received invalid webhook response: validating webhook may not return response.patch',
      },
    },
  ])("$name", async ({ hooks, responses, status }) => {
    const p = dispatchValidating(hooks, attrs(), newAdmissionContext(), noNamespace, poster(responses));
    if (status === undefined) await expect(p).resolves.toBeUndefined();
    else expect((await errorOf(p)).status).toMatchObject(status);
  });

  it("a dry run reaching a webhook with side effects: 400 does not support dry run, without a call", async () => {
    const calls: string[] = [];
    const hooks = [accessor("sideeffects", { sideEffects: "Some" })];
    const e = await errorOf(dispatchValidating(hooks, attrs({ dryRun: true }), newAdmissionContext(), noNamespace, poster({}, calls)));
    expect(e.status).toMatchObject({
      code: 400,
      reason: "BadRequest",
      message: 'admission webhook "sideeffects" does not support dry run',
    });
    expect(calls).toEqual([]);
  });

  it("a response of another uid is invalid", async () => {
    const post: WebhookPoster = () =>
      Promise.resolve({ apiVersion: "admission.k8s.io/v1", kind: "AdmissionReview", response: { uid: "other", allowed: true } });
    const e = await errorOf(dispatchValidating([accessor("uid")], attrs(), newAdmissionContext(), noNamespace, post));
    expect(e.status.message).toMatch(
      /^Internal error occurred: failed calling webhook "uid": received invalid webhook response: expected response\.uid="[^"]+", got "other"$/,
    );
  });

  it("prefixes audit annotations with the webhook's name and keeps its warnings", async () => {
    const ctx = newAdmissionContext();
    await dispatchValidating(
      [accessor("audit")],
      attrs(),
      ctx,
      noNamespace,
      poster({ audit: { allowed: true, auditAnnotations: { key1: "v" }, warnings: ["w"] } }),
    );
    expect(ctx.auditAnnotations).toEqual({ "audit/key1": "v" });
    expect(ctx.warnings).toEqual(["w"]);
  });

  it("IsExemptAdmissionConfigurationResource: the admission configuration kinds only", () => {
    const of = (group: string, resource: string) => attrs({ resource: { group, version: "v1", resource } });
    expect(isExemptAdmissionConfigurationResource(of("admissionregistration.k8s.io", "validatingwebhookconfigurations"))).toBe(true);
    expect(isExemptAdmissionConfigurationResource(of("admissionregistration.k8s.io", "mutatingwebhookconfigurations"))).toBe(true);
    expect(isExemptAdmissionConfigurationResource(of("admissionregistration.k8s.io", "validatingadmissionpolicies"))).toBe(true);
    expect(isExemptAdmissionConfigurationResource(of("", "services"))).toBe(false);
  });
});

describe("NewMutatingTestCases (mutating dispatcher)", () => {
  const addLabel = (key: string) => ({
    allowed: true,
    patchType: "JSONPatch",
    patch: Buffer.from(JSON.stringify([{ op: "add", path: `/metadata/labels/${key}`, value: "true" }])).toString("base64"),
  });

  it("applies patches in order, each webhook seeing the ones before, and records the mutation annotations", async () => {
    const a = attrs();
    const ctx = newAdmissionContext();
    await dispatchMutating(
      [accessor("first"), accessor("second")],
      a,
      ctx,
      noNamespace,
      poster({ first: addLabel("a"), second: addLabel("b") }),
    );
    expect(a.object?.metadata["labels"]).toEqual({ app: "web", a: "true", b: "true" });
    expect(ctx.auditAnnotations["mutation.webhook.admission.k8s.io/round_0_index_1"]).toBe(
      '{"configuration":"c","webhook":"second","mutated":true}',
    );
  });

  it.each([
    {
      name: "IfNeeded before a mutating webhook is reinvoked once",
      policy: "IfNeeded" as const,
      calls: ["reinvocable", "mutator", "reinvocable"],
    },
    { name: "Never is not reinvoked", policy: "Never" as const, calls: ["reinvocable", "mutator"] },
  ])("$name", async ({ policy, calls: want }) => {
    const calls: string[] = [];
    const hooks = [accessor("reinvocable", { reinvocationPolicy: policy }), accessor("mutator")];
    await dispatchMutating(
      hooks,
      attrs(),
      newAdmissionContext(),
      noNamespace,
      poster({ reinvocable: { allowed: true }, mutator: addLabel("m") }, calls),
    );
    expect(calls).toEqual(want);
  });

  it("a webhook after the mutating one is not reinvoked for it (only those called before)", async () => {
    const calls: string[] = [];
    const hooks = [accessor("mutator"), accessor("after", { reinvocationPolicy: "IfNeeded" })];
    await dispatchMutating(
      hooks,
      attrs(),
      newAdmissionContext(),
      noNamespace,
      poster({ mutator: addLabel("m"), after: { allowed: true } }, calls),
    );
    expect(calls).toEqual(["mutator", "after"]);
  });

  it("a patch that cannot be applied is an internal error", async () => {
    const bad = { allowed: true, patchType: "JSONPatch", patch: Buffer.from('[{"op":"remove","path":"/spec/nope"}]').toString("base64") };
    const e = await errorOf(dispatchMutating([accessor("bad")], attrs(), newAdmissionContext(), noNamespace, poster({ bad })));
    expect(e.status).toMatchObject({ code: 500, reason: "InternalError" });
  });
});

describe("matchConditions with the authorizer variable", () => {
  // Allows only `approve` on the request's own Service, for the requesting user.
  const decide = (r: AuthorizationAttributes): AuthorizationResult =>
    r.user?.name === "admin" && r.verb === "approve" && r.resource === "services" && r.namespace === "default" && r.name === "svc"
      ? { decision: "Allow", reason: "" }
      : { decision: "NoOpinion", reason: "" };
  // The same, as an authorizer that decides at once, and as one that has to wait (the webhook authorizer's way).
  const authorizers: Record<string, Authorizer> = {
    synchronous: { authorize: decide },
    waiting: { authorize: (r) => Promise.resolve(decide(r)) },
  };
  const condition = (verb: string) => [{ name: "may", expression: `authorizer.requestResource.check('${verb}').allowed()` }];
  const rows = ["synchronous", "waiting"].flatMap((kind) => [
    { kind, verb: "approve", called: ["hook"] },
    { kind, verb: "escalate", called: [] },
  ]);

  it.each(rows)(
    "validating, $kind authorizer: a webhook is called only when the user may $verb the request's resource",
    async ({ kind, verb, called }) => {
      const calls: string[] = [];
      const hooks = [accessor("hook", { matchConditions: condition(verb) })];
      const post = poster({ hook: { allowed: true } }, calls);
      await dispatchValidating(hooks, attrs(), newAdmissionContext(), noNamespace, post, undefined, authorizers[kind]);
      expect(calls).toEqual(called);
    },
  );

  it.each(rows)(
    "mutating, $kind authorizer: a webhook is called only when the user may $verb the request's resource",
    async ({ kind, verb, called }) => {
      const calls: string[] = [];
      const hooks = [accessor("hook", { matchConditions: condition(verb) })];
      const post = poster({ hook: { allowed: true } }, calls);
      await dispatchMutating(hooks, attrs(), newAdmissionContext(), noNamespace, post, undefined, authorizers[kind]);
      expect(calls).toEqual(called);
    },
  );
});
