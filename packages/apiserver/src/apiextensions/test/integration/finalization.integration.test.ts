/**
 * Upstream test/integration/finalization_test.go (TestFinalization, TestFinalizationAndDeletion)
 * and basic_test.go TestCRDDeletionCascading over HTTP: custom resources honour finalizers, and
 * deleting a CRD deletes its objects (the customresourcecleanup finalizer, Terminating) before
 * the CRD goes and its resource stops being served.
 */
import { eventually } from "@servicenet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../server/testing.ts";
import { createCRD, json, noxuCRD } from "./fixtures-testing.ts";

interface Obj {
  metadata: { name: string; deletionTimestamp?: string; finalizers?: string[]; resourceVersion: string };
  status?: { conditions?: { type: string; status: string; reason?: string; message?: string }[] };
}

const crdPath = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/noxus.mygroup.example.com";
const base = "/apis/mygroup.example.com/v1beta1/namespaces/default/noxus";

describe("apiextensions finalization_test", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    await createCRD(s, noxuCRD("Namespaced"));
  });
  afterAll(async () => {
    await s?.close();
  });

  const create = async (name: string, finalizers?: string[]): Promise<Obj> => {
    const r = await s.request(base, {
      method: "POST",
      headers: json,
      body: JSON.stringify({
        apiVersion: "mygroup.example.com/v1beta1",
        kind: "WishIHadChosenNoxu",
        metadata: { name, ...(finalizers ? { finalizers } : {}) },
      }),
    });
    expect(r.status, r.text).toBe(201);
    return r.json() as Obj;
  };
  const removeFinalizers = async (name: string): Promise<void> => {
    const r = await s.request(`${base}/${name}`, {
      method: "PATCH",
      headers: { "Content-Type": "application/merge-patch+json" },
      body: JSON.stringify({ metadata: { finalizers: null } }),
    });
    expect(r.status, r.text).toBe(200);
  };

  it("TestFinalization: a finalizer keeps a deleted custom resource until it is removed", async () => {
    await create("foo", ["noxu.example.com/finalizer"]);
    const del = await s.request(`${base}/foo`, { method: "DELETE" });
    expect(del.status, del.text).toBe(200);
    const held = (await s.request(`${base}/foo`)).json() as Obj;
    expect(held.metadata.deletionTimestamp).toBeDefined();
    await removeFinalizers("foo");
    expect((await s.request(`${base}/foo`)).status).toBe(404);
  });

  it("TestFinalizationAndDeletion / TestCRDDeletionCascading: a CRD goes after its objects", async () => {
    await create("plain");
    await create("held", ["noxu.example.com/finalizer"]);
    const del = await s.request(crdPath, { method: "DELETE" });
    expect(del.status, del.text).toBe(200);
    const crd = await eventually(async () => {
      const o = (await s.request(crdPath)).json() as Obj;
      const t = o.status?.conditions?.find((c) => c.type === "Terminating");
      expect(t?.reason).toBe("InstanceDeletionCheck");
      return o;
    });
    expect(crd.metadata.finalizers).toEqual(["customresourcecleanup.apiextensions.k8s.io"]);
    expect((await s.request(`${base}/plain`)).status).toBe(404);
    const refused = await s.request(base, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ apiVersion: "mygroup.example.com/v1beta1", kind: "WishIHadChosenNoxu", metadata: { name: "late" } }),
    });
    expect(refused.status).toBe(405);
    expect((refused.json() as { message: string }).message).toBe("create not allowed while custom resource definition is terminating");

    await removeFinalizers("held");
    await eventually(async () => expect((await s.request(crdPath)).status).toBe(404));
    await eventually(async () => expect((await s.request(base)).status).toBe(404));
    const groups = (await s.request("/apis")).json() as { groups: { name: string }[] };
    expect(groups.groups.map((g) => g.name)).not.toContain("mygroup.example.com");
  });
});

describe("apiextensions finalization_test TestApplyCRDuringCRDFinalization", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  it("a server-side apply that would create while the CRD terminates is refused", async () => {
    // A CRD with a finalizer which will stall deletion.
    const crd = noxuCRD("Cluster");
    (crd["metadata"] as { finalizers?: string[] }).finalizers = ["noxu.example.com/finalizer"];
    await createCRD(s, crd);
    expect((await s.request(crdPath, { method: "DELETE" })).status).toBe(200);
    await eventually(async () => {
      const o = (await s.request(crdPath)).json() as Obj;
      expect(o.status?.conditions?.find((c) => c.type === "Terminating")?.status).toBe("True");
      return o;
    });

    const applied = await s.request("/apis/mygroup.example.com/v1beta1/noxus/foo123?dryRun=All&fieldManager=manager", {
      method: "PATCH",
      headers: { "Content-Type": "application/apply-patch+yaml" },
      body: JSON.stringify({
        apiVersion: "mygroup.example.com/v1beta1",
        kind: "WishIHadChosenNoxu",
        metadata: { name: "foo123" },
        content: { key: "value" },
        num: { num1: Number.MAX_SAFE_INTEGER, num2: 1000000 },
      }),
    });
    expect(applied.status, applied.text).toBe(405);
    expect((applied.json() as { message: string }).message).toContain("create not allowed while custom resource definition is terminating");
  });
});
