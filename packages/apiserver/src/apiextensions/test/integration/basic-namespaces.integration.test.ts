/**
 * Upstream apiextensions-apiserver test/integration/basic_test.go, the cases on namespaces of the
 * namespaced noxu CRD: TestNoNamespaceReject, TestSameNameDiffNamespace,
 * TestCrossNamespaceListWatch and, last as it deletes the CRD, TestNameConflict.
 */
import { eventually } from "@servicenet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../server/testing.ts";
import { createCRD, deleteCRD, noxuCRD, watchEvents, type WatchLine } from "./fixtures-testing.ts";

const group = "/apis/mygroup.example.com/v1beta1";
const noxus = (ns: string) => (ns === "" ? `${group}/noxus` : `${group}/namespaces/${ns}/noxus`);
const instance = (ns: string, name: string) => ({
  apiVersion: "mygroup.example.com/v1beta1",
  kind: "WishIHadChosenNoxu",
  metadata: { namespace: ns, name },
  content: { key: "value" },
});
interface Item {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace: string; uid: string; resourceVersion: string };
}

describe("apiextensions basic_test (namespaces)", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    await createCRD(s, noxuCRD("Namespaced"));
    for (const name of ["namespace-1", "namespace-2"])
      expect((await s.send("POST", "/api/v1/namespaces", { metadata: { name } })).status).toBe(201);
  });
  afterAll(async () => {
    await s?.close();
  });

  /** The events of a watch from `rv`. */
  const watch = (ns: string, rv: string, expected: number): Promise<WatchLine[]> =>
    watchEvents(s, `${noxus(ns)}?resourceVersion=${rv}`, expected);

  it("TestNoNamespaceReject: the list of all namespaces is the list kind; a create without a namespace is refused", async () => {
    const list = (await s.request(noxus(""))).json() as { apiVersion: string; kind: string; items: unknown[] };
    expect(list).toMatchObject({ apiVersion: "mygroup.example.com/v1beta1", kind: "NoxuItemList", items: [] });
    const r = await s.send("POST", noxus(""), instance("", "foo"));
    expect(r.status, r.text).toBeGreaterThanOrEqual(400);
    expect((await s.request(noxus(""))).json()).toMatchObject({ items: [] });
  });

  it("TestCrossNamespaceListWatch: one list and watch across namespaces, one per namespace", async () => {
    const rv = ((await s.request(noxus(""))).json() as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
    const created: Record<string, Item> = {};
    for (const [ns, name] of [
      ["namespace-1", "foo1"],
      ["namespace-2", "foo2"],
    ] as const) {
      const r = await s.send("POST", noxus(ns), instance(ns, name));
      expect(r.status, r.text).toBe(201);
      created[ns] = r.json() as Item;
    }
    const list = (await s.request(noxus(""))).json() as { items: Item[] };
    expect(list.items).toHaveLength(2);
    for (const item of list.items) expect(item).toEqual(created[item.metadata.namespace]);

    const all = await watch("", rv, 2);
    expect(all.map((e) => [e.type, e.object.apiVersion, e.object.kind, e.object.metadata.namespace])).toEqual([
      ["ADDED", "mygroup.example.com/v1beta1", "WishIHadChosenNoxu", "namespace-1"],
      ["ADDED", "mygroup.example.com/v1beta1", "WishIHadChosenNoxu", "namespace-2"],
    ]);
    for (const e of all) expect(e.object.metadata.uid).not.toBe("");
    for (const ns of ["namespace-1", "namespace-2"])
      expect((await watch(ns, rv, 1)).map((e) => [e.type, e.object.metadata.namespace])).toEqual([["ADDED", ns]]);
    for (const [ns, item] of Object.entries(created))
      expect((await s.request(`${noxus(ns)}/${item.metadata.name}`, { method: "DELETE" })).status).toBe(200);
  });

  it("TestSameNameDiffNamespace: one name in two namespaces is two objects (testSimpleCRUD in each)", async () => {
    for (const ns of ["namespace-1", "namespace-2"]) {
      const r = await s.send("POST", noxus(ns), instance(ns, "foo"));
      expect(r.status, r.text).toBe(201);
    }
    const [one, two] = await Promise.all(
      ["namespace-1", "namespace-2"].map(async (ns) => (await s.request(`${noxus(ns)}/foo`)).json() as Item),
    );
    expect(one!.metadata.namespace).toBe("namespace-1");
    expect(two!.metadata.namespace).toBe("namespace-2");
    expect(one!.metadata.uid).not.toBe(two!.metadata.uid);
    expect((await s.request(`${noxus("namespace-1")}/foo`, { method: "DELETE" })).status).toBe(200);
    expect((await s.request(`${noxus("namespace-1")}/foo`)).status).toBe(404);
    expect((await s.request(`${noxus("namespace-2")}/foo`)).status).toBe(200);
  });

  it("TestNameConflict: a CRD whose short names another holds is not accepted until that one is deleted", async () => {
    // fixtures.NewNoxu2CustomResourceDefinition: the same short names as noxu.
    const noxu2 = {
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "CustomResourceDefinition",
      metadata: { name: "noxus2.mygroup.example.com" },
      spec: {
        group: "mygroup.example.com",
        versions: [
          {
            name: "v1alpha1",
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true } },
          },
        ],
        names: {
          plural: "noxus2",
          singular: "nonenglishnoxu2",
          kind: "WishIHadChosenNoxu2",
          shortNames: ["foo", "bar", "abc", "def"],
          listKind: "Noxu2ItemList",
        },
        scope: "Namespaced",
      },
    };
    expect((await s.send("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", noxu2)).status).toBe(201);
    const namesAccepted = async () =>
      (
        (await s.request("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/noxus2.mygroup.example.com")).json() as {
          status?: { conditions?: { type: string; status: string }[] };
        }
      ).status?.conditions?.find((c) => c.type === "NamesAccepted")?.status;
    await eventually(async () => (await namesAccepted()) === "False", { what: "NamesAccepted False" });
    await deleteCRD(s, "noxus.mygroup.example.com");
    await eventually(async () => (await namesAccepted()) === "True", { what: "NamesAccepted True" });
  });
});
