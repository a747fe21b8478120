/**
 * Upstream's TestWebhookAdmissionWithWatchCache / WithoutWatchCache
 * (test/integration/apiserver/admissionwebhook/admission_test.go testWebhookAdmission) over HTTP:
 * every resource and subresource this server's discovery lists with a write verb is written with
 * each of its verbs, by an impersonated client, through eight webhooks that match everything
 * (AdmissionReview v1 and v1beta1, mutating and validating, by exact rules and by matchPolicy
 * Equivalent); each must see the request upstream's holder expects (resource and subresource,
 * operation, name and namespace, object and oldObject with the resource's kind, the options' kind)
 * and its warning must come back. Stub objects are upstream's (test/integration/etcd/data.go and
 * the test's stubDataOverrides). The admission configuration kinds must not be sent to webhooks.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "@servicenet/testing";
import { startTestServer, type TestServer, type TestResponse } from "../../../server/testing.ts";
import { startWebhookServer, type RecordedReview, type WebhookHandler, type WebhookServer } from "./testing.ts";
import { testNamespace } from "./admission-stubs-testing.ts";
import {
  convertedResources,
  discoverResources,
  gvkOf,
  recordMatches,
  testClientUsername,
  verifyRecord,
  type AdmissionRecord,
  type AdmissionRecorder,
  type DiscoveredResources,
  type Expectation,
} from "../admission-matrix-testing.ts";
import { AdmissionMatrix } from "../admission-matrix-verbs-testing.ts";

const phases = ["mutation", "validation"] as const;
const versions = ["v1", "v1beta1"] as const;

/** One of the eight webhooks (upstream's webhookOptions). */
interface WebhookOptions {
  version: (typeof versions)[number];
  phase: (typeof phases)[number];
  converted: boolean;
}
const allOptions: WebhookOptions[] = versions.flatMap((version) =>
  phases.flatMap((phase) => [false, true].map((converted) => ({ version, phase, converted }))),
);
const pathOf = (o: WebhookOptions) => `/${o.version}${o.converted ? "/convert" : ""}/${o.phase}`;
const makeWarning = (o: WebhookOptions) => `${o.version}/${o.phase}/${String(o.converted)}`;

/** newV1WebhookHandler / newV1beta1WebhookHandler: admitted, a warning, and for mutation a patch adding a field. */
const handler =
  (o: WebhookOptions): WebhookHandler =>
  (r) => ({
    allowed: true,
    status: { message: "admitted" },
    warnings: [makeWarning(o)],
    ...(o.phase === "mutation" && r.object
      ? {
          patchType: "JSONPatch",
          patch: Buffer.from(JSON.stringify([{ op: "add", path: o.version === "v1" ? "/bar" : "/foo", value: "test" }])).toString("base64"),
        }
      : {}),
  });

/** rules.IsExemptAdmissionConfigurationResource: these kinds are never sent to webhooks. */
const exemptKinds = new Set([
  "ValidatingWebhookConfiguration",
  "MutatingWebhookConfiguration",
  "ValidatingAdmissionPolicy",
  "ValidatingAdmissionPolicyBinding",
]);

/**
 * Reviews whose REST.Create takes no createValidation, so no validating plugin sees them
 * (pkg/registry/authorization/selfsubjectrulesreview/rest.go); mutating admission still does.
 */
const notValidated = new Set(["authorization.k8s.io/v1/selfsubjectrulesreviews"]);

/** An AdmissionReview's request as a record of what the webhook saw. */
function recordOf(v: RecordedReview): AdmissionRecord {
  const q = v.request as RecordedReview["request"] & {
    resource: { group: string; version: string; resource: string };
    subResource?: string;
  };
  const gv = q.resource.group === "" ? q.resource.version : `${q.resource.group}/${q.resource.version}`;
  const objectGVK = (o: unknown) => (o === undefined || o === null ? null : gvkOf(o));
  const options = q["options"] as { kind?: string; apiVersion?: string } | null | undefined;
  return {
    gvr: `${gv}/${q.resource.resource}${q.subResource ? `/${q.subResource}` : ""}`,
    operation: q.operation,
    name: q.name ?? "",
    namespace: q.namespace ?? "",
    object: objectGVK(q.object),
    oldObject: objectGVK(q["oldObject"]),
    options: options ? { apiVersion: options.apiVersion ?? "", kind: options.kind ?? "" } : null,
  };
}

