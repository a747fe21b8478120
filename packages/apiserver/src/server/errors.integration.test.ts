/** Every failure is a Status with upstream's code; bad bodies never crash the server or change data. */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./testing.ts";

const svc = (name: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ apiVersion: "v1", kind: "Service", metadata: { name, ...extra }, spec: { ports: [{ port: 80 }] } });
const json = { "Content-Type": "application/json" };

describe("error responses", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    await s.request("/api/v1/namespaces/default/services", { method: "POST", headers: json, body: svc("keep") });
  });
  afterAll(async () => {
    await s?.close();
  });

  const status = (text: string) => JSON.parse(text) as { kind: string; code: number; reason: string; message: string };

  it.each([
    // No credentials: system:anonymous, whom RBAC grants nothing here (upstream's 403, not 401).
    ["403 without a token", "/api/v1/services", { token: null }, 403, "Forbidden"],
    ["401 with a wrong token", "/api/v1/services", { token: "nope" }, 401, "Unauthorized"],
    ["404 for an unknown path", "/nope", {}, 404, "NotFound"],
    ["404 for an unknown resource", "/api/v1/widgets", {}, 404, "NotFound"],
    ["404 for a missing object", "/api/v1/namespaces/default/services/missing", {}, 404, "NotFound"],
    [
      "405 for POST on events.k8s.io (read-only here)",
      "/apis/events.k8s.io/v1/namespaces/default/events",
      { method: "POST", headers: json, body: "{}" },
      405,
      "MethodNotAllowed",
    ],
    ["405 for POST across namespaces", "/api/v1/services", { method: "POST", headers: json, body: "{}" }, 405, "MethodNotAllowed"],
    [
      "409 for a duplicate name",
      "/api/v1/namespaces/default/services",
      { method: "POST", headers: json, body: svc("keep") },
      409,
      "AlreadyExists",
    ],
    [
      "409 for a stale resourceVersion",
      "/api/v1/namespaces/default/services/keep",
      { method: "PUT", headers: json, body: svc("keep", { resourceVersion: "1" }) },
      409,
      "Conflict",
    ],
    [
      "413 for a body over 3 MiB",
      "/api/v1/namespaces/default/services",
      { method: "POST", headers: json, body: "x".repeat(3 * 1024 * 1024 + 1) },
      413,
      "RequestEntityTooLarge",
    ],
    [
      "415 for an unknown body type",
      "/api/v1/namespaces/default/services",
      { method: "POST", headers: { "Content-Type": "text/csv" }, body: "a,b" },
      415,
      "UnsupportedMediaType",
    ],
    [
      "415 for an unknown patch type",
      "/api/v1/namespaces/default/services/keep",
      { method: "PATCH", headers: json, body: "{}" },
      415,
      "UnsupportedMediaType",
    ],
    [
      "422 for an invalid Service",
      "/api/v1/namespaces/default/services",
      { method: "POST", headers: json, body: JSON.stringify({ metadata: { name: "Bad_Name" }, spec: { ports: [{ port: 80 }] } }) },
      422,
      "Invalid",
    ],
    [
      "400 for malformed JSON",
      "/api/v1/namespaces/default/services",
      { method: "POST", headers: json, body: "{not json" },
      400,
      "BadRequest",
    ],
    [
      "400 for malformed YAML",
      "/api/v1/namespaces/default/services",
      { method: "POST", headers: { "Content-Type": "application/yaml" }, body: "a: [1, 2\n" },
      400,
      "BadRequest",
    ],
    ["400 for a bad escape in the path", "/api/v1/namespaces/%E0%A4%A/services", {}, 400, "BadRequest"],
    ["404 for a missing namespace", "/api/v1/namespaces/nope/services", { method: "POST", headers: json, body: svc("x") }, 404, "NotFound"],
  ] as const)("%s", async (_name, path, init, code, reason) => {
    const r = await s.request(path, init);
    expect(r.status).toBe(code);
    const st = status(r.text);
    expect(st).toMatchObject({ kind: "Status", code, reason });
  });

  it("names the namespace in the NotFound message and the path in the 422", async () => {
    const r = await s.request("/api/v1/namespaces/nope/services", { method: "POST", headers: json, body: svc("x") });
    expect(status(r.text).message).toBe('namespaces "nope" not found');
    const bad = await s.request("/api/v1/namespaces/default/services", {
      method: "POST",
      headers: json,
      body: JSON.stringify({ metadata: { name: "Bad_Name" }, spec: { ports: [{ port: 80 }] } }),
    });
    expect(status(bad.text).message).toMatch(
      /^Service "Bad_Name" is invalid: metadata\.name: Invalid value: "Bad_Name": a DNS-1035 label must consist of lower case alphanumeric characters/,
    );
  });

  it("answers etcd's 500 for an object over 1.5 MiB once stored, as kube-apiserver on etcd, and keeps nothing of it", async () => {
    // 70,000 labels: a body of 0.8 MB (under the 3 MiB body limit) whose managed fields make it 1.6 MB.
    const labels = Object.fromEntries(Array.from({ length: 70_000 }, (_, i) => [`l${i.toString(36)}`, "v"]));
    const body = svc("too-large", { labels });
    expect(body.length).toBeLessThan(3 * 1024 * 1024);
    const r = await s.request("/api/v1/namespaces/default/services", { method: "POST", headers: json, body });
    expect(r.status).toBe(500);
    expect(JSON.parse(r.text)).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: "etcdserver: request is too large",
      code: 500,
    });
    expect((await s.request("/api/v1/namespaces/default/services/too-large")).status).toBe(404);
    const ips = await s.request("/apis/networking.k8s.io/v1/ipaddresses");
    const owners = (JSON.parse(ips.text) as { items: { spec: { parentRef: { name: string } } }[] }).items.map((i) => i.spec.parentRef.name);
    expect(owners).not.toContain("too-large");
  });

  it("answers 410 Expired to a watch from a compacted resourceVersion", async () => {
    await s.request("/api/v1/namespaces/default/services", { method: "POST", headers: json, body: svc("compact-me") });
    const rev = await s.api.store.currentRevision();
    await s.api.store.compact(rev);
    const r = await s.request("/api/v1/namespaces/default/services?watch=true&resourceVersion=1&timeoutSeconds=1");
    expect(r.status).toBe(200);
    const ev = JSON.parse(r.text.split("\n")[0]!) as { type: string; object: { code: number; reason: string } };
    expect(ev).toMatchObject({ type: "ERROR", object: { code: 410, reason: "Expired" } });
    const list = await s.request(`/api/v1/namespaces/default/services?resourceVersion=1&resourceVersionMatch=Exact`);
    expect(list.status).toBe(410);
  });

  it("keeps /healthz, /livez, /readyz and /version open and /metrics closed", async () => {
    for (const p of ["/healthz", "/livez", "/readyz", "/version"]) expect((await s.request(p, { token: null })).status).toBe(200);
    const anon = await s.request("/metrics", { token: null });
    expect(anon.status).toBe(403);
    // responsewriters.Forbidden: NewForbidden with an empty GroupResource, its details all omitempty.
    expect(anon.text).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"forbidden: User \\"system:anonymous\\" cannot get path \\"/metrics\\"","reason":"Forbidden","details":{},"code":403}',
    );
    const m = await s.request("/metrics");
    expect(m.text).toMatch(
      /^apiserver_request_total\{code="201",component="apiserver",group="",resource="services",scope="namespace",subresource="",verb="POST",version="v1"\} \d+$/m,
    );
    expect(m.text).toContain("apiserver_request_duration_seconds_bucket{");
  });

  it("records a routed request's error under its resource, a route's 404 and 405 under none", async () => {
    const put = await s.request("/api/v1/namespaces/default/services/keep", {
      method: "PUT",
      headers: json,
      body: svc("keep", { resourceVersion: "1" }),
    });
    expect(put.status).toBe(409);
    expect((await s.request("/api/v1/services", { method: "POST", headers: json, body: "{}" })).status).toBe(405);
    const m = (await s.request("/metrics")).text;
    // InstrumentRouteFunc wraps the route's handler: its 409 counts as a PUT of services.
    expect(m).toMatch(
      /^apiserver_request_total\{code="409",component="apiserver",group="",resource="services",scope="resource",subresource="",verb="PUT",version="v1"\} \d+$/m,
    );
    // No route takes POST across namespaces: go-restful answers before any instrumented handler.
    expect(m).toMatch(
      /^apiserver_request_total\{code="405",component="apiserver",group="",resource="",scope="",subresource="",verb="POST",version=""\} \d+$/m,
    );
  });

  it("survives a garbage, huge and truncated body fuzz run without changing stored data", async () => {
    const before = await s.request("/api/v1/services");
    const valid = svc("fuzz");
    const bodies: (string | Buffer)[] = [
      "",
      "null",
      "[]",
      "42",
      '"str"',
      "{}",
      '{"metadata":null}',
      '{"metadata":{"name":5}}',
      '{"spec":{"ports":"x"}}',
      '{"apiVersion":"v2","kind":"Service"}',
      '{"kind":"Pod","metadata":{"name":"p"}}',
      "\u0000\u0001\u0002",
      "k8s\u0000garbage",
      "{".repeat(10000),
      "[".repeat(100000),
      `{"a":"${"\\u".repeat(100)}"}`,
    ];
    for (let i = 1; i < valid.length; i += 7) bodies.push(valid.slice(0, i));
    for (let i = 0; i < 40; i++) bodies.push(randomBytes(1 + i * 37));
    const types = [
      "application/json",
      "application/yaml",
      "application/vnd.kubernetes.protobuf",
      "application/merge-patch+json",
      "application/json-patch+json",
      "application/strategic-merge-patch+json",
      "application/apply-patch+yaml",
    ];
    for (const [i, body] of bodies.entries()) {
      const ct = types[i % types.length]!;
      const patch = ct.includes("patch");
      const r = await s.request(
        patch ? "/api/v1/namespaces/default/services/keep?fieldManager=fuzz" : "/api/v1/namespaces/default/services",
        { method: patch ? "PATCH" : "POST", headers: { "Content-Type": ct }, body },
      );
      // A few bodies are valid no-op patches (`{}`); everything else must be a 4xx Status.
      expect(r.status, `${ct} ${String(body).slice(0, 40)}`).toBeLessThan(500);
      if (r.status >= 400) expect(status(r.text).kind).toBe("Status");
      else expect(String(body).length).toBeLessThan(20);
    }
    const after = await s.request("/api/v1/services");
    const names = (t: string) =>
      (JSON.parse(t) as { items: { metadata: { name: string; resourceVersion: string } }[] }).items.map(
        (i) => `${i.metadata.name}@${i.metadata.resourceVersion}`,
      );
    expect(names(after.text)).toEqual(names(before.text));
    expect((await s.request("/healthz")).status).toBe(200);
  });
});
