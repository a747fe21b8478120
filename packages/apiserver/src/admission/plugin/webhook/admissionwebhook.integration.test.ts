/**
 * Admission webhooks over HTTP and HTTPS, after upstream's test/integration/apiserver/admissionwebhook
 * (admission_test.go, timeout_test.go, reinvocation_test.go, match_conditions_test.go,
 * broken_webhook_test.go, duplicate_owner_ref_test.go, invalid_managedFields_test.go, load_balance_test.go): configurations are created through the API, followed by the plugins'
 * informers (a dry-run marker Service tells when a webhook is in effect), and an HTTPS webhook with
 * a CA made here answers. Each case selects its own objects by a `test` label.
 */
import { eventually } from "@servicenet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kubectl133, startTestServer, type TestServer } from "../../../server/testing.ts";
import { createCRD, noxuCRD } from "../../../apiextensions/test/integration/fixtures-testing.ts";
import { startWebhookServer, type WebhookServer } from "./testing.ts";

const json = { "Content-Type": "application/json" };
const arv1 = "/apis/admissionregistration.k8s.io/v1";
const services = "/api/v1/namespaces/default/services";

interface HookSpec {
  name: string;
  path?: string;
  url?: string;
  test: string;
  failurePolicy?: "Fail" | "Ignore";
  timeoutSeconds?: number;
  reinvocationPolicy?: "Never" | "IfNeeded";
  sideEffects?: string;
  matchConditions?: { name: string; expression: string }[];
  namespaceSelector?: Record<string, unknown>;
  /** Rules beside the one for Services (which the readiness marker needs). */
  extraRules?: Record<string, unknown>[];
  admissionReviewVersions?: string[];
  /** The label the objectSelector matches `test` on (kubectl sets `app`). */
  selectOn?: "test" | "app";
}

