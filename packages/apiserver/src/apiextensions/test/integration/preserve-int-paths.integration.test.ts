/**
 * TestPreserveInt (apiextensions-apiserver test/integration/basic_test.go) carried on to the other
 * ways an int64 reaches a custom resource: a mutating webhook's JSONPatch (admission/plugin/webhook/
 * mutating/dispatcher.go decodes the patched bytes into an Unstructured), the scale subresource
 * (pkg/registry/customresource/etcd.go scaleFromCustomResource reads the replicas with
 * NestedInt64; the Scale is a typed autoscaling/v1 object) and a schema `default` (an
 * apiextensionsv1.JSON read with util/json). math.MaxInt64 must keep its last digits in each.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "@servicenet/testing";
import { startTestServer, type TestServer } from "../../../server/testing.ts";
import { parseJSON } from "../../../util/json/json.ts";
import { startWebhookServer, type WebhookServer } from "../../../admission/plugin/webhook/testing.ts";
import { createCRD, json, noxuCRD, noxuSubresourcesCRD } from "./fixtures-testing.ts";

const maxInt64 = "9223372036854775807";
const merge = { "Content-Type": "application/merge-patch+json" };
const noxus = "/apis/mygroup.example.com/v1beta1/noxus";
const nsNoxus = "/apis/mygroup.example.com/v1beta1/namespaces/default/noxus";
const instance = (name: string, more = "") =>
  `{"apiVersion":"mygroup.example.com/v1beta1","kind":"WishIHadChosenNoxu","metadata":{"name":"${name}"}${more}}`;
const read = (text: string) => parseJSON(text) as Record<string, unknown>;

describe("TestPreserveInt through a mutating webhook's JSONPatch", () => {
  let s: TestServer;
  let hook: WebhookServer;
  // The patch as the webhook wrote it: JSON text whose integer no double holds.
  const patch = `[{"op":"add","path":"/num","value":{"num1":${maxInt64},"num2":-9223372036854775808}}]`;
  beforeAll(async () => {
    [s, hook] = await Promise.all([
      startTestServer(),
      startWebhookServer(["127.0.0.1"], {
        "/int64": (r) =>
          (r.name ?? "").startsWith("marker")
            ? { allowed: true }
            : { allowed: true, patchType: "JSONPatch", patch: Buffer.from(patch).toString("base64") },
      }),
    ]);
    await createCRD(s, noxuCRD("Cluster"));
    const r = await s.send("POST", "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations", {
      metadata: { name: "int64" },
      webhooks: [
        {
          name: "int64.integration.test",
          clientConfig: { url: `${hook.url}/int64`, caBundle: hook.caBundle },
          rules: [{ operations: ["CREATE"], apiGroups: ["mygroup.example.com"], apiVersions: ["*"], resources: ["noxus"] }],
          admissionReviewVersions: ["v1"],
          sideEffects: "None",
        },
      ],
    });
    expect(r.status, r.text).toBe(201);
    await eventually(async () => {
      const seen = hook.reviews.length;
      await s.request(`${noxus}?dryRun=All`, { method: "POST", headers: json, body: instance("marker") });
      return hook.reviews.length > seen;
    });
  });
  afterAll(async () => {
    await Promise.all([s?.close(), hook?.close()]);
  });

  it("writes the patch's math.MaxInt64 and math.MinInt64 into the object, stored and answered", async () => {
    const r = await s.request(noxus, { method: "POST", headers: json, body: instance("patched") });
    expect(r.status, r.text).toBe(201);
    expect(r.text).toContain(`"num":{"num1":${maxInt64},"num2":-9223372036854775808}`);
    expect(read((await s.request(`${noxus}/patched`)).text)["num"]).toStrictEqual({ num1: 2n ** 63n - 1n, num2: -(2n ** 63n) });
  });
});

describe("TestPreserveInt through the scale subresource", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    await createCRD(s, noxuSubresourcesCRD());
    const r = await s.request(nsNoxus, {
      method: "POST",
      headers: json,
      body: instance("foo", `,"spec":{"replicas":3,"big":${maxInt64}}`),
    });
    expect(r.status, r.text).toBe(201);
  });
  afterAll(async () => {
    await s?.close();
  });

  it("an int64 in a replicas path is validated as the int64 it is (ValidateScaleStatus)", async () => {
    const r = await s.request(`${nsNoxus}/foo/status`, { method: "PATCH", headers: merge, body: `{"status":{"replicas":${maxInt64}}}` });
    expect(r.status, r.text).toBe(422);
    expect((r.json() as { message: string }).message).toBe(
      `WishIHadChosenNoxu.mygroup.example.com "foo" is invalid: .status.replicas: Invalid value: ${maxInt64}: should be less than or equal to 2147483647`,
    );
  });

  it.each([
    ["application/merge-patch+json", `{"spec":{"replicas":${maxInt64}}}`],
    ["application/json-patch+json", `[{"op":"replace","path":"/spec/replicas","value":${maxInt64}}]`],
  ])("a %s of the Scale's replicas with math.MaxInt64 is the jsonPatcher's int32 decode error", async (type, body) => {
    const r = await s.request(`${nsNoxus}/foo/scale`, { method: "PATCH", headers: { "Content-Type": type }, body });
    expect(r.status, r.text).toBe(422);
    const st = r.json() as { message: string; details: { causes: { field: string; message: string }[] } };
    expect(st.details.causes[0]!.field).toBe("patch");
    expect(st.message).toMatch(
      new RegExp(
        `"spec\\\\":\\{\\\\"replicas\\\\":${maxInt64}\\}.*: json: cannot unmarshal number ${maxInt64} into Go struct field ScaleSpec.spec.replicas of type int32$`,
      ),
    );
  });

  it("a scale patch keeps the other int64s of the object", async () => {
    const r = await s.request(`${nsNoxus}/foo/scale`, { method: "PATCH", headers: merge, body: `{"spec":{"replicas":5}}` });
    expect(r.status, r.text).toBe(200);
    expect(read((await s.request(`${nsNoxus}/foo`)).text)["spec"]).toStrictEqual({ replicas: 5, big: 2n ** 63n - 1n });
  });
});

describe("TestPreserveInt through a schema default", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    const crd = noxuCRD("Cluster");
    const versions = (crd["spec"] as { versions: { schema: unknown }[] }).versions;
    versions[0]!.schema = {
      openAPIV3Schema: {
        type: "object",
        properties: {
          num: {
            type: "object",
            properties: { num1: { type: "integer", default: 0 }, num2: { type: "integer", enum: [0] } },
          },
        },
      },
    };
    // The CRD as a client writes it: the default and enum are JSON text, never a JavaScript number.
    const text = JSON.stringify(crd).replace('"default":0', `"default":${maxInt64}`).replace('"enum":[0]', `"enum":[${maxInt64},1]`);
    const r = await s.request("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", { method: "POST", headers: json, body: text });
    expect(r.status, r.text).toBe(201);
    expect(r.text).toContain(`"default":${maxInt64}`);
    await eventually(async () => (await s.request(noxus)).status === 200);
  });
  afterAll(async () => {
    await s?.close();
  });

  it("defaults num1 to exactly math.MaxInt64, and enum holds it", async () => {
    const r = await s.request(noxus, { method: "POST", headers: json, body: instance("defaulted", `,"num":{"num2":${maxInt64}}`) });
    expect(r.status, r.text).toBe(201);
    expect(read(r.text)["num"]).toStrictEqual({ num1: 2n ** 63n - 1n, num2: 2n ** 63n - 1n });
    const crd = await s.request("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/noxus.mygroup.example.com");
    expect(crd.text).toContain(`"enum":[${maxInt64},1]`);
  });
});
