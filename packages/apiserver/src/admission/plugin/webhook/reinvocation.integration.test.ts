/**
 * Upstream's TestWebhookReinvocationPolicyWithWatchCache / WithoutWatchCache
 * (test/integration/apiserver/admissionwebhook/reinvocation_test.go testWebhookReinvocationPolicy)
 * over HTTP, with upstream's table: Pods created by an impersonated client in a namespace per row,
 * mutated by webhooks with reinvocationPolicy IfNeeded or Never; each row checks the Pod's labels,
 * how often each webhook was called, and the create's audit Event in the log file of
 * `--audit-log-path` under the `--audit-policy-file` policy (level Request for pods): its
 * `mutation.webhook.admission.k8s.io/round_R_index_I` and
 * `patch.webhook.admission.k8s.io/round_R_index_I` annotations, exactly.
 * Rows 2 and 6 check the chain's second pass (admission/reinvocation.go): the Priority plugin runs
 * again after a webhook changed `spec.priorityClassName`, resolving it anew (row 2) or refusing an
 * unknown class (row 6).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eventually } from "@servicenet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditConfigFromFlags } from "../../../audit/options.ts";
import { parseUpOptions } from "../../../controlplane/options.ts";
import { startTestServer, type TestServer } from "../../../server/testing.ts";
import { cfg, mutationAnnotationValue, rows, type Row } from "./reinvocation-testing.ts";
import { startWebhookServer, type RecordedReview, type WebhookHandler, type WebhookServer } from "./testing.ts";

const testReinvocationClientUsername = "webhook-reinvocation-integration-client";
// Upstream's policy, and one more rule (Services at Metadata) for the patch annotation's level.
const auditPolicy = `
apiVersion: audit.k8s.io/v1
kind: Policy
rules:
  - level: Request
    resources:
      - group: "" # core
        resources: ["pods"]
  - level: Metadata
    resources:
      - group: "" # core
        resources: ["services"]
`;

type Obj = { metadata: { name: string; labels?: Record<string, string> } };
type AuditEvent = Record<string, unknown> & {
  level: string;
  stage: string;
  verb: string;
  requestURI: string;
  annotations?: Record<string, string>;
};

const patch = (text: string) => ({ allowed: true, patchType: "JSONPatch", patch: Buffer.from(text).toString("base64") });
const labelsOf = (r: RecordedReview["request"]) => r.object?.metadata?.labels ?? {};
const fromClient = (r: RecordedReview["request"]) =>
  (r["userInfo"] as { username?: string } | undefined)?.username === testReinvocationClientUsername;

/** newReinvokeWebhookHandler: requests of other users are allowed untouched. */
const forClient =
  (answer: (r: RecordedReview["request"]) => Record<string, unknown>): WebhookHandler =>
  (r) =>
    fromClient(r) ? answer(r) : { allowed: true };
const handlers: Record<string, WebhookHandler> = {
  "/noop": forClient(() => ({ allowed: true })),
  "/settrue": forClient(() => patch(`[{"op": "replace", "path": "/metadata/labels/fight", "value": "true"}]`)),
  "/setfalse": forClient(() => patch(`[{"op": "replace", "path": "/metadata/labels/fight", "value": "false"}]`)),
  "/addlabel": forClient((r) =>
    labelsOf(r)["a"] !== "true" ? patch(`[{"op": "add", "path": "/metadata/labels/a", "value": "true"}]`) : { allowed: true },
  ),
  // if 'a' is set, set 'b' to true
  "/conditionaladdlabel": forClient((r) =>
    "a" in labelsOf(r) ? patch(`[{"op": "add", "path": "/metadata/labels/b", "value": "true"}]`) : { allowed: true },
  ),
  "/reinvocation-marker": forClient(() => ({ allowed: true })),
  // sets /spec/priorityClassName to high-priority if it is not already set
  "/setpriority": forClient((r) => {
    const spec = (r.object as { spec?: { priorityClassName?: string; priority?: number } } | undefined)?.spec ?? {};
    if (spec.priorityClassName === "high-priority") return { allowed: true };
    return spec.priority !== undefined
      ? patch(`[{"op": "add", "path": "/spec/priorityClassName", "value": "high-priority"},{"op": "remove", "path": "/spec/priority"}]`)
      : patch(`[{"op": "add", "path": "/spec/priorityClassName", "value": "high-priority"}]`);
  }),
  "/setinvalidpriority": forClient(() => patch(`[{"op": "add", "path": "/spec/priorityClassName", "value": "invalid"}]`)),
};

