/**
 * Query parameters over HTTP as apimachinery converts them: the spellings other clients send
 * (Python's `watch=True`, `force=True`) mean what they mean on kube-apiserver.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./testing.ts";

type Ev = { type: string; object: { kind?: string; metadata: { name?: string } } };
const lines = (text: string): Ev[] =>
  text
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Ev);
const base = "/api/v1/namespaces/default/services";
const apply = { "Content-Type": "application/apply-patch+yaml" };
const service = (tier: string): string =>
  JSON.stringify({ apiVersion: "v1", kind: "Service", metadata: { name: "q1", labels: { tier } }, spec: { ports: [{ port: 80 }] } });

describe("query parameters as apimachinery converts them", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    const r = await s.request(`${base}/q1?fieldManager=first`, { method: "PATCH", headers: apply, body: service("a") });
    expect(r.status).toBe(201);
  });
  afterAll(async () => {
    await s?.close();
  });

  it("watch=True streams events, with Python's spellings of the other flags", async () => {
    const r = await s.request(
      `${base}?fieldSelector=metadata.name%3Dq1&watch=True&allowWatchBookmarks=True&sendInitialEvents=True&resourceVersionMatch=NotOlderThan&timeoutSeconds=1`,
    );
    expect(lines(r.text).map((e) => `${e.type} ${e.object.kind}`)).toEqual(["ADDED Service", "BOOKMARK Service"]);
  });

  it("watch=false and watch=0 list", async () => {
    for (const v of ["false", "FALSE", "0"]) {
      const r = await s.request(`${base}?watch=${v}`);
      expect((r.json() as { kind: string }).kind).toBe("ServiceList");
    }
  });

  it("a GET of one object ignores ?watch", async () => {
    const r = await s.request(`${base}/q1?watch=true`);
    expect(r.json()).toMatchObject({ kind: "Service", metadata: { name: "q1" } });
  });

  it("force=True takes a conflicting field over", async () => {
    const conflict = await s.request(`${base}/q1?fieldManager=second`, { method: "PATCH", headers: apply, body: service("b") });
    expect(conflict.status).toBe(409);
    const forced = await s.request(`${base}/q1?fieldManager=second&force=True`, { method: "PATCH", headers: apply, body: service("b") });
    expect(forced.status).toBe(200);
    expect(forced.json()).toMatchObject({ metadata: { labels: { tier: "b" } } });
  });

  it.each([
    ["limit=abc", 'strconv.ParseInt: parsing "abc": invalid syntax'],
    ["limit=", 'strconv.ParseInt: parsing "": invalid syntax'],
    ["watch=1&timeoutSeconds=1.5", 'strconv.ParseInt: parsing "1.5": invalid syntax'],
  ])("%s is a 400 with Go's error", async (query, message) => {
    const r = await s.request(`${base}?${query}`);
    expect(r.status).toBe(400);
    expect(r.json()).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message,
      reason: "BadRequest",
      code: 400,
    });
  });
});
