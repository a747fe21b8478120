/**
 * Go's omitempty on the wire: fields kube-apiserver's encoding/json leaves out or always writes,
 * seen through the REST API and real kubectl 1.33.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { haveKubectl, startTestServer, type TestServer } from "./testing.ts";

const json = { "Content-Type": "application/json" };
const merge = { "Content-Type": "application/merge-patch+json" };
const toExternalName = JSON.stringify({ spec: { type: "ExternalName", externalName: "db.example.com" } });

describe("omitempty on the wire", () => {
  let s: TestServer;
  const dir = mkdtempSync(join(tmpdir(), "omitempty-"));
  const create = async (name: string) => {
    const r = await s.request("/api/v1/namespaces/default/services", {
      method: "POST",
      headers: json,
      body: JSON.stringify({ metadata: { name }, spec: { selector: { app: name }, ports: [{ port: 80 }] } }),
    });
    expect(r.status, r.text).toBe(201);
  };
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("a ClusterIP Service merge-patched to ExternalName has no clusterIP, clusterIPs, ipFamilies or ipFamilyPolicy", async () => {
    await create("to-ext");
    const p = await s.request("/api/v1/namespaces/default/services/to-ext", { method: "PATCH", headers: merge, body: toExternalName });
    expect(p.status, p.text).toBe(200);
    const r = await s.request("/api/v1/namespaces/default/services/to-ext");
    const spec = (r.json() as { spec: Record<string, unknown> }).spec;
    expect(Object.keys(spec)).not.toContain("clusterIP");
    expect(spec).toEqual({
      ports: [{ protocol: "TCP", port: 80, targetPort: 80 }],
      selector: { app: "to-ext" },
      type: "ExternalName",
      sessionAffinity: "None",
      externalName: "db.example.com",
    });
    expect(r.text).not.toContain('"clusterIP"');
  });

  it('an ExternalName Service created with "clusterIP": "" is written without it (omitempty)', async () => {
    const r = await s.request("/api/v1/namespaces/default/services", {
      method: "POST",
      headers: json,
      body: JSON.stringify({
        metadata: { name: "ext-empty" },
        spec: { type: "ExternalName", externalName: "a.example.com", clusterIP: "" },
      }),
    });
    expect(r.status, r.text).toBe(201);
    expect(r.text).not.toContain('"clusterIP"');
    const got = await s.request("/api/v1/namespaces/default/services/ext-empty");
    expect(got.text).not.toContain('"clusterIP"');
  });

  it("an Event writes the fields Go has no omitempty on, and metav1.Time's null", async () => {
    const r = await s.request("/api/v1/namespaces/default/events", {
      method: "POST",
      headers: json,
      body: JSON.stringify({ metadata: { name: "ev1" }, involvedObject: { kind: "Service", name: "web" }, reason: "Tested", message: "m" }),
    });
    expect(r.status, r.text).toBe(201);
    const got = (await s.request("/api/v1/namespaces/default/events/ev1")).json() as Record<string, unknown>;
    expect(got).toMatchObject({
      source: {},
      firstTimestamp: null,
      lastTimestamp: null,
      eventTime: null,
      reportingComponent: "",
      reportingInstance: "",
    });
  });

  it("a Deployment's pod template writes ObjectMeta's creationTimestamp: null (metav1.Time is a struct)", async () => {
    const d = await s.request("/apis/apps/v1/namespaces/default/deployments", {
      method: "POST",
      headers: json,
      body: JSON.stringify({
        metadata: { name: "web" },
        spec: {
          selector: { matchLabels: { app: "web" } },
          template: { metadata: { labels: { app: "web" } }, spec: { containers: [{ name: "c", image: "nginx" }] } },
        },
      }),
    });
    expect(d.status, d.text).toBe(201);
    const template = (d.json() as { spec: { template: { metadata: unknown } } }).spec.template;
    expect(template.metadata).toEqual({ creationTimestamp: null, labels: { app: "web" } });
  });

  it.skipIf(!haveKubectl())("kubectl diff of the ExternalName Service shows no clusterIP", async () => {
    await create("diff-ext");
    const p = await s.request("/api/v1/namespaces/default/services/diff-ext", { method: "PATCH", headers: merge, body: toExternalName });
    expect(p.status, p.text).toBe(200);
    const file = join(dir, "svc.yaml");
    writeFileSync(
      file,
      'apiVersion: v1\nkind: Service\nmetadata:\n  name: diff-ext\n  namespace: default\n  labels:\n    changed: "yes"\n' +
        "spec:\n  type: ExternalName\n  externalName: db.example.com\n  selector:\n    app: diff-ext\n  ports:\n  - port: 80\n",
    );
    const r = await s.kubectl(["diff", "-f", file]);
    expect(r.stdout).toMatch(/\+\s+changed: "yes"/);
    expect(r.stdout).not.toMatch(/clusterIP/);
  });
});
