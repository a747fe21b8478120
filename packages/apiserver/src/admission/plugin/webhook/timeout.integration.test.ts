/**
 * Upstream's TestWebhookTimeoutWithWatchCache / WithoutWatchCache
 * (test/integration/apiserver/admissionwebhook/timeout_test.go testWebhookTimeout) over HTTP: a
 * Pod is created with a `timeout` parameter, and each webhook is told (and held to) the smaller of
 * its own timeout and what is left of the request's; mutating webhooks run one after another and
 * consume the budget, validating ones in parallel after them; once the request's time is up, the
 * later mutating webhooks are skipped whatever their failure policy, and the request fails.
 * Upstream's webhooks sleep whole seconds (a path's `/1s`), so this file takes about eight.
 */
import { eventually } from "@servicenet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../server/testing.ts";
import { startWebhookServer, type WebhookServer } from "./testing.ts";

const arv1 = "/apis/admissionregistration.k8s.io/v1";

interface TestWebhook {
  path: string;
  timeoutSeconds: number;
  policy: "Fail" | "Ignore";
}

interface Invocation {
  path: string;
  timeoutSeconds: number;
}

interface Case {
  name: string;
  timeoutSeconds: number;
  mutatingWebhooks: TestWebhook[];
  validatingWebhooks: TestWebhook[];
  expectInvocations: Invocation[];
  expectError?: boolean;
}

const cases: Case[] = [
  {
    name: "minimum of request timeout or webhook timeout propagated",
    timeoutSeconds: 10,
    mutatingWebhooks: [
      { path: "/mutating/1/0s", policy: "Fail", timeoutSeconds: 20 },
      { path: "/mutating/2/0s", policy: "Fail", timeoutSeconds: 5 },
    ],
    validatingWebhooks: [
      { path: "/validating/3/0s", policy: "Fail", timeoutSeconds: 20 },
      { path: "/validating/4/0s", policy: "Fail", timeoutSeconds: 5 },
    ],
    expectInvocations: [
      { path: "/mutating/1/0s", timeoutSeconds: 10 }, // from request
      { path: "/mutating/2/0s", timeoutSeconds: 5 }, // from webhook config
      { path: "/validating/3/0s", timeoutSeconds: 10 }, // from request
      { path: "/validating/4/0s", timeoutSeconds: 5 }, // from webhook config
    ],
  },
  {
    name: "webhooks consume client timeout available, not webhook timeout",
    timeoutSeconds: 10,
    mutatingWebhooks: [
      { path: "/mutating/1/1s", policy: "Fail", timeoutSeconds: 20 },
      { path: "/mutating/2/1s", policy: "Fail", timeoutSeconds: 5 },
      { path: "/mutating/3/1s", policy: "Fail", timeoutSeconds: 20 },
    ],
    validatingWebhooks: [
      { path: "/validating/4/1s", policy: "Fail", timeoutSeconds: 5 },
      { path: "/validating/5/1s", policy: "Fail", timeoutSeconds: 10 },
      { path: "/validating/6/1s", policy: "Fail", timeoutSeconds: 20 },
    ],
    expectInvocations: [
      { path: "/mutating/1/1s", timeoutSeconds: 10 }, // from request
      { path: "/mutating/2/1s", timeoutSeconds: 5 }, // from webhook config (less than request - 1s consumed)
      { path: "/mutating/3/1s", timeoutSeconds: 8 }, // from request - 2s consumed
      { path: "/validating/4/1s", timeoutSeconds: 5 }, // from webhook config (less than request - 3s consumed by mutating)
      { path: "/validating/5/1s", timeoutSeconds: 7 }, // from request - 3s consumed by mutating
      { path: "/validating/6/1s", timeoutSeconds: 7 }, // from request - 3s consumed by mutating
    ],
  },
  {
    name: "timed out client requests skip later mutating webhooks (regardless of failure policy) and fail",
    timeoutSeconds: 3,
    mutatingWebhooks: [
      { path: "/mutating/1/5s", policy: "Ignore", timeoutSeconds: 4 },
      { path: "/mutating/2/1s", policy: "Ignore", timeoutSeconds: 5 },
      { path: "/mutating/3/1s", policy: "Ignore", timeoutSeconds: 5 },
    ],
    validatingWebhooks: [],
    expectInvocations: [{ path: "/mutating/1/5s", timeoutSeconds: 3 }], // from request
    expectError: true,
  },
];

