/**
 * Upstream apiextensions-apiserver test/integration/cabundle_test.go over HTTP: TestInvalidCABundle
 * (a caBundle that is no PEM certificate is refused), TestValidCABundle (converted through the
 * webhook it trusts) and TestMissingCABundle (accepted; a conversion fails to verify the webhook).
 */
import { describe, expect, it } from "vitest";
import type { TestServer } from "../../../server/testing.ts";
import { createCRD } from "./fixtures-testing.ts";
import { useConversionHarness, type ConversionWebhookServer } from "./conversion-webhook-testing.ts";

const anyObject = { openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true } };

function crd(group: string, clientConfig: Record<string, unknown>): Record<string, unknown> {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `multiversions.${group}` },
    spec: {
      group,
      scope: "Namespaced",
      names: { plural: "multiversions", singular: "multiversion", kind: "MultiVersion", listKind: "MultiVersionList" },
      versions: [
        { name: "v1beta1", served: true, storage: true, schema: anyObject },
        { name: "v1beta2", served: true, storage: false, schema: anyObject },
      ],
      conversion: { strategy: "Webhook", webhook: { clientConfig, conversionReviewVersions: ["v1", "v1beta1"] } },
    },
  };
}

describe("cabundle_test", () => {
  let s: TestServer;
  let hook: ConversionWebhookServer;
  useConversionHarness((server, h) => {
    s = server;
    hook = h;
  });

  it("TestInvalidCABundle", async () => {
    const body = crd("invalid.stable.example.com", {
      url: `${hook.url}/noop-converter`,
      caBundle: Buffer.from("invalid").toString("base64"),
    });
    const r = await s.send("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", body);
    expect(r.status).toBe(422);
    expect((r.json() as { message: string }).message).toContain(
      "spec.conversion.webhookClientConfig.caBundle: Invalid value: []byte{0x69, 0x6e, 0x76, 0x61, 0x6c, 0x69, 0x64}: data does not contain any valid RSA or ECDSA certificates",
    );
  });

  it.each([
    ["TestValidCABundle", "valid", true],
    ["TestMissingCABundle", "missing", false],
  ])("%s", async (_name, prefix, trusted) => {
    const group = `${prefix}.stable.example.com`;
    await createCRD(s, crd(group, { url: `${hook.url}/noop-converter`, ...(trusted ? { caBundle: hook.caBundle } : {}) }));
    const at = (v: string) => `/apis/${group}/${v}/namespaces/default/multiversions`;
    expect(
      (await s.send("POST", at("v1beta1"), { apiVersion: `${group}/v1beta1`, kind: "MultiVersion", metadata: { name: "foo" } })).status,
    ).toBe(201);
    const got = await s.request(`${at("v1beta2")}/foo`);
    if (trusted) expect(got.json()).toMatchObject({ apiVersion: `${group}/v1beta2` });
    else {
      expect(got.status).toBe(500);
      expect((got.json() as { message: string }).message).toContain("x509: certificate signed by unknown authority");
    }
  });
});
