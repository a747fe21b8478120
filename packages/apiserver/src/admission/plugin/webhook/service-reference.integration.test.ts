/**
 * Webhooks referenced by `clientConfig.service` (k8s.io/apiserver/pkg/util/webhook/client.go
 * HookClient, kube-apiserver's buildServiceResolver). The webhook's certificate names
 * `webhook.default.svc`; the call is verified against `<service>.<namespace>.svc` whatever address
 * it is dialled at.
 *
 * Traffic stays on loopback, and Endpoints and EndpointSlices refuse loopback addresses (as
 * upstream's validation does), so the calls that reach the webhook go through ExternalName
 * Services naming `localhost` under the default ClusterIP resolver; the endpoint resolver of
 * `--enable-aggregator-routing` is checked against the server's own Services and EndpointSlices
 * (its address and port choice) and for its refusals.
 */
import { eventually } from "@servicenet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../server/testing.ts";
import { newServiceResolver } from "../../../util/webhook/serviceresolver.ts";
import { startWebhookServer, type WebhookServer } from "./testing.ts";

const json = { "Content-Type": "application/json" };
const services = "/api/v1/namespaces/default/services";

interface Hook {
  name: string;
  service: string;
  path: string;
  test: string;
  port?: number;
  failurePolicy?: "Fail" | "Ignore";
}

async function create(s: TestServer, path: string, body: unknown): Promise<void> {
  const r = await s.request(path, { method: "POST", headers: json, body: JSON.stringify(body) });
  expect(r.status, r.text).toBe(201);
}

/** A ValidatingWebhookConfiguration of `hooks` on Service creates, each selecting label test=<test>. */
async function configure(s: TestServer, hook: WebhookServer, hooks: Hook[]): Promise<void> {
  const webhooks = hooks.map((h) => ({
    name: h.name,
    clientConfig: {
      service: { namespace: "default", name: h.service, path: h.path, ...(h.port ? { port: h.port } : {}) },
      caBundle: hook.caBundle,
    },
    rules: [{ operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["services"] }],
    objectSelector: { matchLabels: { test: h.test } },
    sideEffects: "None",
    admissionReviewVersions: ["v1"],
    ...(h.failurePolicy ? { failurePolicy: h.failurePolicy } : {}),
  }));
  await create(s, "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations", { metadata: { name: "by-service" }, webhooks });
}

const createService = (s: TestServer, name: string, test: string) =>
  s.request(services, {
    method: "POST",
    headers: json,
    body: JSON.stringify({ metadata: { name, labels: { test } }, spec: { ports: [{ port: 80 }] } }),
  });

/** Creates Services labelled `test` until the answer is `status` (the configuration informer catches up). */
async function untilStatus(s: TestServer, test: string, status: number) {
  let n = 0;
  return eventually(
    async () => {
      const res = await createService(s, `${test}-${++n}`, test);
      return res.status === status ? { res, name: `${test}-${n}` } : undefined;
    },
    { what: `webhook for ${test} answering ${status}` },
  );
}

const message = (r: { json(): unknown }): string => (r.json() as { message: string }).message;

