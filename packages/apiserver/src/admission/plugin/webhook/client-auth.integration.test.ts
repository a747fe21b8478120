/**
 * Webhook client credentials from `--admission-control-config-file` (upstream
 * test/integration/apiserver/admissionwebhook/client_auth_test.go TestWebhookClientAuthWithAggregatorRouting
 * and TestWebhookClientAuthWithoutAggregatorRouting): the WebhookAdmission kubeconfig has users
 * named after the webhook's host with and without its port, a `*.` wildcard and the `*` default,
 * and the webhook must see the bearer token of the most specific one. Beyond upstream, a webhook
 * referenced by Service sees the token of its `name.namespace.svc:port` user.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eventually } from "@servicenet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../server/testing.ts";
import { startWebhookServer, type RecordedReview, type WebhookServer } from "./testing.ts";

const testClientAuthClientUsername = "webhook-client-auth-integration-client";
const marker = { metadata: { namespace: "default", name: "marker" }, spec: { containers: [{ name: "fake-name", image: "fakeimage" }] } };

/** The kubeconfig and AdmissionConfiguration of the upstream test, for `hook`'s host. */
function writeConfig(dir: string, hook: WebhookServer): string {
  const host = new URL(hook.url);
  const kubeConfigFile = join(dir, "kubeconfig.yaml");
  writeFileSync(
    kubeConfigFile,
    `apiVersion: v1
kind: Config
users:
- name: "${host.host}"
  user:
    token: "localhost-match-with-port"
- name: "${host.hostname}"
  user:
    token: "localhost-match-without-port"
- name: "*.localhost"
  user:
    token: "localhost-prefix"
- name: "webhook.default.svc:${hook.port}"
  user:
    token: "service-match"
- name: "*"
  user:
    token: "fallback"
`,
  );
  const admissionConfigFile = join(dir, "admission-config.yaml");
  const plugin = (name: string) => `- name: ${name}
  configuration:
    apiVersion: apiserver.config.k8s.io/v1alpha1
    kind: WebhookAdmission
    kubeConfigFile: "${kubeConfigFile}"
`;
  writeFileSync(
    admissionConfigFile,
    `apiVersion: apiserver.k8s.io/v1alpha1
kind: AdmissionConfiguration
plugins:
${plugin("ValidatingAdmissionWebhook")}${plugin("MutatingAdmissionWebhook")}`,
  );
  return admissionConfigFile;
}

/** The test's client: the admin, impersonating a user of its own so the webhook can tell its requests apart. */
function send(s: TestServer, method: string, path: string, body: unknown, contentType = "application/json") {
  return s.request(path, {
    method,
    headers: { "Content-Type": contentType, "Impersonate-User": testClientAuthClientUsername, "Impersonate-Group": "system:masters" },
    body: JSON.stringify(body),
  });
}

const fromClient = (r: RecordedReview): boolean =>
  (r.request["userInfo"] as { username?: string } | undefined)?.username === testClientAuthClientUsername;

function testWebhookClientAuth(enableAggregatorRouting: boolean): void {
  let dir: string;
  let hook: WebhookServer;
  let s: TestServer;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "servicenet-client-auth-"));
    hook = await startWebhookServer(["127.0.0.1", "webhook.default.svc"]);
    s = await startTestServer({ enableAggregatorRouting, admissionControlConfigFile: writeConfig(dir, hook) });
  });
  afterAll(async () => {
    await Promise.all([s?.close(), hook?.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it("sends the bearer token of the user named by the webhook URL's host:port", async () => {
    const created = await send(s, "POST", "/api/v1/namespaces/default/pods", marker);
    expect(created.status, created.text).toBe(201);
    const cfg = await send(s, "POST", "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations", {
      metadata: { name: "admission.integration.test" },
      webhooks: [
        {
          name: "admission.integration.test",
          clientConfig: { url: `${hook.url}/allow`, caBundle: hook.caBundle },
          rules: [{ operations: ["*"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"] }],
          failurePolicy: "Fail",
          admissionReviewVersions: ["v1beta1"],
          sideEffects: "None",
        },
      ],
    });
    expect(cfg.status, cfg.text).toBe(201);
    // Wait until the new webhook is called: patch the marker until the webhook has seen it.
    const review = await eventually(
      async () => {
        await send(s, "PATCH", "/api/v1/namespaces/default/pods/marker", [], "application/json-patch+json");
        return hook.reviews.find((r) => fromClient(r) && r.request.name === "marker");
      },
      { what: "the webhook's review of the marker pod" },
    );
    expect(review.authorization).toBe("Bearer localhost-match-with-port");
  });

  it.skipIf(enableAggregatorRouting)(
    "sends the bearer token of the user named by a Service reference's name.namespace.svc:port",
    async () => {
      // Endpoints refuse loopback addresses, so only the ClusterIP resolver reaches a local webhook (through ExternalName).
      const svc = await send(s, "POST", "/api/v1/namespaces/default/services", {
        metadata: { name: "webhook" },
        spec: { type: "ExternalName", externalName: "localhost" },
      });
      expect(svc.status, svc.text).toBe(201);
      const cfg = await send(s, "POST", "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations", {
        metadata: { name: "by-service" },
        webhooks: [
          {
            name: "by-service.integration.test",
            clientConfig: { service: { namespace: "default", name: "webhook", path: "/allow", port: hook.port }, caBundle: hook.caBundle },
            rules: [{ operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["configmaps"] }],
            failurePolicy: "Fail",
            admissionReviewVersions: ["v1"],
            sideEffects: "None",
          },
        ],
      });
      expect(cfg.status, cfg.text).toBe(201);
      let n = 0;
      const review = await eventually(
        async () => {
          await send(s, "POST", "/api/v1/namespaces/default/configmaps", { metadata: { name: `cm-${++n}` } });
          return hook.reviews.find((r) => fromClient(r) && (r.request["resource"] as { resource?: string }).resource === "configmaps");
        },
        { what: "the service-referenced webhook's review" },
      );
      expect(review.authorization).toBe("Bearer service-match");
    },
  );
}

describe("TestWebhookClientAuthWithAggregatorRouting", () => testWebhookClientAuth(true));
describe("TestWebhookClientAuthWithoutAggregatorRouting", () => testWebhookClientAuth(false));
