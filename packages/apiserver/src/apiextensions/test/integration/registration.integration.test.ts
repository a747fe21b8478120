/**
 * Upstream test/integration/registration_test.go over HTTP: TestMultipleResourceInstances (two
 * objects of one CRD seen by a watch, get, list and delete), TestMultipleRegistration (a second
 * CRD of the group serves an object of the same name beside the first's) and
 * TestDeRegistrationAndReRegistration (a deleted CRD's objects are gone and a CRD of the same name
 * starts empty). Not TestEtcdStorage, which reads etcd's keys.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../server/testing.ts";
import { createCRD, deleteCRD, noxuCRD, watchEvents } from "./fixtures-testing.ts";

const ns = "not-the-default";
const group = "/apis/mygroup.example.com/v1beta1";
const noxus = `${group}/namespaces/${ns}/noxus`;
const curlets = `${group}/namespaces/${ns}/curlets`;

interface Obj {
  apiVersion: string;
  kind: string;
  metadata: { name: string; uid: string; resourceVersion: string };
}
interface List {
  metadata: { resourceVersion: string };
  items: Obj[];
}

/** fixtures.NewNoxuInstance (num1 is the largest integer a float64 holds exactly). */
const noxuInstance = (name: string) => ({
  apiVersion: "mygroup.example.com/v1beta1",
  kind: "WishIHadChosenNoxu",
  metadata: { namespace: ns, name },
  content: { key: "value" },
  num: { num1: Number.MAX_SAFE_INTEGER, num2: 1000000 },
});

/** fixtures.NewCurletV1CustomResourceDefinition, namespaced. */
function curletCRD(): Record<string, unknown> {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "curlets.mygroup.example.com" },
    spec: {
      group: "mygroup.example.com",
      versions: [
        {
          name: "v1beta1",
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true } },
        },
      ],
      names: { plural: "curlets", singular: "curlet", kind: "Curlet", listKind: "CurletList" },
      scope: "Namespaced",
    },
  };
}

describe("apiextensions registration_test", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    expect((await s.send("POST", "/api/v1/namespaces", { metadata: { name: ns } })).status).toBe(201);
  });
  afterAll(async () => {
    await s?.close();
  });

  /** instantiateCustomResource: created with a uid, the CRD's apiVersion and kind. */
  const instantiate = async (path: string, body: Record<string, unknown>): Promise<Obj> => {
    const r = await s.send("POST", path, body);
    expect(r.status, r.text).toBe(201);
    const o = r.json() as Obj;
    expect(o.metadata.uid).not.toBe("");
    expect(o.apiVersion).toBe("mygroup.example.com/v1beta1");
    expect(o.kind).toBe(body["kind"]);
    return o;
  };
  const get = async (path: string): Promise<{ status: number; obj: Obj }> => {
    const r = await s.request(path);
    return { status: r.status, obj: r.json() as Obj };
  };
  const list = async (path: string): Promise<List> => {
    const r = await s.request(path);
    expect(r.status, r.text).toBe(200);
    return r.json() as List;
  };

  it("TestMultipleResourceInstances", async () => {
    await createCRD(s, noxuCRD("Namespaced"));
    const initial = await list(noxus);
    const instances = new Map<string, Obj>();
    for (const name of ["foo", "bar"]) instances.set(name, await instantiate(noxus, noxuInstance(name)));

    const added = await watchEvents(s, `${noxus}?resourceVersion=${initial.metadata.resourceVersion}`, 2);
    expect(added.map((e) => [e.type, e.object.metadata.name]).sort()).toEqual([
      ["ADDED", "bar"],
      ["ADDED", "foo"],
    ]);

    for (const [name, created] of instances) expect((await get(`${noxus}/${name}`)).obj).toEqual(created);
    const withItems = await list(noxus);
    expect(withItems.items).toHaveLength(2);
    for (const item of withItems.items) expect(item).toEqual(instances.get(item.metadata.name));

    for (const name of instances.keys()) expect((await s.request(`${noxus}/${name}`, { method: "DELETE" })).status).toBe(200);
    expect((await list(noxus)).items).toHaveLength(0);
    const deleted = await watchEvents(s, `${noxus}?resourceVersion=${withItems.metadata.resourceVersion}`, 2);
    expect(deleted.map((e) => [e.type, e.object.metadata.name]).sort()).toEqual([
      ["DELETED", "bar"],
      ["DELETED", "foo"],
    ]);
    await deleteCRD(s, "noxus.mygroup.example.com");
  });

  it("TestMultipleRegistration", async () => {
    await createCRD(s, noxuCRD("Namespaced"));
    const noxu = await instantiate(noxus, noxuInstance("foo"));
    expect((await get(`${noxus}/foo`)).obj).toEqual(noxu);

    await createCRD(s, curletCRD());
    const curlet = await instantiate(curlets, {
      apiVersion: "mygroup.example.com/v1beta1",
      kind: "Curlet",
      metadata: { namespace: ns, name: "foo" },
      content: { key: "value" },
    });
    expect((await get(`${curlets}/foo`)).obj).toEqual(curlet);
    // now re-GET noxu
    expect((await get(`${noxus}/foo`)).obj).toEqual(noxu);

    await deleteCRD(s, "curlets.mygroup.example.com");
    await deleteCRD(s, "noxus.mygroup.example.com");
  });

  it("TestDeRegistrationAndReRegistration", async () => {
    await createCRD(s, noxuCRD("Namespaced"));
    await instantiate(noxus, noxuInstance("foo"));
    await deleteCRD(s, "noxus.mygroup.example.com");
    expect((await s.request(noxus)).status).toBe(404);
    expect((await s.request(`${noxus}/foo`)).status).toBe(404);

    await createCRD(s, noxuCRD("Namespaced"));
    const initial = await list(noxus);
    expect((await get(`${noxus}/foo`)).status).toBe(404);
    expect(initial.items).toHaveLength(0);
    const created = await instantiate(noxus, noxuInstance("foo"));
    expect((await get(`${noxus}/foo`)).obj).toEqual(created);
    const withItem = await list(noxus);
    expect(withItem.items).toEqual([created]);

    expect((await s.request(`${noxus}/foo`, { method: "DELETE" })).status).toBe(200);
    expect((await get(`${noxus}/foo`)).status).toBe(404);
    expect((await list(noxus)).items).toHaveLength(0);
  });
});
