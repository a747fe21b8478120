/**
 * The scale subresource of a CRD with Webhook conversion (upstream's conversion_test.go fixture
 * serves `scale` in every version; apiextensions-apiserver pkg/registry/customresource/etcd.go
 * ScaleREST.Get and scaleUpdatedObjectInfo read the parent in the request's version, which the
 * storage codec converts to): each version's scale reads and writes its own specReplicasPath; a
 * DELETE's admission sees the old object in the request's version too.
 */
import { describe, expect, it } from "vitest";
import { eventually } from "@servicenet/testing";
import { startWebhookServer, type WebhookServer } from "../../../admission/plugin/webhook/testing.ts";
import type { TestServer } from "../../../server/testing.ts";
import { createCRD } from "./fixtures-testing.ts";
import { useConversionHarness, type ConversionWebhookServer } from "./conversion-webhook-testing.ts";

const ns = "default";
const int = { type: "integer" };

/** v1beta1 stored with `spec.replicas`; v1alpha1 keeps them at `spec.size`. */
function scaleVersion(name: string, storage: boolean, field: string): Record<string, unknown> {
  return {
    name,
    served: true,
    storage,
    subresources: { status: {}, scale: { specReplicasPath: `.spec.${field}`, statusReplicasPath: ".status.replicas" } },
    schema: {
      openAPIV3Schema: {
        type: "object",
        properties: {
          spec: { type: "object", properties: { [field]: int } },
          status: { type: "object", properties: { replicas: int } },
        },
      },
    },
  };
}

/** The CRD of these tests in `group`, converted by the webhook's replicas converter. */
function scalerCRD(group: string, hook: ConversionWebhookServer): Record<string, unknown> {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `scalers.${group}` },
    spec: {
      group,
      scope: "Namespaced",
      names: { plural: "scalers", singular: "scaler", kind: "Scaler", listKind: "ScalerList" },
      versions: [scaleVersion("v1alpha1", false, "size"), scaleVersion("v1beta1", true, "replicas")],
      conversion: {
        strategy: "Webhook",
        webhook: { clientConfig: { url: `${hook.url}/replicas-converter`, caBundle: hook.caBundle }, conversionReviewVersions: ["v1"] },
      },
    },
  };
}

describe("conversion_test subresources and delete", () => {
  let s: TestServer;
  let hook: ConversionWebhookServer;
  useConversionHarness((server, h) => {
    s = server;
    hook = h;
  });

  it("reads and updates the scale of a converted version at that version's replicas path", async () => {
    const group = "scale.stable.example.com";
    await createCRD(s, scalerCRD(group, hook));
    const at = (v: string, sub = "") => `/apis/${group}/${v}/namespaces/${ns}/scalers/foo${sub}`;
    const body = { apiVersion: `${group}/v1alpha1`, kind: "Scaler", metadata: { name: "foo" }, spec: { size: 3 } };
    const created = await s.send("POST", `/apis/${group}/v1alpha1/namespaces/${ns}/scalers`, body);
    expect(created.status, created.text).toBe(201);
    expect((await s.request(at("v1beta1"))).json()).toMatchObject({ spec: { replicas: 3 } });
    // The v1alpha1 scale reads spec.size of the object converted to v1alpha1, not the stored spec.replicas' path.
    const scale = await s.request(at("v1alpha1", "/scale"));
    expect(scale.status, scale.text).toBe(200);
    expect(scale.json()).toMatchObject({ kind: "Scale", spec: { replicas: 3 } });
    // An update writes spec.size in v1alpha1, which the webhook stores as spec.replicas.
    const put = await s.send("PUT", at("v1alpha1", "/scale"), { ...(scale.json() as object), spec: { replicas: 5 } });
    expect(put.status, put.text).toBe(200);
    expect(put.json()).toMatchObject({ spec: { replicas: 5 } });
    expect((await s.request(at("v1beta1"))).json()).toMatchObject({ spec: { replicas: 5 } });
    const alpha = (await s.request(at("v1alpha1"))).json() as { spec: Record<string, unknown> };
    expect(alpha.spec).toEqual({ size: 5 });
    const patched = await s.send("PATCH", at("v1alpha1", "/scale"), { spec: { replicas: 2 } }, "application/merge-patch+json");
    expect(patched.status, patched.text).toBe(200);
    expect(patched.json()).toMatchObject({ spec: { replicas: 2 } });
    expect((await s.request(at("v1beta1"))).json()).toMatchObject({ spec: { replicas: 2 } });
    // validateNonTrivialConverted's status patch: the old object is in the request's version, and
    // what is stored is converted back (spec.replicas, no spec.size).
    const status = await s.send(
      "PATCH",
      at("v1alpha1", "/status"),
      { metadata: { annotations: { status: "true" } }, status: { replicas: 7 } },
      "application/merge-patch+json",
    );
    expect(status.status, status.text).toBe(200);
    expect(status.json()).toMatchObject({ apiVersion: `${group}/v1alpha1`, spec: { size: 2 }, status: { replicas: 7 } });
    const stored = (await s.request(at("v1beta1"))).json() as { spec: Record<string, unknown>; metadata: { annotations?: object } };
    expect(stored.spec).toEqual({ replicas: 2 });
    // status_strategy.go PrepareForUpdate keeps the old object but its status: no annotation.
    expect(stored.metadata.annotations).toBeUndefined();
    expect((await s.request(at("v1alpha1", "/scale"))).json()).toMatchObject({ spec: { replicas: 2 }, status: { replicas: 7 } });
    // The storage version's scale calls no webhook.
    const before = hook.reviews.length;
    expect((await s.request(at("v1beta1", "/scale"))).json()).toMatchObject({ spec: { replicas: 2 } });
    expect(hook.reviews.length).toBe(before);
  });

  it("a DELETE's admission sees the old object in the request's version", async () => {
    const group = "delete.stable.example.com";
    await createCRD(s, scalerCRD(group, hook));
    const admission: WebhookServer = await startWebhookServer();
    try {
      const r = await s.send("POST", "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations", {
        metadata: { name: "scaler-deletes" },
        webhooks: [
          {
            name: "deletes.integration.test",
            clientConfig: { url: `${admission.url}/allow`, caBundle: admission.caBundle },
            rules: [{ operations: ["DELETE"], apiGroups: [group], apiVersions: ["*"], resources: ["scalers"] }],
            admissionReviewVersions: ["v1"],
            sideEffects: "None",
          },
        ],
      });
      expect(r.status, r.text).toBe(201);
      const list = `/apis/${group}/v1alpha1/namespaces/${ns}/scalers`;
      const create = (name: string) =>
        s.send("POST", list, { apiVersion: `${group}/v1alpha1`, kind: "Scaler", metadata: { name }, spec: { size: 4 } });
      // A marker deleted until the configuration is in effect.
      await eventually(async () => {
        expect((await create("marker")).status).toBe(201);
        const seen = admission.reviews.length;
        expect((await s.send("DELETE", `${list}/marker`)).status).toBe(200);
        return admission.reviews.length > seen;
      });
      expect((await create("foo")).status).toBe(201);
      expect((await s.send("DELETE", `${list}/foo`)).status).toBe(200);
      const review = admission.reviews.at(-1)?.request as unknown as { operation: string; oldObject: { apiVersion: string; spec: object } };
      expect(review.operation).toBe("DELETE");
      expect(review.oldObject.apiVersion).toBe(`${group}/v1alpha1`);
      expect(review.oldObject.spec).toEqual({ size: 4 });
    } finally {
      await admission.close();
    }
  });
});
