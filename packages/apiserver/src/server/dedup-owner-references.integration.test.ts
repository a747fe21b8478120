/**
 * test/integration/apiserver/apiserver_test.go TestDedupOwnerReferences: a create or an update with
 * a duplicated owner reference is stored deduplicated with one warning; a JSON patch appending a
 * duplicate gets the "after mutating admission" warning (patch dedups only then); distinct
 * references never warn. For a built-in kind (a Service where upstream uses a ConfigMap) and a
 * custom resource.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCRD, noxuCRD } from "../apiextensions/test/integration/fixtures-testing.ts";
import { startTestServer, type TestResponse, type TestServer } from "./testing.ts";

const ns = "test-dedup-owner-references";
const before = (uid: string) =>
  `299 - ".metadata.ownerReferences contains duplicate entries; API server dedups owner references in 1.20+, and may reject such requests as early as 1.24; please fix your requests; duplicate UID(s) observed: ${uid}"`;
const after = (uid: string) =>
  `299 - ".metadata.ownerReferences contains duplicate entries after mutating admission happens; API server dedups owner references in 1.20+, and may reject such requests as early as 1.24; please fix your requests; duplicate UID(s) observed: ${uid}"`;

describe("TestDedupOwnerReferences", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    expect((await s.send("POST", "/api/v1/namespaces", { metadata: { name: ns } })).status).toBe(201);
    await createCRD(s, noxuCRD("Namespaced"));
  });
  afterAll(async () => {
    await s?.close();
  });

  const refA = { apiVersion: "v1", kind: "ConfigMap", name: "fake-configmap", uid: randomUUID() };
  const refB = { apiVersion: "v1", kind: "Node", name: "fake-node", uid: randomUUID() };
  const refC = { apiVersion: "cr.bar.com/v1", kind: "Foo", name: "fake-foo", uid: randomUUID() };
  const appendRef = (r: typeof refA) => [{ op: "add", path: "/metadata/ownerReferences/-", value: r }];

  const cases = [
    { name: "services", base: `/api/v1/namespaces/${ns}/services`, apiVersion: "v1", kind: "Service", spec: { ports: [{ port: 80 }] } },
    {
      name: "custom resources",
      base: `/apis/mygroup.example.com/v1beta1/namespaces/${ns}/noxus`,
      apiVersion: "mygroup.example.com/v1beta1",
      kind: "WishIHadChosenNoxu",
    },
  ];
  for (const c of cases)
    it(c.name, async () => {
      type Obj = { metadata: { ownerReferences?: unknown[]; managedFields?: unknown[] } };
      const body = (r: TestResponse): Obj => r.json() as Obj;
      const created = await s.send("POST", c.base, {
        apiVersion: c.apiVersion,
        kind: c.kind,
        metadata: { name: "dependent", ownerReferences: [refA, refA] },
        ...(c.spec ? { spec: c.spec } : {}),
      });
      expect(created.status, created.text).toBe(201);
      expect(created.headers.get("warning")).toBe(before(refA.uid));
      expect(body(created).metadata.ownerReferences).toEqual([refA]);
      expect(body(created).metadata.managedFields?.length).toBeGreaterThan(0);

      const obj = body(created);
      obj.metadata.ownerReferences = [refA, refA];
      const updated = await s.send("PUT", `${c.base}/dependent`, obj);
      expect(updated.status, updated.text).toBe(200);
      expect(updated.headers.get("warning")).toBe(before(refA.uid));
      expect(body(updated).metadata.ownerReferences).toEqual([refA]);

      const patched = await s.send("PATCH", `${c.base}/dependent`, appendRef(refA), "application/json-patch+json");
      expect(patched.status, patched.text).toBe(200);
      expect(patched.headers.get("warning")).toBe(after(refA.uid));
      expect(body(patched).metadata.ownerReferences).toEqual([refA]);

      const distinct = body(patched);
      distinct.metadata.ownerReferences = [refA, refB];
      const updated2 = await s.send("PUT", `${c.base}/dependent`, distinct);
      expect(updated2.status, updated2.text).toBe(200);
      expect(updated2.headers.get("warning")).toBeNull();
      const patched2 = await s.send("PATCH", `${c.base}/dependent`, appendRef(refC), "application/json-patch+json");
      expect(patched2.headers.get("warning")).toBeNull();
      expect(body(patched2).metadata.ownerReferences).toEqual([refA, refB, refC]);
      const deleted = await s.request(`${c.base}/dependent`, { method: "DELETE" });
      expect(deleted.status).toBe(200);
      expect(deleted.headers.get("warning")).toBeNull();
    });
});