/** The webhook's name: admission.integration.test.<j>.<path with dashes>. */
const hookName = (j: number, path: string) => `admission.integration.test.${j}.${path.slice(1).replaceAll("/", "-")}`;

/** timeoutRecorder.RecordInvocation's order: mutating as called, then validating by path. */
function ordered(invocations: Invocation[]): Invocation[] {
  const mutating = invocations.filter((i) => !i.path.includes("validating"));
  const validating = invocations.filter((i) => i.path.includes("validating")).sort((a, b) => (a.path < b.path ? -1 : 1));
  return [...mutating, ...validating];
}

describe("TestWebhookTimeoutWithWatchCache / WithoutWatchCache", () => {
  let s: TestServer;
  let hook: WebhookServer;
  beforeAll(async () => {
    [s, hook] = await Promise.all([startTestServer(), startWebhookServer()]);
    // timeoutMarkerFixture: patched until every webhook of a case has seen it.
    const marker = {
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: "marker" },
      spec: { containers: [{ name: "fake-name", image: "fakeimage" }] },
    };
    const r = await s.send("POST", "/api/v1/namespaces/default/pods", marker);
    expect(r.status, r.text).toBe(201);
  });
  afterAll(async () => {
    await Promise.all([s?.close(), hook?.close()]);
  });

  const configuration = (i: number, hooks: TestWebhook[]) => ({
    metadata: { name: `admission.integration.test-${i}` },
    webhooks: hooks.map((w, j) => ({
      name: hookName(j, w.path),
      clientConfig: { url: `${hook.url}${w.path}`, caBundle: hook.caBundle },
      rules: [{ operations: ["*"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"] }],
      failurePolicy: w.policy,
      timeoutSeconds: w.timeoutSeconds,
      admissionReviewVersions: ["v1beta1"],
      sideEffects: "None",
    })),
  });

  it.each(cases.map((c, i) => [c.name, c, i] as const))("%s", async (_name, tt, i) => {
    const ns = `reinvoke-${i}`;
    expect((await s.send("POST", "/api/v1/namespaces", { metadata: { name: ns } })).status).toBe(201);
    const made: string[] = [];
    for (const [kind, hooks] of [
      ["mutating", tt.mutatingWebhooks],
      ["validating", tt.validatingWebhooks],
    ] as const) {
      const path = `${arv1}/${kind}webhookconfigurations`;
      const r = await s.send("POST", path, configuration(i, hooks));
      expect(r.status, r.text).toBe(201);
      made.push(`${path}/admission.integration.test-${i}`);
    }
    // Wait until the new webhooks are called the first time.
    const seen = hook.reviews.length;
    await eventually(
      async () => {
        await s.send("PATCH", "/api/v1/namespaces/default/pods/marker", [], "application/json-patch+json");
        const markers = new Set(hook.reviews.slice(seen).flatMap((v) => (v.request.name === "marker" ? [v.path] : [])));
        return [...tt.mutatingWebhooks, ...tt.validatingWebhooks].every((w) => markers.has(w.path));
      },
      { what: `the webhooks of "${tt.name}" in effect` },
    );

    const pod = {
      apiVersion: "v1",
      kind: "Pod",
      metadata: { namespace: ns, name: "labeled", labels: { x: "true" } },
      spec: { containers: [{ name: "fake-name", image: "fakeimage" }] },
    };
    const from = hook.reviews.length;
    // The timeout parameter set by hand, so that the server answers rather than the client giving up.
    const r = await s.send("POST", `/api/v1/namespaces/${ns}/pods?timeout=${tt.timeoutSeconds}s`, pod);
    if (tt.expectError) {
      expect(r.status, r.text).toBe(504);
      expect(r.json()).toMatchObject({
        reason: "Timeout",
        message: expect.stringContaining("request did not complete within requested timeout"),
      });
    } else {
      expect(r.status, r.text).toBe(201);
    }
    const invocations = hook.reviews
      .slice(from)
      .filter((v) => v.request.namespace === ns)
      .map((v) => ({ path: v.path, timeoutSeconds: Number((v.timeout ?? "").replace(/s$/, "")) }));
    expect(ordered(invocations)).toEqual(tt.expectInvocations);
    for (const path of made) expect((await s.request(path, { method: "DELETE" })).status).toBe(200);
  });
});