describe("TestWebhookAdmissionWithWatchCache / WithoutWatchCache", () => {
  let s: TestServer;
  let hook: WebhookServer;
  let d: DiscoveredResources;
  let converted: ReturnType<typeof convertedResources>;

  /** holder.record + holder.verify over the reviews since `from`, and the webhooks' warnings. */
  const recorder: AdmissionRecorder = {
    mark: () => hook.reviews.length,
    check(e: Expectation, from: number, res: TestResponse): void {
      const warnings = res.headers.get("warning") ?? "";
      const reviews = hook.reviews
        .slice(from)
        .filter((v) => (v.request["userInfo"] as { username: string }).username === testClientUsername);
      for (const o of allOptions) {
        const gvr = o.converted ? converted.gvr.get(e.gvr)! : e.gvr;
        const record = reviews
          .filter((v) => v.path === pathOf(o))
          .map(recordOf)
          .filter((r) => recordMatches(e, gvr, r))
          .at(-1);
        const what = `${e.gvr} ${e.operation} ${makeWarning(o)}`;
        if (exemptKinds.has(e.kind.kind) || (o.phase === "validation" && notValidated.has(e.gvr))) {
          expect.soft(record, `${what}: admission webhook was called, but not supposed to`).toBeUndefined();
          continue;
        }
        verifyRecord(e, o.converted ? converted.gvk.get(e.gvr)! : e.kind, record, what);
        if (record !== undefined) expect.soft(warnings, `${what}: no warning received from webhook`).toContain(makeWarning(o));
      }
    },
  };

  beforeAll(async () => {
    [s, hook] = await Promise.all([
      startTestServer(),
      startWebhookServer(["127.0.0.1"], Object.fromEntries(allOptions.map((o) => [pathOf(o), handler(o)]))),
    ]);
    expect((await s.send("POST", "/api/v1/namespaces", { metadata: { name: testNamespace } })).status).toBe(201);
    d = await discoverResources(s);
    converted = convertedResources(d);
    for (const version of versions) {
      for (const phase of phases) {
        const kind = phase === "mutation" ? "mutating" : "validating";
        const webhook = (convert: boolean) => ({
          name: `admission${version}.integration.test${convert ? "conversion" : ""}`,
          clientConfig: { url: `${hook.url}${pathOf({ version, phase, converted: convert })}`, caBundle: hook.caBundle },
          rules: convert ? converted.rules : [{ operations: ["*"], apiGroups: ["*"], apiVersions: ["*"], resources: ["*/*"] }],
          failurePolicy: "Fail",
          ...(convert ? { matchPolicy: "Equivalent" } : {}),
          admissionReviewVersions: [version],
          sideEffects: "None",
        });
        const r = await s.send("POST", `/apis/admissionregistration.k8s.io/v1/${kind}webhookconfigurations`, {
          metadata: { name: `${phase}.${version}.integration.test` },
          webhooks: [webhook(false), webhook(true)],
        });
        expect(r.status, r.text).toBe(201);
      }
    }
    // Allow the webhooks to establish: every one sees a dry-run create.
    await eventually(
      async () => {
        const seen = hook.reviews.length;
        await s.send("POST", "/api/v1/namespaces/default/configmaps?dryRun=All", { metadata: { name: "marker" } });
        await s.send("POST", "/api/v1/namespaces/default/secrets?dryRun=All", { metadata: { name: "marker" } });
        const paths = new Set(hook.reviews.slice(seen).map((v) => v.path));
        return allOptions.every((o) => paths.has(pathOf(o)));
      },
      { what: "the eight webhooks in effect" },
    );
  });
  afterAll(async () => {
    await Promise.all([s?.close(), hook?.close()]);
  });

  it("every served resource and verb reaches the webhooks as upstream expects", async () => {
    expect(d.toTest.length).toBeGreaterThan(30);
    await new AdmissionMatrix(s, d, recorder).run();
  });
});
