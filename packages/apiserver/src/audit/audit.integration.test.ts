/**
 * Audit Events of a real server (endpoints/filters/audit.go, audit_init.go): the Audit-Id header,
 * the policy's levels and omitted stages, objectRef, responseStatus, request and response objects,
 * and the authorization annotations, as kube-apiserver writes them to its audit log.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer, type ApiServer } from "../controlplane/apiserver.ts";
import { newPolicyRuleEvaluator } from "./policy/checker.ts";
import { loadPolicyFromBytes } from "./policy/reader.ts";

type Ev = Record<string, unknown> & { stage: string; auditID: string; verb: string; level: string };

const policy = `
apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
  - level: None
    nonResourceURLs: ["/healthz*", "/readyz*", "/livez*"]
  - level: RequestResponse
    resources: [{group: "", resources: ["services"]}]
  - level: Request
    verbs: [create]
  - level: Metadata
`;

describe("audit log", () => {
  let api: ApiServer;
  let dir: string;
  const events: Ev[] = [];

  const call = (method: string, path: string, token: string | undefined, body?: unknown, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
      const url = new URL(path, api.url);
      const data = body === undefined ? undefined : JSON.stringify(body);
      const req = request(
        url,
        {
          method,
          ca: api.caCert,
          headers: {
            ...headers,
            ...(token ? { Authorization: `Bearer ${token}` } : {}),
            ...(data ? { "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(data)) } : {}),
            "User-Agent": "audit-test/1.0",
          },
        },
        (res) => {
          let text = "";
          res.on("data", (c: Buffer) => (text += c.toString()));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
        },
      );
      req.on("error", reject);
      req.end(data);
    });
  const of = (id: string) => events.filter((e) => e.auditID === id);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "servicenet-audit-"));
    const dataDir = join(dir, "data");
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, "tokens.csv"), 'admintoken,admin,admin-uid,"system:masters"\nalicetoken,alice,alice-uid\n');
    api = await startApiServer({
      storage: { backend: "memory" },
      dataDir,
      pkiDir: join(tmpdir(), "servicenet-test-pki"),
      tls: true,
      port: 0,
      audit: {
        evaluator: newPolicyRuleEvaluator(loadPolicyFromBytes(policy)),
        backend: { processEvents: (...e) => events.push(...(e as Ev[])), shutdown: () => undefined },
      },
    });
  });
  afterAll(async () => {
    await api?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("names every answer's audit ID in Audit-Id, the client's own when it sends one", async () => {
    const r = await call("GET", "/version", "admintoken");
    expect(r.headers["audit-id"]).toMatch(/^[0-9a-f-]{36}$/);
    const mine = await call("GET", "/version", "admintoken", undefined, { "Audit-ID": "my-id" });
    expect(mine.headers["audit-id"]).toBe("my-id");
    expect(of("my-id").map((e) => [e.stage, e.level, e.verb, e["requestURI"]])).toEqual([
      ["ResponseComplete", "Metadata", "get", "/version"],
    ]);
  });

  it("records a Service create at RequestResponse: objectRef, both objects, the decision", async () => {
    const svc = { apiVersion: "v1", kind: "Service", metadata: { name: "audited" }, spec: { ports: [{ port: 80 }] } };
    const r = await call("POST", "/api/v1/namespaces/default/services", "admintoken", svc);
    expect(r.status).toBe(201);
    const [ev, ...rest] = of(String(r.headers["audit-id"]));
    expect(rest).toEqual([]);
    expect(Object.keys(ev!)).toEqual([
      "kind",
      "apiVersion",
      "level",
      "auditID",
      "stage",
      "requestURI",
      "verb",
      "user",
      "sourceIPs",
      "userAgent",
      "objectRef",
      "responseStatus",
      "requestObject",
      "responseObject",
      "requestReceivedTimestamp",
      "stageTimestamp",
      "annotations",
    ]);
    expect(ev).toMatchObject({
      kind: "Event",
      apiVersion: "audit.k8s.io/v1",
      level: "RequestResponse",
      stage: "ResponseComplete",
      requestURI: "/api/v1/namespaces/default/services",
      verb: "create",
      user: { username: "admin", uid: "admin-uid", groups: ["system:masters", "system:authenticated"] },
      sourceIPs: ["127.0.0.1"],
      userAgent: "audit-test/1.0",
      objectRef: { resource: "services", namespace: "default", apiVersion: "v1" },
      responseStatus: { metadata: {}, code: 201 },
      requestObject: svc,
      responseObject: { kind: "Service", metadata: { name: "audited", namespace: "default" } },
      annotations: { "authorization.k8s.io/decision": "allow" },
    });
    expect(ev!["requestReceivedTimestamp"]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  });

  it("records a refused request with its Status and the forbid decision", async () => {
    const r = await call("GET", "/api/v1/namespaces/default/configmaps", "alicetoken");
    expect(r.status).toBe(403);
    const [ev] = of(String(r.headers["audit-id"]));
    expect(ev).toMatchObject({
      level: "Metadata",
      verb: "list",
      user: { username: "alice" },
      objectRef: { resource: "configmaps", namespace: "default", apiVersion: "v1" },
      responseStatus: { metadata: {}, status: "Failure", reason: "Forbidden", code: 403 },
      annotations: { "authorization.k8s.io/decision": "forbid", "authorization.k8s.io/reason": "" },
    });
    expect(ev).not.toHaveProperty("requestObject");
  });

  it("writes nothing for a request the policy puts at None", async () => {
    const r = await call("GET", "/healthz", "admintoken");
    expect(r.status).toBe(200);
    expect(of(String(r.headers["audit-id"]))).toEqual([]);
  });
});