describe("TestWebhookReinvocationPolicyWithWatchCache / WithoutWatchCache", () => {
  let s: TestServer;
  let hook: WebhookServer;
  let dir: string;
  let logFile: string;
  const impersonate = { "Impersonate-User": testReinvocationClientUsername, "Impersonate-Group": "system:masters" };
  const call = (method: string, path: string, body?: unknown, contentType = "application/json") =>
    s.request(path, {
      method,
      headers: { ...impersonate, ...(body !== undefined ? { "Content-Type": contentType } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "servicenet-reinvocation-"));
    const policyFile = join(dir, "audit-policy.yaml");
    writeFileSync(policyFile, auditPolicy);
    logFile = join(dir, "audit.log");
    const o = parseUpOptions(["--audit-policy-file", policyFile, "--audit-log-path", logFile]);
    const audit = auditConfigFromFlags(o.auditPolicyFile, o.auditLogPath);
    [s, hook] = await Promise.all([startTestServer(audit ? { audit } : {}), startWebhookServer(["127.0.0.1"], handlers)]);
    // testWebhookReinvocationPolicy's PriorityClasses, which the rows' initialPriorityClass names.
    for (const [name, value] of [
      ["low-priority", 1],
      ["high-priority", 10],
    ] as const) {
      const r = await s.send("POST", "/apis/scheduling.k8s.io/v1/priorityclasses", { metadata: { name }, value });
      expect(r.status, r.text).toBe(201);
    }
  });
  afterAll(async () => {
    await Promise.all([s?.close(), hook?.close()]);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** The test client's calls of `path` since review `from`. */
  const count = (from: number, path: string) => hook.reviews.slice(from).filter((v) => v.path === path && fromClient(v.request)).length;
  /** The audit log's events, and the file emptied for the next row (upstream truncates it). */
  const takeEvents = (): AuditEvent[] => {
    const lines = readFileSync(logFile, "utf8")
      .split("\n")
      .filter((l) => l !== "");
    writeFileSync(logFile, "");
    return lines.map((l) => JSON.parse(l) as AuditEvent);
  };
  const annotationsWithPrefix = (ev: AuditEvent, prefix: string) =>
    Object.fromEntries(Object.entries(ev.annotations ?? {}).filter(([k]) => k.startsWith(prefix)));

  const webhook = (name: string, path: string, extra: Record<string, unknown>) => ({
    name,
    clientConfig: { url: `${hook.url}${path}`, caBundle: hook.caBundle },
    rules: [{ operations: ["*"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"] }],
    admissionReviewVersions: ["v1beta1"],
    sideEffects: "None",
    ...extra,
  });

  /** Namespaces of a row, its configuration, and the wait until the configuration is in effect. */
  async function configure(index: number, hooks: Record<string, unknown>[]): Promise<string> {
    const ns = `reinvoke-${index}`;
    const markerNs = `${ns}-markers`;
    for (const [name, labels] of [
      [ns, { "test-case": String(index) }],
      [markerNs, { "test-markers": String(index) }],
    ] as const) {
      const r = await call("POST", "/api/v1/namespaces", { metadata: { name, labels } });
      expect(r.status, r.text).toBe(201);
    }
    const pod = {
      metadata: { name: "marker", labels: { marker: "true" } },
      spec: { containers: [{ name: "fake-name", image: "fakeimage" }] },
    };
    expect((await call("POST", `/api/v1/namespaces/${markerNs}/pods`, pod)).status).toBe(201);
    const marker = webhook("admission.integration.test.marker", "/reinvocation-marker", {
      namespaceSelector: { matchLabels: { "test-markers": String(index) } },
      objectSelector: { matchLabels: { marker: "true" } },
    });
    const r = await call("POST", "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations", {
      metadata: { name: cfg(index) },
      webhooks: [...hooks, marker],
    });
    expect(r.status, r.text).toBe(201);
    const from = hook.reviews.length;
    await eventually(
      async () => {
        await call("PATCH", `/api/v1/namespaces/${markerNs}/pods/marker`, [], "application/json-patch+json");
        return count(from, "/reinvocation-marker") > 0;
      },
      { what: `webhook configuration ${cfg(index)} in effect` },
    );
    return ns;
  }

  it.each(rows.map((r) => [`${r.name} (upstream row ${r.index})`, r] as const))("%s", async (_title, tt) => {
    const hooks = tt.webhooks.map((w, j) =>
      webhook(`admission.integration.test.${j}.${w.path.slice(1)}`, w.path, {
        namespaceSelector: { matchLabels: { "test-case": String(tt.index) } },
        failurePolicy: "Fail",
        ...(w.objectSelector ? { objectSelector: w.objectSelector } : {}),
        ...(w.policy ? { reinvocationPolicy: w.policy } : {}),
      }),
    );
    const ns = await configure(tt.index, hooks);
    try {
      await createAndCheck(tt, ns);
    } finally {
      // Upstream deletes each row's configuration when the row ends: the indexes count every configuration's webhooks.
      await call("DELETE", `/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/${cfg(tt.index)}`);
    }
  });

  async function createAndCheck(tt: Row, ns: string): Promise<void> {
    takeEvents();
    const from = hook.reviews.length;
    const pod = {
      metadata: { namespace: ns, name: "labeled", labels: { x: "true" } },
      spec: {
        containers: [{ name: "fake-name", image: "fakeimage" }],
        ...(tt.initialPriorityClass ? { priorityClassName: tt.initialPriorityClass } : {}),
      },
    };
    const r = await call("POST", `/api/v1/namespaces/${ns}/pods`, pod);
    if (tt.errorContains !== undefined) {
      expect(r.status, r.text).toBeGreaterThanOrEqual(400);
      expect((r.json() as { message: string }).message).toContain(tt.errorContains);
      for (const [path, n] of Object.entries(tt.expectInvocations)) expect(count(from, path), `invocations of ${path}`).toBe(n);
      return;
    }
    expect(r.status, r.text).toBe(201);
    if (tt.expectLabels) expect((r.json() as Obj).metadata.labels).toEqual(tt.expectLabels);
    for (const [path, n] of Object.entries(tt.expectInvocations)) expect(count(from, path), `invocations of ${path}`).toBe(n);

    // expectedAuditEvents: the create's ResponseComplete event, with its request object and no response.
    const events = takeEvents().filter((e) => e.stage === "ResponseComplete" && e.verb === "create");
    expect(events.map((e) => e.requestURI)).toEqual([`/api/v1/namespaces/${ns}/pods`]);
    const ev = events[0]!;
    expect(ev).toMatchObject({
      level: "Request",
      responseStatus: { code: 201 },
      impersonatedUser: { username: testReinvocationClientUsername, groups: ["system:masters", "system:authenticated"] },
      objectRef: { resource: "pods", namespace: ns },
      annotations: { "authorization.k8s.io/decision": "allow" },
    });
    expect(ev["requestObject"]).toBeDefined();
    expect(ev["responseObject"]).toBeUndefined();
    expect(annotationsWithPrefix(ev, "mutation.webhook.admission.k8s.io/")).toEqual(tt.expectAuditMutationAnnotations ?? {});
    expect(annotationsWithPrefix(ev, "patch.webhook.admission.k8s.io/")).toEqual(tt.expectAuditPatchAnnotations ?? {});
  }

  it("a refused request's Event keeps the annotations of the call that failed (admission.WithAudit)", async () => {
    const index = 101;
    const ns = await configure(index, [
      webhook("admission.integration.test.0.missing", "/no-such-path", {
        namespaceSelector: { matchLabels: { "test-case": String(index) } },
        failurePolicy: "Fail",
      }),
    ]);
    takeEvents();
    const pod = { metadata: { name: "refused" }, spec: { containers: [{ name: "fake-name", image: "fakeimage" }] } };
    const r = await call("POST", `/api/v1/namespaces/${ns}/pods`, pod);
    expect(r.status, r.text).toBe(500);
    const [ev] = takeEvents().filter((e) => e.stage === "ResponseComplete" && e.verb === "create");
    expect(ev).toMatchObject({ level: "Request", responseStatus: { code: 500 } });
    expect(annotationsWithPrefix(ev!, "mutation.webhook.admission.k8s.io/")).toEqual({
      "mutation.webhook.admission.k8s.io/round_0_index_0": mutationAnnotationValue(
        cfg(index),
        "admission.integration.test.0.missing",
        false,
      ),
    });
    await call("DELETE", `/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/${cfg(index)}`);
  });

  it("an Event at level Metadata keeps the mutation annotation, not the patch (AddAnnotationWithLevel, LevelRequest)", async () => {
    const index = 100;
    const hooks = [
      {
        ...webhook("admission.integration.test.0.addlabel", "/addlabel", { namespaceSelector: { matchLabels: { "test-case": "100" } } }),
        rules: [{ operations: ["*"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods", "services"] }],
      },
    ];
    const ns = await configure(index, hooks);
    takeEvents();
    const r = await call("POST", `/api/v1/namespaces/${ns}/services`, {
      metadata: { name: "labeled", labels: { x: "true" } },
      spec: { ports: [{ port: 80 }] },
    });
    expect(r.status, r.text).toBe(201);
    expect((r.json() as Obj).metadata.labels).toEqual({ x: "true", a: "true" });
    const [ev] = takeEvents().filter((e) => e.stage === "ResponseComplete" && e.verb === "create");
    expect(ev).toMatchObject({ level: "Metadata", requestURI: `/api/v1/namespaces/${ns}/services` });
    expect(ev!["requestObject"]).toBeUndefined();
    expect(annotationsWithPrefix(ev!, "mutation.webhook.admission.k8s.io/")).toEqual({
      "mutation.webhook.admission.k8s.io/round_0_index_0": mutationAnnotationValue(
        cfg(index),
        "admission.integration.test.0.addlabel",
        true,
      ),
    });
    expect(annotationsWithPrefix(ev!, "patch.webhook.admission.k8s.io/")).toEqual({});
  });
});
