/**
 * DELETE and deletecollection with DeleteOptions over HTTP (upstream handlers/delete.go and
 * registry/generic/registry/store.go): propagationPolicy and orphanDependents, from the body or the
 * query, set the garbage collector's finalizers; both at once is 422.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./testing.ts";

const json = { "Content-Type": "application/json" };
type Obj = { metadata: { name: string; deletionTimestamp?: string; finalizers?: string[]; generation?: number } };
const base = "/api/v1/namespaces/default/services";

describe("DELETE with propagationPolicy", () => {
  let s: TestServer;
  const create = async (name: string) =>
    expect(
      (
        await s.request(base, {
          method: "POST",
          headers: json,
          body: JSON.stringify({ metadata: { name }, spec: { ports: [{ port: 80 }] } }),
        })
      ).status,
    ).toBe(201);
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  it.each([
    ["body propagationPolicy Orphan", "", '{"kind":"DeleteOptions","apiVersion":"v1","propagationPolicy":"Orphan"}', 200, ["orphan"]],
    ["body propagationPolicy Foreground", "", '{"propagationPolicy":"Foreground"}', 200, ["foregroundDeletion"]],
    ["query propagationPolicy=Orphan", "?propagationPolicy=Orphan", "", 200, ["orphan"]],
    ["query orphanDependents=true", "?orphanDependents=true", "", 200, ["orphan"]],
    ["body propagationPolicy Background", "", '{"propagationPolicy":"Background"}', 200, undefined],
  ])("%s", async (name, query, body, code, finalizers) => {
    const n = name.toLowerCase().replace(/[^a-z0-9]+/g, "-");
    await create(n);
    const r = await s.request(`${base}/${n}${query}`, { method: "DELETE", ...(body ? { headers: json, body } : {}) });
    expect(r.status).toBe(code);
    const got = await s.request(`${base}/${n}`);
    if (finalizers === undefined) {
      expect(got.status).toBe(404);
      // Services answer with the deleted object (upstream ReturnDeletedObject), without a deletionTimestamp.
      expect((r.json() as Obj).metadata.deletionTimestamp).toBeUndefined();
      return;
    }
    const obj = got.json() as Obj;
    expect(obj.metadata.finalizers).toEqual(finalizers);
    expect(obj.metadata.deletionTimestamp).toMatch(/Z$/);
    // The response is the object, kept for the garbage collector.
    expect((r.json() as Obj).metadata.finalizers).toEqual(finalizers);
  });

  it("answers 202 for orphanDependents=false (any ParseBool spelling) on an object kept by a finalizer", async () => {
    const r0 = await s.request(base, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ metadata: { name: "held", finalizers: ["example.com/x"] }, spec: { ports: [{ port: 80 }] } }),
    });
    expect(r0.status).toBe(201);
    expect((await s.request(`${base}/held?orphanDependents=0`, { method: "DELETE" })).status).toBe(202);
  });

  it("refuses orphanDependents together with propagationPolicy (ValidateDeleteOptions)", async () => {
    await create("both");
    const r = await s.request(`${base}/both`, {
      method: "DELETE",
      headers: json,
      body: '{"orphanDependents":true,"propagationPolicy":"Orphan"}',
    });
    expect(r.status).toBe(422);
    expect((r.json() as { message: string }).message).toContain("orphanDependents and deletionPropagation cannot be both set");
    expect((await s.request(`${base}/both`)).status).toBe(200);
  });

  it("deletecollection applies the policy to every item", async () => {
    await create("coll-a");
    await create("coll-b");
    const r = await s.request(`${base}?propagationPolicy=Orphan&fieldSelector=metadata.name%3Dcoll-a`, { method: "DELETE" });
    expect(r.status).toBe(200);
    expect(((await s.request(`${base}/coll-a`)).json() as Obj).metadata.finalizers).toEqual(["orphan"]);
    expect(((await s.request(`${base}/coll-b`)).json() as Obj).metadata.deletionTimestamp).toBeUndefined();
  });
});
