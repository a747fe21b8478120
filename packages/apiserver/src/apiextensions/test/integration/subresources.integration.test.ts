/**
 * Upstream test/integration/subresources_test.go (TestStatusSubresource, TestGeneration) and
 * table_test.go (TestTableGet) over HTTP, and `kubectl get` of a custom resource printing the
 * CRD's additionalPrinterColumns.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { haveKubectl, startTestServer, type TestServer } from "../../../server/testing.ts";
import { createCRD, json, noxuCRD } from "./fixtures-testing.ts";

interface Obj {
  metadata: { name: string; generation?: number; resourceVersion: string };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
}

const schema = {
  type: "object",
  properties: {
    spec: { type: "object", properties: { num: { type: "integer" }, color: { type: "string" } } },
    status: { type: "object", properties: { num: { type: "integer" } } },
  },
};

function crdWithStatus(): Record<string, unknown> {
  const c = noxuCRD("Namespaced");
  const spec = c["spec"] as { versions: Record<string, unknown>[] };
  spec.versions = [
    {
      name: "v1",
      served: true,
      storage: true,
      schema: { openAPIV3Schema: schema },
      subresources: { status: {} },
      additionalPrinterColumns: [
        { name: "Num", type: "integer", jsonPath: ".spec.num" },
        { name: "Color", type: "string", jsonPath: ".spec.color", priority: 1 },
        { name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" },
      ],
    },
  ];
  return c;
}

const base = "/apis/mygroup.example.com/v1/namespaces/default/noxus";

describe("apiextensions subresources_test and table_test", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    await createCRD(s, crdWithStatus());
  });
  afterAll(async () => {
    await s?.close();
  });

  const put = async (path: string, body: unknown): Promise<Obj> => {
    const r = await s.request(path, { method: "PUT", headers: json, body: JSON.stringify(body) });
    expect(r.status, r.text).toBe(200);
    return r.json() as Obj;
  };

  it("TestStatusSubresource / TestGeneration: status is written only through /status; generation follows the spec", async () => {
    const r = await s.request(base, {
      method: "POST",
      headers: json,
      body: JSON.stringify({
        apiVersion: "mygroup.example.com/v1",
        kind: "WishIHadChosenNoxu",
        metadata: { name: "foo" },
        spec: { num: 10, color: "blue" },
        status: { num: 1 },
      }),
    });
    expect(r.status, r.text).toBe(201);
    const created = r.json() as Obj;
    expect(created.status).toBeUndefined();
    expect(created.metadata.generation).toBe(1);

    const withStatus = await put(`${base}/foo/status`, { ...created, spec: { num: 99 }, status: { num: 20 } });
    expect(withStatus.status).toEqual({ num: 20 });
    expect(withStatus.spec).toEqual({ num: 10, color: "blue" });
    expect(withStatus.metadata.generation).toBe(1);

    const specChanged = await put(`${base}/foo`, { ...withStatus, spec: { num: 11, color: "blue" }, status: { num: 0 } });
    expect(specChanged.status).toEqual({ num: 20 });
    expect(specChanged.metadata.generation).toBe(2);
  });

  it("TestTableGet: the Table has NAME and the additionalPrinterColumns, typed", async () => {
    const r = await s.request(base, { headers: { Accept: "application/json;as=Table;v=v1;g=meta.k8s.io" } });
    expect(r.status, r.text).toBe(200);
    const t = r.json() as {
      kind: string;
      columnDefinitions: { name: string; type: string; format: string; priority: number }[];
      rows: { cells: unknown[] }[];
    };
    expect(t.kind).toBe("Table");
    expect(t.columnDefinitions.map((c) => [c.name, c.type, c.format, c.priority])).toEqual([
      ["Name", "string", "name", 0],
      ["Num", "integer", "", 0],
      ["Color", "string", "", 1],
      ["Age", "date", "", 0],
    ]);
    expect(t.rows[0]!.cells.slice(0, 3)).toEqual(["foo", 11, "blue"]);
    expect(t.rows[0]!.cells[3]).toMatch(/^\d+s$/);
  });

  it.runIf(haveKubectl())("kubectl get prints the printer columns and api-resources lists the resource", async () => {
    const got = await s.kubectl(["get", "noxus", "-n", "default"]);
    expect(got.code, got.stderr).toBe(0);
    expect(got.stdout.split("\n")[0]).toMatch(/^NAME\s+NUM\s+AGE$/);
    expect(got.stdout.split("\n")[1]).toMatch(/^foo\s+11\s+\d+s$/);
    const short = await s.kubectl(["get", "foo", "-n", "default", "-o", "name"]);
    expect(short.stdout.trim()).toBe("wishihadchosennoxu.mygroup.example.com/foo");
    const res = await s.kubectl(["api-resources", "--api-group=mygroup.example.com"]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/noxus\s+foo,bar,abc,def\s+mygroup\.example\.com\/v1\s+true\s+WishIHadChosenNoxu/);
  });
});
