/**
 * core/v1 ConfigMaps over HTTP as kube-apiserver 1.33 answers: CRUD with base64 binaryData,
 * ValidateConfigMap's 422s, the `immutable` rules of ValidateConfigMapUpdate, no create on
 * update and unconditional updates (pkg/registry/core/configmap/strategy.go), the
 * NAME DATA AGE Table, and real kubectl's `create configmap` and `get cm`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kubectl133, startTestServer, type TestServer } from "./testing.ts";

const base = "/api/v1/namespaces/default/configmaps";
type Status = { code: number; reason: string; message: string; details?: { causes?: { field: string }[] } };
type ConfigMap = {
  metadata: { name: string; resourceVersion: string };
  data?: Record<string, string>;
  binaryData?: Record<string, string>;
};

const configMap = (name: string, rest: Record<string, unknown> = {}) => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name },
  ...rest,
});

describe("ConfigMaps", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  it("creates, reads, lists, updates without a resourceVersion and deletes, binaryData as base64", async () => {
    const created = await s.send("POST", base, configMap("crud", { data: { a: "1" }, binaryData: { bin: "AP7/" } }));
    expect(created.status).toBe(201);
    expect(created.json()).toMatchObject({ data: { a: "1" }, binaryData: { bin: "AP7/" } });
    expect(((await s.send("GET", `${base}/crud`)).json() as ConfigMap).binaryData).toEqual({ bin: "AP7/" });
    const list = (await s.send("GET", base)).json() as { kind: string; items: ConfigMap[] };
    expect(list.kind).toBe("ConfigMapList");
    expect(list.items.map((i) => i.metadata.name)).toContain("crud");
    // AllowUnconditionalUpdate: a PUT without metadata.resourceVersion is accepted.
    const updated = await s.send("PUT", `${base}/crud`, configMap("crud", { data: { a: "2" } }));
    expect(updated.status).toBe(200);
    expect((updated.json() as ConfigMap).data).toEqual({ a: "2" });
    expect((await s.send("DELETE", `${base}/crud`)).status).toBe(200);
    expect((await s.send("GET", `${base}/crud`)).status).toBe(404);
  });

  it("is written as encoding/json writes it: map keys sorted, empty maps and a nil immutable left out", async () => {
    const r = await s.send("POST", base, configMap("order", { data: { b: "1", a: "2" }, binaryData: {} }));
    expect(r.status).toBe(201);
    const body = JSON.parse(r.text) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(["kind", "apiVersion", "metadata", "data"]);
    expect(Object.keys(body["data"] as object)).toEqual(["a", "b"]);
  });

  it("a PUT to a missing ConfigMap is NotFound (AllowCreateOnUpdate is false)", async () => {
    const r = await s.send("PUT", `${base}/nope`, configMap("nope", { data: { a: "1" } }));
    expect(r.status).toBe(404);
    expect((r.json() as Status).message).toBe('configmaps "nope" not found');
  });

  it("a bad key is 422 with upstream's message and field path", async () => {
    const r = await s.send("POST", base, configMap("bad", { data: { "a*b": "v" } }));
    expect(r.status).toBe(422);
    const st = r.json() as Status;
    expect(st.message).toBe(
      `ConfigMap "bad" is invalid: data[a*b]: Invalid value: "a*b": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`,
    );
    expect(st.details?.causes?.map((c) => c.field)).toEqual(["data[a*b]"]);
  });

  it("binaryData that is not base64 is the decoder's 400, as encoding/json's []byte", async () => {
    const r = await s.send("POST", base, configMap("b64", { binaryData: { k: "AA=A" } }));
    expect(r.status).toBe(400);
    expect((r.json() as Status).message).toBe(
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: illegal base64 data at input byte 2',
    );
  });

  it("a key in both data and binaryData is refused", async () => {
    const r = await s.send("POST", base, configMap("dup", { data: { k: "v" }, binaryData: { k: "AA==" } }));
    expect(r.status).toBe(422);
    expect((r.json() as Status).message).toBe(
      'ConfigMap "dup" is invalid: data[k]: Invalid value: "k": duplicate of key present in binaryData',
    );
  });

  it("an immutable ConfigMap refuses data changes and unsetting immutable, but takes metadata changes", async () => {
    expect((await s.send("POST", base, configMap("imm", { immutable: true, data: { a: "1" } }))).status).toBe(201);
    const r = await s.send("PUT", `${base}/imm`, configMap("imm", { data: { a: "2" } }));
    expect(r.status).toBe(422);
    expect((r.json() as Status).message).toBe(
      'ConfigMap "imm" is invalid: [immutable: Forbidden: field is immutable when `immutable` is set, data: Forbidden: field is immutable when `immutable` is set]',
    );
    const labelled = await s.send("PUT", `${base}/imm`, {
      ...configMap("imm", { immutable: true, data: { a: "1" } }),
      metadata: { name: "imm", labels: { x: "y" } },
    });
    expect(labelled.status).toBe(200);
  });

  it("serves the NAME DATA AGE Table, DATA counting data and binaryData", async () => {
    expect((await s.send("POST", base, configMap("tbl", { data: { a: "1", b: "2" }, binaryData: { c: "AA==" } }))).status).toBe(201);
    const r = await s.request(`${base}/tbl`, { headers: { Accept: "application/json;as=Table;v=v1;g=meta.k8s.io" } });
    const table = r.json() as { columnDefinitions: { name: string }[]; rows: { cells: unknown[] }[] };
    expect(table.columnDefinitions.map((c) => c.name)).toEqual(["Name", "Data", "Age"]);
    expect(table.rows[0]?.cells.slice(0, 2)).toEqual(["tbl", 3]);
  });

  it.skipIf(kubectl133 === "")("real kubectl 1.33 creates one from a literal and lists it as cm", async () => {
    const created = await s.kubectl(["create", "configmap", "lit", "--from-literal=a=b"]);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout.trim()).toBe("configmap/lit created");
    const got = await s.kubectl(["get", "cm", "lit"]);
    expect(got.code, got.stderr).toBe(0);
    expect(got.stdout).toMatch(/^NAME\s+DATA\s+AGE\nlit\s+1\s+\d+s\n$/);
    const data = await s.kubectl(["get", "configmap", "lit", "-o", "jsonpath={.data.a}"]);
    expect(data.stdout).toBe("b");
    const discovered = await s.kubectl(["api-resources", "--api-group="]);
    expect(discovered.stdout).toMatch(/^configmaps\s+cm\s+v1\s+true\s+ConfigMap$/m);
  });

  it.skipIf(kubectl133 === "")("real kubectl 1.33 explains a ConfigMap's fields with upstream's descriptions", async () => {
    const r = await s.kubectl(["explain", "cm.immutable"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      "KIND:       ConfigMap\nVERSION:    v1\n\nFIELD: immutable <boolean>\n\n\nDESCRIPTION:\n" +
        "    Immutable, if set to true, ensures that data stored in the ConfigMap cannot\n" +
        "    be updated (only object metadata can be modified). If not set to true, the\n" +
        "    field can be modified at any time. Defaulted to nil.\n    \n\n",
    );
  });
});
