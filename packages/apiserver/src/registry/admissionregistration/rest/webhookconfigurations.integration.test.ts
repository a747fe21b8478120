/**
 * ValidatingWebhookConfiguration and MutatingWebhookConfiguration served over HTTP: defaulting,
 * validation with upstream's messages (matchConditions compiled), generation, Tables with
 * printers.go's columns (also through real kubectl 1.33), and RBAC: only cluster-admin may write them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kubectl133, startTestServer, type TestServer } from "../../../server/testing.ts";

const json = { "Content-Type": "application/json" };
const merge = { "Content-Type": "application/merge-patch+json" };
const base = "/apis/admissionregistration.k8s.io/v1";

const webhook = (over: Record<string, unknown> = {}) => ({
  name: "deny.example.com",
  clientConfig: { url: "https://127.0.0.1:1/validate" },
  rules: [{ operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["services"] }],
  sideEffects: "None",
  admissionReviewVersions: ["v1"],
  ...over,
});

const configuration = (kind: string, name: string, webhooks: unknown[]) => ({
  apiVersion: "admissionregistration.k8s.io/v1",
  kind,
  metadata: { name },
  webhooks,
});

describe("admissionregistration.k8s.io/v1 webhook configurations", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  it("are in discovery with upstream's verbs and category", async () => {
    const list = (await s.request(base)).json() as { resources: { name: string; kind: string; verbs: string[]; categories?: string[] }[] };
    for (const [name, kind] of [
      ["validatingwebhookconfigurations", "ValidatingWebhookConfiguration"],
      ["mutatingwebhookconfigurations", "MutatingWebhookConfiguration"],
    ]) {
      const r = list.resources.find((x) => x.name === name);
      expect(r?.kind).toBe(kind);
      expect(r?.categories).toEqual(["api-extensions"]);
      expect(r?.verbs).toEqual(["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"]);
    }
  });

  it("defaults a validating webhook as SetDefaults_ValidatingWebhook", async () => {
    const r = await s.request(`${base}/validatingwebhookconfigurations`, {
      method: "POST",
      headers: json,
      body: JSON.stringify(configuration("ValidatingWebhookConfiguration", "v1", [webhook()])),
    });
    expect(r.status, r.text).toBe(201);
    const got = r.json() as { metadata: { generation: number }; webhooks: Record<string, unknown>[] };
    expect(got.metadata.generation).toBe(1);
    expect(got.webhooks[0]).toMatchObject({
      failurePolicy: "Fail",
      matchPolicy: "Equivalent",
      namespaceSelector: {},
      objectSelector: {},
      timeoutSeconds: 10,
      rules: [{ scope: "*" }],
    });
    expect(got.webhooks[0]).not.toHaveProperty("reinvocationPolicy");
  });

  it("defaults a mutating webhook's reinvocationPolicy and service port", async () => {
    const hook = webhook({ clientConfig: { service: { namespace: "default", name: "hook" } } });
    const r = await s.request(`${base}/mutatingwebhookconfigurations`, {
      method: "POST",
      headers: json,
      body: JSON.stringify(configuration("MutatingWebhookConfiguration", "m1", [hook])),
    });
    expect(r.status, r.text).toBe(201);
    const got = r.json() as { webhooks: Record<string, unknown>[] };
    expect(got.webhooks[0]).toMatchObject({ reinvocationPolicy: "Never", clientConfig: { service: { port: 443 } } });
  });

  it("refuses an http URL, a missing sideEffects and a matchCondition naming params, in upstream's words", async () => {
    const bad = webhook({
      clientConfig: { url: "http://example.com/hook" },
      sideEffects: undefined,
      matchConditions: [{ name: "p", expression: "params.x == 1" }],
    });
    const r = await s.request(`${base}/validatingwebhookconfigurations`, {
      method: "POST",
      headers: json,
      body: JSON.stringify(configuration("ValidatingWebhookConfiguration", "bad", [bad])),
    });
    expect(r.status).toBe(422);
    const st = r.json() as { message: string; details: { causes: { field: string }[] } };
    expect(st.message).toContain('ValidatingWebhookConfiguration.admissionregistration.k8s.io "bad" is invalid: [');
    expect(st.message).toContain("webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun");
    expect(st.message).toContain(
      "webhooks[0].clientConfig.url: Invalid value: \"http\": 'https' is the only allowed URL scheme; desired format: https://host[/path]",
    );
    expect(st.message).toContain(
      "webhooks[0].matchConditions[0].expression: Invalid value: \"params.x == 1\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'params'",
    );
    expect(st.details.causes.map((c) => c.field)).toEqual([
      "webhooks[0].sideEffects",
      "webhooks[0].clientConfig.url",
      "webhooks[0].matchConditions[0].expression",
    ]);
  });

  it("bumps the generation when the webhooks change, not on a label change", async () => {
    const label = await s.request(`${base}/validatingwebhookconfigurations/v1`, {
      method: "PATCH",
      headers: merge,
      body: JSON.stringify({ metadata: { labels: { a: "b" } } }),
    });
    expect((label.json() as { metadata: { generation: number } }).metadata.generation).toBe(1);
    const r = await s.request(`${base}/validatingwebhookconfigurations/v1`, {
      method: "PATCH",
      headers: merge,
      body: JSON.stringify({ webhooks: [webhook({ timeoutSeconds: 5 })] }),
    });
    expect(r.status, r.text).toBe(200);
    expect((r.json() as { metadata: { generation: number } }).metadata.generation).toBe(2);
  });

  it("serves Tables with printers.go's NAME WEBHOOKS AGE", async () => {
    const r = await s.request(`${base}/mutatingwebhookconfigurations`, {
      headers: { Accept: "application/json;as=Table;v=v1;g=meta.k8s.io" },
    });
    const t = r.json() as { columnDefinitions: { name: string; type: string }[]; rows: { cells: unknown[] }[] };
    expect(t.columnDefinitions.map((c) => [c.name, c.type])).toEqual([
      ["Name", "string"],
      ["Webhooks", "integer"],
      ["Age", "string"],
    ]);
    expect(t.rows[0]?.cells.slice(0, 2)).toEqual(["m1", 1]);
  });

  it("may be written by cluster-admin only (bootstrap policy: no aggregated role grants them)", async () => {
    const r = await s.request(`${base}/validatingwebhookconfigurations`, {
      headers: { "Impersonate-User": "jane", "Impersonate-Group": "system:authenticated" },
    });
    expect(r.status).toBe(403);
  });

  it.skipIf(kubectl133 === "")("kubectl 1.33 lists them with upstream's columns", async () => {
    const out = await s.kubectl(["get", "validatingwebhookconfigurations"]);
    expect(out.stderr).toBe("");
    expect(out.stdout.split("\n")[0]).toMatch(/^NAME\s+WEBHOOKS\s+AGE$/);
    expect(out.stdout).toMatch(/^v1\s+1\s+\S+$/m);
  });
});