describe("admission webhooks", () => {
  let s: TestServer;
  let hook: WebhookServer;
  let configs = 0;
  beforeAll(async () => {
    [s, hook] = await Promise.all([startTestServer(), startWebhookServer()]);
  });
  afterAll(async () => {
    await Promise.all([s?.close(), hook?.close()]);
  });

  const webhook = (h: HookSpec) => ({
    name: h.name,
    clientConfig: { url: h.url ?? `${hook.url}${h.path ?? "/allow"}`, caBundle: hook.caBundle },
    rules: [{ operations: ["CREATE", "UPDATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["services"] }, ...(h.extraRules ?? [])],
    objectSelector: { matchLabels: { [h.selectOn ?? "test"]: h.test } },
    sideEffects: h.sideEffects ?? "None",
    admissionReviewVersions: h.admissionReviewVersions ?? ["v1"],
    ...(h.failurePolicy ? { failurePolicy: h.failurePolicy } : {}),
    ...(h.timeoutSeconds ? { timeoutSeconds: h.timeoutSeconds } : {}),
    ...(h.reinvocationPolicy ? { reinvocationPolicy: h.reinvocationPolicy } : {}),
    ...(h.matchConditions ? { matchConditions: h.matchConditions } : {}),
    ...(h.namespaceSelector ? { namespaceSelector: h.namespaceSelector } : {}),
  });

  const service = (name: string, test: string, namespace = "default") => ({
    apiVersion: "v1",
    kind: "Service",
    metadata: { name, namespace, labels: { test, app: test } },
    spec: { ports: [{ port: 80 }] },
  });

  const createService = (name: string, test: string, query = "", namespace = "default") =>
    s.request(`/api/v1/namespaces/${namespace}/services${query}`, {
      method: "POST",
      headers: json,
      body: JSON.stringify(service(name, test, namespace)),
    });

  /** Creates a configuration and waits until its webhooks see a dry-run marker of `test`. */
  async function configure(kind: "Validating" | "Mutating", hooks: HookSpec[], test: string, namespace = "default"): Promise<void> {
    const name = `config-${++configs}`;
    const r = await s.request(`${arv1}/${kind.toLowerCase()}webhookconfigurations`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ metadata: { name }, webhooks: hooks.map(webhook) }),
    });
    expect(r.status, r.text).toBe(201);
    const seen = hook.reviews.length;
    await eventually(
      async () => {
        await createService(`marker-${configs}`, test, "?dryRun=All", namespace);
        return hook.reviews.slice(seen).some((v) => v.request.name === `marker-${configs}`) || hooks.some((h) => h.url !== undefined);
      },
      { what: `webhook configuration ${name} in effect` },
    );
    hook.reviews.length = 0;
  }

  it("TestWebhookAdmission: a denial in upstream's words, with the webhook's code and reason; nothing stored or allocated", async () => {
    await configure("Validating", [{ name: "deny.example.com", path: "/deny", test: "deny" }], "deny");
    const before = ((await s.request("/apis/networking.k8s.io/v1/ipaddresses")).json() as { items: unknown[] }).items.length;
    const r = await createService("denied", "deny");
    expect(r.status).toBe(403);
    const st = r.json() as { message: string; reason: string; code: number };
    expect(st).toMatchObject({
      message: 'admission webhook "deny.example.com" denied the request: services are not allowed here',
      reason: "Forbidden",
      code: 403,
    });
    expect((await s.request(`${services}/denied`)).status).toBe(404);
    const after = ((await s.request("/apis/networking.k8s.io/v1/ipaddresses")).json() as { items: unknown[] }).items.length;
    expect(after).toBe(before);
    // The AdmissionReview the webhook got.
    const review = hook.reviews.find((v) => v.request.name === "denied")!.request;
    expect(review).toMatchObject({
      kind: { group: "", version: "v1", kind: "Service" },
      resource: { group: "", version: "v1", resource: "services" },
      requestKind: { group: "", version: "v1", kind: "Service" },
      namespace: "default",
      operation: "CREATE",
      dryRun: false,
      oldObject: null,
      options: { kind: "CreateOptions", apiVersion: "meta.k8s.io/v1" },
    });
    expect(review.object?.metadata?.name).toBe("denied");
    expect(typeof review.uid).toBe("string");
  });

  it("a denial without a message: 400 and 'without explanation'", async () => {
    await configure("Validating", [{ name: "silent.example.com", path: "/deny-silent", test: "silent" }], "silent");
    const r = await createService("silent", "silent");
    expect(r.status).toBe(400);
    expect((r.json() as { message: string }).message).toBe('admission webhook "silent.example.com" denied the request without explanation');
  });

  it("a webhook's warnings become Warning headers", async () => {
    await configure("Validating", [{ name: "warn.example.com", path: "/warn", test: "warn" }], "warn");
    const r = await createService("warned", "warn");
    expect(r.status, r.text).toBe(201);
    expect(r.headers.get("warning")).toBe('299 - "a warning from the webhook"');
  });

  it("warnings keep the order they happen in: decoding, mutating admission, the strategy, validating admission", async () => {
    await configure("Mutating", [{ name: "warn-mutating.example.com", path: "/warn-mutating", test: "order" }], "order");
    await configure("Validating", [{ name: "warn-validating.example.com", path: "/warn-validating", test: "order" }], "order");
    // create.go, update.go and patch.go add each warning to the request context as it occurs;
    // rest.BeforeCreate/BeforeUpdate add the strategy's between mutating and validating admission.
    const order = (decoded: string): string =>
      [
        decoded,
        "a warning from the mutating webhook",
        "annotation service.kubernetes.io/topology-aware-hints is deprecated, please use service.kubernetes.io/topology-mode instead",
        "a warning from the validating webhook",
      ]
        .map((w) => `299 - ${JSON.stringify(w)}`)
        .join(", ");
    const svc = service("ordered", "order");
    const body = { ...svc, metadata: { ...svc.metadata, annotations: { "service.kubernetes.io/topology-aware-hints": "auto" } } };
    const created = await s.send("POST", `${services}?fieldValidation=Warn`, { ...body, bogus: 1 });
    expect(created.status, created.text).toBe(201);
    expect(created.headers.get("warning")).toBe(order('unknown field "bogus"'));
    const updated = await s.send("PUT", `${services}/ordered?fieldValidation=Warn`, { ...(created.json() as object), bogus: 2 });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.headers.get("warning")).toBe(order('unknown field "bogus"'));
    const patched = await s.send(
      "PATCH",
      `${services}/ordered?fieldValidation=Warn`,
      { spec: { bogus: 3 } },
      "application/merge-patch+json",
    );
    expect(patched.status, patched.text).toBe(200);
    expect(patched.headers.get("warning")).toBe(order('unknown field "spec.bogus"'));
    const applied = await s.send(
      "PATCH",
      `${services}/ordered?fieldManager=order&fieldValidation=Warn`,
      { apiVersion: "v1", kind: "Service", metadata: { name: "ordered" }, spec: { bogus: 4 } },
      "application/apply-patch+yaml",
    );
    expect(applied.status, applied.text).toBe(200);
    expect(applied.headers.get("warning")).toBe(order('unknown field "spec.bogus"'));
  });

  it("TestMutatingWebhook: a JSONPatch adds a label before the object is stored", async () => {
    await configure("Mutating", [{ name: "label.example.com", path: "/add-label", test: "mutate" }], "mutate");
    const r = await createService("mutated", "mutate");
    expect(r.status, r.text).toBe(201);
    expect((r.json() as { metadata: { labels: Record<string, string> } }).metadata.labels).toEqual({
      test: "mutate",
      app: "mutate",
      "webhook-added": "yes",
    });
    const stored = (await s.request(`${services}/mutated`)).json() as { metadata: { labels: Record<string, string> } };
    expect(stored.metadata.labels["webhook-added"]).toBe("yes");
  });

  it("TestMutatingWebhook: a JSONPatch adds a label to a custom resource", async () => {
    await createCRD(s, noxuCRD("Namespaced"));
    const rule = { operations: ["CREATE"], apiGroups: ["mygroup.example.com"], apiVersions: ["*"], resources: ["noxus"] };
    await configure("Mutating", [{ name: "cr-label.example.com", path: "/add-label", test: "cr", extraRules: [rule] }], "cr");
    const r = await s.request("/apis/mygroup.example.com/v1beta1/namespaces/default/noxus", {
      method: "POST",
      headers: json,
      body: JSON.stringify({
        apiVersion: "mygroup.example.com/v1beta1",
        kind: "WishIHadChosenNoxu",
        metadata: { name: "cr", labels: { test: "cr" } },
      }),
    });
    expect(r.status, r.text).toBe(201);
    expect((r.json() as { metadata: { labels: Record<string, string> } }).metadata.labels).toEqual({ test: "cr", "webhook-added": "yes" });
    const review = hook.reviews.find((v) => v.request.name === "cr")!.request;
    expect(review["resource"]).toEqual({ group: "mygroup.example.com", version: "v1beta1", resource: "noxus" });
  });

  it("admissionReviewVersions: the first known version is sent; a v1beta1 answer's patch needs no patchType", async () => {
    await configure(
      "Mutating",
      [{ name: "v1beta1.example.com", path: "/patch-without-type", test: "v1beta1", admissionReviewVersions: ["v2", "v1beta1", "v1"] }],
      "v1beta1",
    );
    // The answer that fails under v1 (next case) is taken from a v1beta1 webhook, as upstream always took it.
    const r = await createService("v1beta1", "v1beta1");
    expect(r.status, r.text).toBe(201);
    expect(hook.reviews.find((v) => v.request.name === "v1beta1")?.apiVersion).toBe("admission.k8s.io/v1beta1");
  });

  it("a mutating webhook's patch without patchType fails the request (failurePolicy Fail)", async () => {
    await configure("Mutating", [{ name: "notype.example.com", path: "/patch-without-type", test: "notype" }], "notype");
    const r = await createService("notype", "notype");
    expect(r.status).toBe(500);
    expect((r.json() as { message: string }).message).toBe(
      'Internal error occurred: failed calling webhook "notype.example.com": received invalid webhook response: webhook returned response.patch but not response.patchType',
    );
  });

  it("TestMutatingWebhookDuplicateOwnerReferences: owner references a webhook duplicated are deduplicated, with a warning", async () => {
    await configure("Mutating", [{ name: "dup-owner-references.example.com", path: "/duplicate-owner-reference", test: "dup" }], "dup");
    const uid = "7b4ff1f4-0d0e-4a6f-9d7a-1f0c7a9e0b11";
    const expected =
      '299 - ".metadata.ownerReferences contains duplicate entries after mutating admission happens; API server dedups owner references in 1.20+, and may reject such requests as early as 1.24; please fix your requests; duplicate UID(s) observed: ' +
      uid +
      '"';
    const owner = { apiVersion: "v1", kind: "Node", name: "fake-node", uid };
    const body = { ...service("dup", "dup"), metadata: { ...service("dup", "dup").metadata, ownerReferences: [owner] } };
    type Obj = { metadata: { ownerReferences: unknown[] } };
    const created = await s.send("POST", services, body);
    expect(created.status, created.text).toBe(201);
    expect(created.headers.get("warning")).toBe(expected);
    expect((created.json() as Obj).metadata.ownerReferences).toEqual([owner]);
    const patched = await s.send("PATCH", `${services}/dup`, [], "application/json-patch+json");
    expect(patched.status, patched.text).toBe(200);
    expect(patched.headers.get("warning")).toBe(expected);
    const updated = await s.send("PUT", `${services}/dup`, patched.json());
    expect(updated.status, updated.text).toBe(200);
    expect(updated.headers.get("warning")).toBe(expected);
    expect((updated.json() as Obj).metadata.ownerReferences).toEqual([owner]);
  });

  it("TestMutatingWebhookResetsInvalidManagedFields: managedFields a webhook broke are put back, with a warning", async () => {
    await configure("Mutating", [{ name: "invalid-managedfields.example.com", path: "/invalid-managed-fields", test: "mf" }], "mf");
    const expected =
      '299 - ".metadata.managedFields was in an invalid state after admission; this could be caused by an outdated mutating admission controller; please fix your requests: apiVersion must not be empty"';
    type Obj = {
      metadata: { managedFields: { manager: string; operation: string; apiVersion: string; fieldsType: string; fieldsV1: unknown }[] };
    };
    const valid = (o: Obj): void => {
      expect(o.metadata.managedFields.length).toBeGreaterThan(0);
      for (const e of o.metadata.managedFields) {
        expect(e.apiVersion).toBe("v1");
        expect(e.fieldsType).toBe("FieldsV1");
        expect(e.fieldsV1).toBeTypeOf("object");
      }
    };
    const created = await createService("managed", "mf");
    expect(created.status, created.text).toBe(201);
    expect(created.headers.get("warning")).toBe(expected);
    valid(created.json() as Obj);
    const patched = await s.send("PATCH", `${services}/managed`, [], "application/json-patch+json");
    expect(patched.status, patched.text).toBe(200);
    expect(patched.headers.get("warning")).toBe(expected);
    valid(patched.json() as Obj);
    const updated = await s.send("PUT", `${services}/managed`, patched.json());
    expect(updated.status, updated.text).toBe(200);
    expect(updated.headers.get("warning")).toBe(expected);
    valid(updated.json() as Obj);
    valid((await s.request(`${services}/managed`)).json() as Obj);
  });

  it("TestWebhookLoadBalance: concurrent calls open connections of their own; later calls reuse them (HTTP/1.1)", async () => {
    await configure("Validating", [{ name: "lb.example.com", path: "/slow", test: "lb" }], "lb");
    const batch = async (round: number): Promise<Set<number>> => {
      const names = Array.from({ length: 10 }, (_, i) => `lb-${round}-${i}`);
      const answers = await Promise.all(names.map((n) => createService(n, "lb")));
      for (const a of answers) expect(a.status, a.text).toBe(201);
      return new Set(hook.reviews.filter((v) => names.includes(v.request.name ?? "")).map((v) => v.connection));
    };
    // Calls that overlap get connections of their own (how many overlap depends on the machine)...
    const first = await batch(1);
    expect(first.size).toBeGreaterThan(1);
    // ... and stay open: the second batch opens only what it needs beyond them (none when 10 overlapped).
    const opened = hook.connections();
    await batch(2);
    expect(hook.connections() - opened).toBeLessThanOrEqual(10 - first.size);
  });

  it("TestWebhookReinvocationPolicy: an IfNeeded webhook is called again after a later one changed the object; Never is not", async () => {
    await configure(
      "Mutating",
      [
        { name: "a-ifneeded.example.com", path: "/allow", test: "reinvoke", reinvocationPolicy: "IfNeeded" },
        { name: "b-never.example.com", path: "/allow", test: "reinvoke" },
        { name: "c-label.example.com", path: "/add-label", test: "reinvoke" },
      ],
      "reinvoke",
    );
    const r = await createService("reinvoked", "reinvoke");
    expect(r.status, r.text).toBe(201);
    const calls = hook.reviews.filter((v) => v.request.name === "reinvoked").map((v) => v.path);
    expect(calls).toEqual(["/allow", "/allow", "/add-label", "/allow"]);
    // The second call of the IfNeeded webhook saw the label the later webhook added.
    const last = hook.reviews.filter((v) => v.request.name === "reinvoked").at(-1)!;
    expect(last.request.object?.metadata?.labels?.["webhook-added"]).toBe("yes");
  });

  it("TestMatchConditions: a false condition skips the webhook", async () => {
    await configure(
      "Validating",
      [
        {
          name: "cond.example.com",
          path: "/deny",
          test: "cond",
          matchConditions: [{ name: "not-skipped", expression: "object.metadata.name != 'skip-me'" }],
        },
      ],
      "cond",
    );
    expect((await createService("skip-me", "cond")).status).toBe(201);
    expect((await createService("not-me", "cond")).status).toBe(403);
  });

  it("namespaceSelector: only objects in namespaces with the labels", async () => {
    for (const [name, labels] of [
      ["hooked", { webhook: "on" }],
      ["unhooked", {}],
    ] as const) {
      const r = await s.request("/api/v1/namespaces", {
        method: "POST",
        headers: json,
        body: JSON.stringify({ metadata: { name, labels } }),
      });
      expect(r.status, r.text).toBe(201);
    }
    await configure(
      "Validating",
      [{ name: "ns.example.com", path: "/deny", test: "ns", namespaceSelector: { matchLabels: { webhook: "on" } } }],
      "ns",
      "hooked",
    );
    expect((await createService("in-hooked", "ns", "", "hooked")).status).toBe(403);
    expect((await createService("in-unhooked", "ns", "", "unhooked")).status).toBe(201);
  });

  it("dryRun: a webhook with sideEffects NoneOnDryRun is called with dryRun true", async () => {
    await configure("Validating", [{ name: "dry.example.com", path: "/allow", test: "dry", sideEffects: "NoneOnDryRun" }], "dry");
    const r = await createService("dry", "dry", "?dryRun=All");
    expect(r.status, r.text).toBe(201);
    expect(hook.reviews.find((v) => v.request.name === "dry")?.request.dryRun).toBe(true);
  });

  it("TestWebhookTimeout: failurePolicy Fail answers 500 with the deadline, Ignore admits; the timeout is sent as a parameter", async () => {
    await configure(
      "Validating",
      [
        { name: "stall-fail.example.com", path: "/stall", test: "timeout-fail", timeoutSeconds: 1 },
        { name: "stall-ignore.example.com", path: "/stall", test: "timeout-ignore", timeoutSeconds: 1, failurePolicy: "Ignore" },
      ],
      "timeout-ignore",
    );
    const failed = await createService("timed-out", "timeout-fail");
    expect(failed.status).toBe(500);
    expect((failed.json() as { message: string }).message).toBe(
      `Internal error occurred: failed calling webhook "stall-fail.example.com": failed to call webhook: Post "${hook.url}/stall?timeout=1s": context deadline exceeded`,
    );
    expect((await createService("ignored", "timeout-ignore")).status).toBe(201);
    expect(hook.reviews.find((v) => v.request.name === "timed-out")?.timeout).toBe("1s");
  });

  it("TestBrokenWebhook: an unreachable URL fails closed with Go's dial error, or is ignored", async () => {
    const unreachable = "https://127.0.0.1:1/broken";
    await configure(
      "Validating",
      [
        { name: "broken-fail.example.com", url: unreachable, test: "broken-fail" },
        { name: "broken-ignore.example.com", url: unreachable, test: "broken-ignore", failurePolicy: "Ignore" },
      ],
      "broken-fail",
    );
    await eventually(async () => (await createService("probe", "broken-fail", "?dryRun=All")).status === 500, { what: "broken webhook" });
    const r = await createService("broken", "broken-fail");
    expect(r.status).toBe(500);
    expect(r.json()).toMatchObject({
      reason: "InternalError",
      message:
        'Internal error occurred: failed calling webhook "broken-fail.example.com": failed to call webhook: Post "https://127.0.0.1:1/broken?timeout=10s": dial tcp 127.0.0.1:1: connect: connection refused',
    });
    expect((await createService("broken-ignored", "broken-ignore")).status).toBe(201);
  });

  it("admission/metrics/metrics.go: request totals, latency, rejections and fail-open on /metrics", async () => {
    await configure(
      "Validating",
      [
        { name: "metrics-allow.example.com", path: "/allow", test: "metrics" },
        // 404 from the webhook: a calling error with the webhook's code, failed open.
        { name: "metrics-open.example.com", path: "/missing", test: "metrics", failurePolicy: "Ignore" },
      ],
      "metrics",
    );
    expect((await createService("metrics-allowed", "metrics")).status).toBe(201);
    await configure("Validating", [{ name: "metrics-deny.example.com", path: "/deny", test: "metrics-deny" }], "metrics-deny");
    expect((await createService("metrics-denied", "metrics-deny")).status).toBe(403);
    const text = (await s.request("/metrics")).text;
    const value = (series: string): number => {
      const line = text.split("\n").find((l) => l.startsWith(`${series} `));
      return line === undefined ? 0 : Number(line.slice(series.length + 1));
    };
    // Each configuration's dry-run marker was a call too.
    expect(
      value(
        'apiserver_admission_webhook_request_total{code="200",name="metrics-allow.example.com",operation="CREATE",rejected="false",type="validating"}',
      ),
    ).toBeGreaterThanOrEqual(2);
    expect(
      value(
        'apiserver_admission_webhook_request_total{code="404",name="metrics-open.example.com",operation="CREATE",rejected="false",type="validating"}',
      ),
    ).toBeGreaterThanOrEqual(2);
    expect(value('apiserver_admission_webhook_fail_open_count{name="metrics-open.example.com",type="validating"}')).toBeGreaterThanOrEqual(
      2,
    );
    expect(
      value(
        'apiserver_admission_webhook_rejection_count{error_type="no_error",name="metrics-deny.example.com",operation="CREATE",rejection_code="403",type="validating"}',
      ),
    ).toBeGreaterThanOrEqual(2);
    expect(
      value(
        'apiserver_admission_webhook_admission_duration_seconds_count{name="metrics-deny.example.com",operation="CREATE",rejected="true",type="validating"}',
      ),
    ).toBeGreaterThanOrEqual(2);
    expect(text).toContain("# TYPE apiserver_admission_webhook_admission_duration_seconds histogram");
    // No rejection is counted for a webhook that failed open.
    expect(text).not.toContain(
      'apiserver_admission_webhook_rejection_count{error_type="calling_webhook_error",name="metrics-open.example.com"',
    );
  });

  it.skipIf(kubectl133 === "")("kubectl 1.33: create service clusterip denied by a webhook, in upstream's words", async () => {
    await configure(
      "Validating",
      [{ name: "kubectl.example.com", path: "/deny", test: "kubectl-denied", selectOn: "app" }],
      "kubectl-denied",
    );
    const out = await s.kubectl(["create", "service", "clusterip", "kubectl-denied", "--tcp=80:80"]);
    expect(out.code).not.toBe(0);
    expect(out.stderr).toBe(
      'error: failed to create ClusterIP service: admission webhook "kubectl.example.com" denied the request: services are not allowed here\n',
    );
  });
});
