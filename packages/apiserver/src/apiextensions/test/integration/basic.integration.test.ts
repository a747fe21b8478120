/**
 * Upstream apiextensions-apiserver test/integration/basic_test.go and registration_test.go over
 * HTTP: a CRD becomes Established and its custom resources are served (namespaced and cluster
 * scope, CRUD, list with selectors, watch), and a second CRD cannot take names already accepted.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../server/testing.ts";
import { createCRD, json, noxuCRD } from "./fixtures-testing.ts";

interface Obj {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; resourceVersion: string; generation?: number; labels?: Record<string, string> };
  [k: string]: unknown;
}

describe("apiextensions basic_test", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  it("TestNamespaceScopedCRUD: create, get, list, update, watch and delete a custom resource", async () => {
    const crd = await createCRD(s, noxuCRD("Namespaced"));
    const status = crd["status"] as {
      acceptedNames: unknown;
      conditions: { type: string; status: string; reason: string; message: string }[];
    };
    expect(status.acceptedNames).toEqual({
      plural: "noxus",
      singular: "nonenglishnoxu",
      shortNames: ["foo", "bar", "abc", "def"],
      kind: "WishIHadChosenNoxu",
      listKind: "NoxuItemList",
      categories: ["all"],
    });
    expect(status.conditions.map((c) => [c.type, c.status, c.reason, c.message])).toEqual([
      ["NamesAccepted", "True", "NoConflicts", "no conflicts found"],
      ["Established", "True", "InitialNamesAccepted", "the initial names have been accepted"],
    ]);

    const base = "/apis/mygroup.example.com/v1beta1/namespaces/default/noxus";
    const created = await s.request(base, {
      method: "POST",
      headers: json,
      body: JSON.stringify({
        apiVersion: "mygroup.example.com/v1beta1",
        kind: "WishIHadChosenNoxu",
        metadata: { name: "foo", labels: { a: "b" } },
        content: { key: "value" },
      }),
    });
    expect(created.status, created.text).toBe(201);
    const obj = created.json() as Obj;
    expect(obj).toMatchObject({ apiVersion: "mygroup.example.com/v1beta1", kind: "WishIHadChosenNoxu", content: { key: "value" } });
    expect(obj.metadata).toMatchObject({ name: "foo", namespace: "default", generation: 1 });

    const watch = await s.request(`${base}?watch=true&resourceVersion=${Number(obj.metadata.resourceVersion) - 1}&timeoutSeconds=1`);
    expect(
      watch.text
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => (JSON.parse(l) as { type: string }).type),
    ).toEqual(["ADDED"]);

    const got = await s.request(`${base}/foo`);
    expect(got.status).toBe(200);
    expect((got.json() as Obj).content).toEqual({ key: "value" });

    const listed = (await s.request(`${base}?labelSelector=a%3Db`)).json() as { kind: string; apiVersion: string; items: Obj[] };
    expect(listed.kind).toBe("NoxuItemList");
    expect(listed.items.map((i) => i.metadata.name)).toEqual(["foo"]);
    expect(((await s.request(`${base}?labelSelector=a%3Dc`)).json() as { items: Obj[] }).items).toEqual([]);
    expect(((await s.request(`${base}?fieldSelector=metadata.name%3Dfoo`)).json() as { items: Obj[] }).items).toHaveLength(1);

    const updated = await s.request(`${base}/foo`, {
      method: "PUT",
      headers: json,
      body: JSON.stringify({ ...obj, content: { key: "other" } }),
    });
    expect(updated.status, updated.text).toBe(200);
    expect((updated.json() as Obj).metadata.generation).toBe(2);

    const del = await s.request(`${base}/foo`, { method: "DELETE" });
    expect(del.status, del.text).toBe(200);
    expect((await s.request(`${base}/foo`)).status).toBe(404);
    const notFound = (await s.request(`${base}/foo`)).json() as { message: string };
    expect(notFound.message).toBe('noxus.mygroup.example.com "foo" not found');
  });

  it("TestClusterScopedCRUD: a cluster-scoped resource is served without a namespace", async () => {
    await createCRD(s, {
      ...noxuCRD("Cluster"),
      metadata: { name: "curlets.mygroup.example.com" },
      spec: {
        ...(noxuCRD("Cluster")["spec"] as object),
        names: { plural: "curlets", singular: "curlet", kind: "Curlet", listKind: "CurletList" },
      },
    });
    const r = await s.request("/apis/mygroup.example.com/v1beta1/curlets", {
      method: "POST",
      headers: json,
      body: JSON.stringify({ apiVersion: "mygroup.example.com/v1beta1", kind: "Curlet", metadata: { name: "c1" } }),
    });
    expect(r.status, r.text).toBe(201);
    expect((r.json() as Obj).metadata.namespace).toBeUndefined();
  });

  it("an invalid CRD is refused with upstream's message and nothing is stored", async () => {
    const bad = noxuCRD("Namespaced");
    (bad["metadata"] as { name: string }).name = "wrong.mygroup.example.com";
    const r = await s.request("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", {
      method: "POST",
      headers: json,
      body: JSON.stringify(bad),
    });
    expect(r.status).toBe(422);
    expect((r.json() as { message: string }).message).toBe(
      'CustomResourceDefinition.apiextensions.k8s.io "wrong.mygroup.example.com" is invalid: metadata.name: Invalid value: "wrong.mygroup.example.com": must be spec.names.plural+"."+spec.group',
    );
    expect((await s.request("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/wrong.mygroup.example.com")).status).toBe(404);
  });

  it("registration_test: a CRD whose names another CRD of the group holds is not accepted", async () => {
    const dup = noxuCRD("Namespaced");
    (dup["metadata"] as { name: string }).name = "noxus2.mygroup.example.com";
    (dup["spec"] as { names: { plural: string } }).names.plural = "noxus2";
    const r = await s.request("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", {
      method: "POST",
      headers: json,
      body: JSON.stringify(dup),
    });
    expect(r.status, r.text).toBe(201);
    const { eventually } = await import("@servicenet/testing");
    const cond = await eventually(async () => {
      const o = (await s.request("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/noxus2.mygroup.example.com")).json() as {
        status?: { conditions?: { type: string; status: string; reason?: string; message?: string }[] };
      };
      const c = o.status?.conditions?.find((x) => x.type === "NamesAccepted");
      expect(c).toBeDefined();
      return c!;
    });
    expect(cond).toMatchObject({ status: "False", reason: "ListKindConflict", message: '"NoxuItemList" is already in use' });
    expect((await s.request("/apis/mygroup.example.com/v1beta1/namespaces/default/noxus2")).status).toBe(404);
  });
});
