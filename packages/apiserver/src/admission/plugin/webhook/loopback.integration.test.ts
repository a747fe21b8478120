/**
 * A webhook referencing Service default/kubernetes port 443 reaches this apiserver itself, with
 * the loopback client's credentials (kube-apiserver's buildServiceResolver loopback case and
 * NewDefaultAuthenticationInfoResolverWrapper). Nothing routes the `kubernetes` Service's
 * ClusterIP here, so only the loopback resolver gets the call through; only the loopback token
 * (system:masters) may create a ConfigMap, so the answer shows who called. The apiserver answers
 * the AdmissionReview posted to its ConfigMaps with a 400 (the body is no ConfigMap), whose Status
 * message the webhook client reports as the rest client does: that status is the proof the call
 * arrived authenticated, where an anonymous one gets 403.
 */
import { eventually } from "@servicenet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../server/testing.ts";

describe("webhooks at kubernetes.default.svc", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  it("are dialled at this server with its loopback token", async () => {
    const cfg = await s.send("POST", "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations", {
      metadata: { name: "loopback" },
      webhooks: [
        {
          name: "loopback.integration.test",
          clientConfig: {
            service: { namespace: "default", name: "kubernetes", path: "/api/v1/namespaces/default/configmaps" },
            caBundle: Buffer.from(s.api.caCert ?? "").toString("base64"),
          },
          rules: [{ operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["services"] }],
          objectSelector: { matchLabels: { test: "loopback" } },
          failurePolicy: "Fail",
          timeoutSeconds: 3,
          admissionReviewVersions: ["v1"],
          sideEffects: "None",
        },
      ],
    });
    expect(cfg.status, cfg.text).toBe(201);
    let n = 0;
    const res = await eventually(
      async () => {
        const r = await s.send("POST", "/api/v1/namespaces/default/services", {
          metadata: { name: `loopback-${++n}`, labels: { test: "loopback" } },
          spec: { ports: [{ port: 80 }] },
        });
        return r.status === 201 ? undefined : r;
      },
      { what: "the webhook configuration in effect" },
    );
    expect((res.json() as { message: string }).message).toBe(
      'Internal error occurred: failed calling webhook "loopback.integration.test": failed to call webhook: ' +
        "the API version in the data (admission.k8s.io/v1) does not match the expected API version (v1)",
    );
  });
});