describe("admission webhooks by service reference", () => {
  let cluster: TestServer;
  let endpoints: TestServer;
  let hook: WebhookServer;
  beforeAll(async () => {
    [cluster, endpoints, hook] = await Promise.all([
      startTestServer(),
      startTestServer({ enableAggregatorRouting: true }),
      startWebhookServer(["webhook.default.svc"]),
    ]);
    for (const name of ["webhook", "other"])
      await create(cluster, services, { metadata: { name }, spec: { type: "ExternalName", externalName: "localhost" } });
    await configure(cluster, hook, [
      { name: "deny.example.com", service: "webhook", path: "/deny", test: "deny", port: hook.port },
      { name: "tls.example.com", service: "other", path: "/allow", test: "tls", port: hook.port },
    ]);
    // Endpoint routing: "noeps" has no endpoints, "external" is an ExternalName.
    await create(endpoints, services, { metadata: { name: "noeps" }, spec: { ports: [{ name: "https", port: 443, targetPort: 8443 }] } });
    await create(endpoints, services, { metadata: { name: "external" }, spec: { type: "ExternalName", externalName: "localhost" } });
    await configure(endpoints, hook, [
      { name: "noeps-fail.example.com", service: "noeps", path: "/allow", test: "noeps-fail", failurePolicy: "Fail" },
      { name: "noeps-ignore.example.com", service: "noeps", path: "/allow", test: "noeps-ignore", failurePolicy: "Ignore" },
      { name: "external.example.com", service: "external", path: "/allow", test: "external" },
    ]);
  });
  afterAll(async () => {
    await Promise.all([cluster?.close(), endpoints?.close(), hook?.close()]);
  });

  it("calls https://<service>.<namespace>.svc:<port><path> and returns the webhook's denial in upstream's words", async () => {
    const { res, name } = await untilStatus(cluster, "deny", 403);
    expect(res.json()).toMatchObject({
      message: 'admission webhook "deny.example.com" denied the request: services are not allowed here',
      reason: "Forbidden",
      code: 403,
    });
    const review = hook.reviews.find((v) => v.request.name === name);
    expect(review).toMatchObject({ path: "/deny", timeout: "10s" });
  });

  it("verifies the certificate against <service>.<namespace>.svc", async () => {
    const { res } = await untilStatus(cluster, "tls", 500);
    expect(message(res)).toBe(
      'Internal error occurred: failed calling webhook "tls.example.com": failed to call webhook: ' +
        `Post "https://other.default.svc:${hook.port}/allow?timeout=10s": tls: failed to verify certificate: ` +
        "x509: certificate is valid for webhook.default.svc, not other.default.svc",
    );
  });

  it("--enable-aggregator-routing: no endpoints fails under Fail and is skipped under Ignore; ExternalName is refused", async () => {
    const { res } = await untilStatus(endpoints, "noeps-fail", 500);
    expect(message(res)).toBe(
      'Internal error occurred: failed calling webhook "noeps-fail.example.com": failed to call webhook: ' +
        'Post "https://noeps.default.svc:443/allow?timeout=10s": no endpoints available for service "noeps"',
    );
    const ignored = await createService(endpoints, "noeps-ignore", "noeps-ignore");
    expect(ignored.status, ignored.text).toBe(201);
    const external = await createService(endpoints, "external", "external");
    expect(message(external)).toBe(
      'Internal error occurred: failed calling webhook "external.example.com": failed to call webhook: ' +
        'Post "https://external.default.svc:443/allow?timeout=10s": unsupported service type "ExternalName"',
    );
  });

  it("--enable-aggregator-routing: a ready endpoint of the Service's EndpointSlices, on the port named as the Service port", async () => {
    await create(endpoints, services, {
      metadata: { name: "webhook" },
      spec: {
        ports: [
          { name: "metrics", port: 8080, targetPort: 9090 },
          { name: "https", port: 443, targetPort: 8443 },
        ],
      },
    });
    await create(endpoints, "/apis/discovery.k8s.io/v1/namespaces/default/endpointslices", {
      metadata: { name: "webhook-manual", labels: { "kubernetes.io/service-name": "webhook" } },
      addressType: "IPv4",
      endpoints: [
        { addresses: ["10.0.0.1"], conditions: { ready: false } },
        { addresses: ["10.0.0.2"], conditions: { ready: true } },
      ],
      ports: [
        { name: "metrics", port: 9090, protocol: "TCP" },
        { name: "https", port: 8443, protocol: "TCP" },
      ],
    });
    const resolver = newServiceResolver({ store: endpoints.api.store, enableAggregatorRouting: true });
    try {
      const addr = await eventually(() => resolver.resolveEndpoint("default", "webhook", 443).catch(() => undefined), {
        what: "the EndpointSlice in the resolver's informer",
      });
      expect(addr).toEqual({ host: "10.0.0.2", port: 8443 });
      await expect(resolver.resolveEndpoint("default", "webhook", 444)).rejects.toThrow('no service port 444 found for service "webhook"');
      await expect(resolver.resolveEndpoint("default", "absent", 443)).rejects.toThrow('service "absent" not found');
    } finally {
      resolver.stop();
    }
  });
});
