/**
 * Upstream's TestBrokenWebhook (test/integration/apiserver/admissionwebhook/broken_webhook_test.go)
 * over HTTP: a validating webhook on every operation of every resource, whose Service does not
 * exist, blocks Deployment creates; it still does once the apiserver restarts on the same storage
 * (the restarted server comes up with it in place); deleting it fixes the cluster.
 */
import { eventually } from "@servicenet/testing";
import { afterAll, describe, expect, it } from "vitest";
import { createStore, type Store } from "../../../storage/index.ts";
import { startTestServer, type TestServer } from "../../../server/testing.ts";

const brokenWebhookName = "integration-broken-webhook-test-webhook-config";
const deployments = "/apis/apps/v1/namespaces/default/deployments";
const configs = "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations";

/** exampleDeployment. */
const exampleDeployment = (suffix: number) => ({
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: { namespace: "default", name: `integration-broken-webhook-test-deployment-${suffix}` },
  spec: {
    replicas: 1,
    selector: { matchLabels: { foo: "bar" } },
    template: { metadata: { labels: { foo: "bar" } }, spec: { containers: [{ name: "foo", image: "foo" }] } },
  },
});

/** brokenWebhookConfig: a Service that does not exist, failurePolicy Fail, on `*` / `*` / `*\/*`. */
const brokenWebhookConfig = {
  metadata: { name: brokenWebhookName },
  webhooks: [
    {
      name: "broken-webhook.k8s.io",
      rules: [{ operations: ["*"], apiGroups: ["*"], apiVersions: ["*"], resources: ["*/*"] }],
      clientConfig: { service: { namespace: "default", name: "invalid-webhook-service", path: "" } },
      failurePolicy: "Fail",
      sideEffects: "None",
      admissionReviewVersions: ["v1"],
    },
  ],
};

/** What the broken webhook makes of a create. */
const brokenMessage =
  'Internal error occurred: failed calling webhook "broken-webhook.k8s.io": failed to call webhook: Post "https://invalid-webhook-service.default.svc:443/?timeout=10s": service "invalid-webhook-service" not found';

describe("TestBrokenWebhook", () => {
  let store: Store | undefined;
  let s: TestServer | undefined;
  afterAll(async () => {
    await s?.close();
    await store?.close();
  });

  const create = (suffix: number) => s!.send("POST", deployments, exampleDeployment(suffix));

  it("blocks creates before and after a restart of the apiserver, and not once deleted", async () => {
    store = await createStore({ backend: "memory" });
    s = await startTestServer({ storage: store });
    // Creating Deployment to ensure apiserver is functional.
    const first = await create(0);
    expect(first.status, first.text).toBe(201);

    const r = await s.send("POST", configs, brokenWebhookConfig);
    expect(r.status, r.text).toBe(201);
    // Upstream sleeps 10 s for the configuration to be honoured; a dry run tells when it is.
    await eventually(async () => (await s!.send("POST", `${deployments}?dryRun=All`, exampleDeployment(9))).status === 500, {
      what: "the broken webhook in effect",
    });
    const blocked = await create(1);
    expect(blocked.status).toBe(500);
    expect(blocked.json()).toMatchObject({ reason: "InternalError", message: brokenMessage });

    // Restarting apiserver: it starts with the broken webhook registered, and it still blocks.
    await s.close();
    s = await startTestServer({ storage: store });
    const again = await create(2);
    expect(again.status).toBe(500);
    expect(again.json()).toMatchObject({ reason: "InternalError", message: brokenMessage });

    // Deleting the broken webhook to fix the cluster.
    const del = await s.request(`${configs}/${brokenWebhookName}`, { method: "DELETE" });
    expect(del.status, del.text).toBe(200);
    await eventually(async () => (await s!.send("POST", `${deployments}?dryRun=All`, exampleDeployment(9))).status === 201, {
      what: "the broken webhook gone",
    });
    const fixed = await create(3);
    expect(fixed.status, fixed.text).toBe(201);
  });
});
