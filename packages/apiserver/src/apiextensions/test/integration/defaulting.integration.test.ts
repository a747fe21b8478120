/**
 * Upstream test/integration/defaulting_test.go (TestCustomResourceDefaulting) and
 * pruning_test.go (TestPruningFromStorage) over HTTP: schema defaults are applied to request
 * bodies and to objects read back from storage, so a default added to the CRD later shows on old
 * objects, and a field removed from the schema disappears from them.
 */
import { eventually } from "@servicenet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../server/testing.ts";
import { createCRD, json, noxuCRD } from "./fixtures-testing.ts";

const base = "/apis/mygroup.example.com/v1beta1/namespaces/default/noxus";
const crdPath = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/noxus.mygroup.example.com";

function specSchema(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: "object",
    properties: {
      spec: {
        type: "object",
        properties: {
          a: { type: "string", default: "A" },
          b: { type: "object", default: {}, properties: { c: { type: "string", default: "C" } } },
          items: { type: "array", items: { type: "object", properties: { x: { type: "integer", default: 1 }, y: { type: "integer" } } } },
          nullable: { type: "string", nullable: true },
          e: { type: "string" },
          ...extra,
        },
      },
    },
  };
}

const version = (openAPIV3Schema: Record<string, unknown>) => ({
  name: "v1beta1",
  served: true,
  storage: true,
  schema: { openAPIV3Schema },
});

interface Obj {
  metadata: { name: string };
  spec: Record<string, unknown>;
}

describe("apiextensions defaulting_test", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    const c = noxuCRD("Namespaced");
    (c["spec"] as { versions: unknown[] }).versions = [version(specSchema())];
    await createCRD(s, c);
  });
  afterAll(async () => {
    await s?.close();
  });

  const create = async (name: string, spec: Record<string, unknown>): Promise<Obj> => {
    const r = await s.request(base, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ apiVersion: "mygroup.example.com/v1beta1", kind: "WishIHadChosenNoxu", metadata: { name }, spec }),
    });
    expect(r.status, r.text).toBe(201);
    return r.json() as Obj;
  };

  it("TestCustomResourceDefaulting: absent fields and non-nullable nulls get defaults, defaults are defaulted", async () => {
    const o = await create("foo", { a: null, items: [{ y: 2 }], nullable: null, e: "kept" });
    expect(o.spec).toEqual({ a: "A", b: { c: "C" }, items: [{ x: 1, y: 2 }], nullable: null, e: "kept" });
  });

  it("a null without a default is dropped unless the field is nullable", async () => {
    const o = await create("nulls", { e: null, nullable: null });
    expect(o.spec["e"]).toBeUndefined();
    expect(o.spec["nullable"]).toBeNull();
  });

  it("TestCustomResourceDefaulting from storage / TestPruningFromStorage: a new default shows, a removed field goes", async () => {
    const crd = (await s.request(crdPath)).json() as { metadata: { resourceVersion: string } };
    const without = specSchema({ d: { type: "string", default: "D" } });
    delete (without["properties"] as { spec: { properties: Record<string, unknown> } }).spec.properties["e"];
    const r = await s.request(crdPath, {
      method: "PATCH",
      headers: { "Content-Type": "application/merge-patch+json" },
      body: JSON.stringify({ metadata: { resourceVersion: crd.metadata.resourceVersion }, spec: { versions: [version(without)] } }),
    });
    expect(r.status, r.text).toBe(200);
    const got = await eventually(async () => {
      const o = (await s.request(`${base}/foo`)).json() as Obj;
      return o.spec["d"] === "D" ? o : undefined;
    });
    expect(got.spec).toEqual({ a: "A", b: { c: "C" }, items: [{ x: 1, y: 2 }], nullable: null, d: "D" });
    const list = (await s.request(base)).json() as { items: Obj[] };
    expect(list.items.find((i) => i.metadata.name === "foo")?.spec["d"]).toBe("D");
  });
});
