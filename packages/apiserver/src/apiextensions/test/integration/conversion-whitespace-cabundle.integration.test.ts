/**
 * Upstream apiextensions-apiserver test/integration/conversion/conversion_test.go
 * TestWebhookConversion_WhitespaceCABundleEtcdBypass on the etcd backend: a CRD whose webhook
 * caBundle is only whitespace, which validation refuses, is written into etcd directly. The server
 * takes it from its watch and treats the caBundle as empty (webhook_converter.go
 * webhookClientConfigForCRD): requests that need no conversion are served, and a conversion
 * verifies the webhook against the system trust roots, which do not know its CA.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "@servicenet/testing";
import { startTestServer, type TestServer } from "../../../server/testing.ts";
import { createCRD } from "./fixtures-testing.ts";
import { startConversionWebhookServer, type ConversionWebhookServer } from "./conversion-webhook-testing.ts";
import { EtcdObjectReader, etcdTestStorage } from "./etcd-object-reader-testing.ts";
import {
  group,
  multiVersionFixture,
  newConversionMultiVersionFixture,
  plural,
  verifyMultiVersionObject,
  type Obj,
} from "./multiversion-fixture-testing.ts";

const storage = etcdTestStorage();
const ns = "whitespace-cabundle";
const whitespace = Buffer.from("    \n\t   ").toString("base64");

describe.skipIf(storage === undefined)("TestWebhookConversion_WhitespaceCABundleEtcdBypass", () => {
  let s: TestServer;
  let hook: ConversionWebhookServer;
  let etcd: EtcdObjectReader;
  const at = (v: string, name = "") => `/apis/${group}/${v}/namespaces/${ns}/${plural}${name ? `/${name}` : ""}`;
  const crdPath = `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${plural}.${group}`;

  beforeAll(async () => {
    [s, hook] = await Promise.all([startTestServer({ storage: storage! }), startConversionWebhookServer()]);
    etcd = new EtcdObjectReader(storage!);
    expect((await s.send("POST", "/api/v1/namespaces", { metadata: { name: ns } })).status).toBe(201);
  });
  afterAll(async () => {
    await s?.close();
    await hook?.close();
    await etcd?.close();
  });

  it("serves what needs no conversion; a conversion trusts the system roots only", async () => {
    await createCRD(s, multiVersionFixture({ url: `${hook.url}/num-content-converter`, caBundle: hook.caBundle }, ["v1beta1"]));
    const created = await s.send("POST", at("v1beta1"), newConversionMultiVersionFixture(ns, "test", "v1beta1"));
    expect(created.status, created.text).toBe(201);
    verifyMultiVersionObject("v1beta1", created.json() as Obj);
    expect((await s.request(at("v1beta2", "test"))).status).toBe(200);

    // The API refuses the whitespace caBundle on an established CRD ...
    const crd = (await s.request(crdPath)).json() as { spec: { conversion: { webhook: { clientConfig: Record<string, unknown> } } } };
    crd.spec.conversion.webhook.clientConfig["caBundle"] = whitespace;
    const refused = await s.send("PUT", crdPath, crd);
    expect(refused.status).toBe(422);
    expect((refused.json() as { message: string }).message).toContain(
      "spec.conversion.webhookClientConfig.caBundle: Invalid value: []byte{0x20, 0x20, 0x20, 0x20, 0xa, 0x9, 0x20, 0x20, 0x20}: data does not contain any valid RSA or ECDSA certificates",
    );
    // ... so it is written into etcd directly.
    const stored = await etcd.getStoredCustomResourceDefinition(`${plural}.${group}`);
    (stored["spec"] as typeof crd.spec).conversion.webhook.clientConfig["caBundle"] = whitespace;
    await etcd.setStoredCustomResourceDefinition(`${plural}.${group}`, stored);
    await eventually(async () => {
      const got = (await s.request(crdPath)).json() as typeof crd;
      expect(got.spec.conversion.webhook.clientConfig["caBundle"]).toBe(whitespace);
      return got;
    });

    // The stored object is as it was, and the storage version is served without a webhook call.
    verifyMultiVersionObject("v1beta1", await etcd.getStoredCustomResource(group, plural, ns, "test"));
    const calls = hook.reviews.length;
    await eventually(async () => {
      const got = await s.request(at("v1beta1", "test"));
      expect(got.status, got.text).toBe(200);
      verifyMultiVersionObject("v1beta1", got.json() as Obj);
      return got;
    });
    expect((await s.request(at("v1beta1"))).status).toBe(200);
    const second = await s.send("POST", at("v1beta1"), newConversionMultiVersionFixture(ns, "second", "v1beta1"));
    expect(second.status, second.text).toBe(201);
    expect(hook.reviews.length).toBe(calls);

    // Another version needs the webhook, whose CA the system roots do not know.
    const converted = await s.request(at("v1beta2", "test"));
    expect(converted.status).toBe(500);
    const message = (converted.json() as { message: string }).message;
    expect(message).toContain(
      `conversion webhook for ${group}/v1beta1, Kind=MultiVersion failed: Post "${hook.url}/num-content-converter?timeout=30s"`,
    );
    expect(message).toContain("tls: failed to verify certificate: x509: certificate signed by unknown authority");
  });
});
