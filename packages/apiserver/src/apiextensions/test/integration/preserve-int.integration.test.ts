/**
 * Upstream apiextensions-apiserver test/integration/basic_test.go TestPreserveInt over HTTP, and the
 * same int64s through the other ways an unstructured object travels: list, watch, YAML, merge and
 * JSON patches, server-side apply, CEL rules and schema bounds. kube-apiserver decodes a JSON
 * integer of a custom resource that fits int64 as an int64 (util/json), so math.MaxInt64 keeps its
 * last digits; other numbers are float64 and written as encoding/json writes a float64.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { haveKubectl, startTestServer, type TestServer } from "../../../server/testing.ts";
import { parseJSON } from "../../../util/json/json.ts";
import { createCRD, json, noxuCRD } from "./fixtures-testing.ts";

const group = "/apis/mygroup.example.com/v1beta1";
const noxus = `${group}/noxus`;
const maxInt64 = "9223372036854775807";
const minInt64 = "-9223372036854775808";

/** The `num` member of an answer, read as Go's unstructured decoder reads it (int64s exact). */
const numOf = (text: string): unknown => (parseJSON(text) as { num: unknown }).num;

/** fixtures.NewNoxuInstance as JSON text: num1 is math.MaxInt64. */
const noxuInstance = (name: string, num = `{"num1":${maxInt64},"num2":1000000}`) =>
  `{"apiVersion":"mygroup.example.com/v1beta1","kind":"WishIHadChosenNoxu","metadata":{"name":"${name}"},` +
  `"content":{"key":"value"},"num":${num}}`;

describe("TestPreserveInt", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    await createCRD(s, noxuCRD("Cluster"));
  });
  afterAll(async () => {
    await s?.close();
  });

  const patch = (path: string, contentType: string, body: string) =>
    s.request(path, { method: "PATCH", headers: { "Content-Type": contentType }, body });
  const create = async (name: string, num?: string): Promise<string> => {
    const r = await s.request(noxus, { method: "POST", headers: json, body: noxuInstance(name, num) });
    expect(r.status, r.text).toBe(201);
    return r.text;
  };

  it("keeps math.MaxInt64 in the create answer, a GET, a list, a watch, YAML, a dry run and a Table", async () => {
    const want = `"num":{"num1":${maxInt64},"num2":1000000}`;
    expect(await create("foo")).toContain(want);
    expect((await s.request(`${noxus}/foo`)).text).toContain(want);
    expect((await s.request(noxus)).text).toContain(want);
    const watch = await s.request(`${noxus}?watch=true&timeoutSeconds=1&fieldSelector=metadata.name%3Dfoo`);
    expect(watch.text).toMatch(/^\{"type":"ADDED","object":\{.*"num":\{"num1":9223372036854775807,"num2":1000000\}/);
    const yaml = await s.request(`${noxus}/foo`, { headers: { Accept: "application/yaml" } });
    expect(yaml.text).toContain(`  num1: ${maxInt64}\n`);
    const dryRun = await s.request(`${noxus}?dryRun=All`, { method: "POST", headers: json, body: noxuInstance("dry") });
    expect(dryRun.status, dryRun.text).toBe(201);
    expect(dryRun.text).toContain(want);
    const table = await s.request(`${noxus}?includeObject=Object`, { headers: { Accept: "application/json;as=Table;v=v1;g=meta.k8s.io" } });
    expect(table.text).toContain(`"num":{"num1":${maxInt64},"num2":1000000}`);
  });

  it.runIf(haveKubectl())("real kubectl 1.33 reads and patches math.MaxInt64 as it is", async () => {
    await create("kubectl");
    const get = await s.kubectl(["get", "noxus", "kubectl", "-o", "jsonpath={.num.num1}"]);
    expect(get, get.stderr).toMatchObject({ code: 0, stdout: maxInt64 });
    const set = await s.kubectl(["patch", "noxus", "kubectl", "--type=merge", "-p", `{"num":{"num2":${minInt64}}}`]);
    expect(set.code, set.stderr).toBe(0);
    expect(numOf((await s.request(`${noxus}/kubectl`)).text)).toStrictEqual({ num1: 2n ** 63n - 1n, num2: -(2n ** 63n) });
  });

  it("reads a YAML body's int64s as sigs.k8s.io/yaml hands them to the unstructured decoder", async () => {
    const body = `apiVersion: mygroup.example.com/v1beta1\nkind: WishIHadChosenNoxu\nmetadata:\n  name: yaml\nnum:\n  num1: ${maxInt64}\n  num2: ${minInt64}\n  num3: 5\n`;
    const r = await s.request(noxus, { method: "POST", headers: { "Content-Type": "application/yaml" }, body });
    expect(r.status, r.text).toBe(201);
    expect(numOf(r.text)).toStrictEqual({ num1: 2n ** 63n - 1n, num2: -(2n ** 63n), num3: 5 });
  });

  it("keeps int64 extremes through merge patch, JSON patch and server-side apply", async () => {
    await create("patched");
    const merge = await patch(`${noxus}/patched`, "application/merge-patch+json", `{"num":{"num3":${minInt64}}}`);
    expect(merge.status, merge.text).toBe(200);
    expect(numOf(merge.text)).toStrictEqual({ num1: 2n ** 63n - 1n, num2: 1000000, num3: -(2n ** 63n) });
    const ops = (num1: string) =>
      `[{"op":"test","path":"/num/num1","value":${num1}},{"op":"replace","path":"/num/num2","value":9223372036854775806}]`;
    const failed = await patch(`${noxus}/patched`, "application/json-patch+json", ops("9223372036854775806"));
    expect(failed.status, failed.text).not.toBe(200);
    const jsonPatch = await patch(`${noxus}/patched`, "application/json-patch+json", ops(maxInt64));
    expect(jsonPatch.status, jsonPatch.text).toBe(200);
    expect(numOf(jsonPatch.text)).toStrictEqual({ num1: 2n ** 63n - 1n, num3: -(2n ** 63n), num2: 2n ** 63n - 2n });
    const apply = await patch(
      `${noxus}/patched?fieldManager=test`,
      "application/apply-patch+yaml",
      `apiVersion: mygroup.example.com/v1beta1\nkind: WishIHadChosenNoxu\nmetadata:\n  name: patched\nnum:\n  num4: ${maxInt64}\n`,
    );
    expect(apply.status, apply.text).toBe(200);
    const want = { num1: 2n ** 63n - 1n, num3: -(2n ** 63n), num2: 2n ** 63n - 2n, num4: 2n ** 63n - 1n };
    expect(numOf(apply.text)).toStrictEqual(want);
    expect(numOf((await s.request(`${noxus}/patched`)).text)).toStrictEqual(want);
  });

  it("keeps an unchanged int64 a no-op: a PUT of the object read does not write", async () => {
    const created = await create("put");
    const rv = (JSON.parse(created) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
    const put = await s.request(`${noxus}/put`, { method: "PUT", headers: json, body: created });
    expect(put.status, put.text).toBe(200);
    expect((JSON.parse(put.text) as { metadata: { resourceVersion: string } }).metadata.resourceVersion).toBe(rv);
  });

  it("decodes integers beyond int64 and numbers with a fraction or exponent as float64, written as encoding/json writes one", async () => {
    const text = await create(
      "floats",
      `{"big":18446744073709551615,"below":-9223372036854775809,"exp":9223372036854775807e0,"frac":9223372036854775807.0,"e19":1e19,"small":1.5e-7}`,
    );
    expect(text).toContain(
      `"num":{"big":18446744073709552000,"below":-9223372036854776000,"exp":9223372036854776000,"frac":9223372036854776000,"e19":10000000000000000000,"small":1.5e-7}`,
    );
  });
});

describe("TestPreserveInt with a schema: CEL rules and bounds see the int64", () => {
  let s: TestServer;
  const spec = (rule: string, bounds: Record<string, number> = {}) => ({
    type: "object",
    properties: {
      num: {
        type: "object",
        "x-kubernetes-validations": [{ rule, message: "num1 is not math.MaxInt64" }],
        properties: {
          num1: { type: "integer", format: "int64", ...bounds },
          num2: { type: "integer" },
          set: { type: "array", "x-kubernetes-list-type": "set", items: { type: "integer" } },
        },
      },
    },
  });
  beforeAll(async () => {
    s = await startTestServer();
    const crd = noxuCRD("Cluster");
    const versions = (crd["spec"] as { versions: { schema: unknown }[] }).versions;
    versions[0]!.schema = { openAPIV3Schema: spec("self.num1 == 9223372036854775807 && self.num1 > 9223372036854775806", { minimum: 0 }) };
    await createCRD(s, crd);
  });
  afterAll(async () => {
    await s?.close();
  });

  const post = (name: string, num1: string, more = "") =>
    s.request(noxus, { method: "POST", headers: json, body: noxuInstance(name, `{"num1":${num1},"num2":1${more}}`) });

  it("self.num1 == 9223372036854775807 holds for math.MaxInt64 and fails for its neighbour", async () => {
    const ok = await post("max", maxInt64);
    expect(ok.status, ok.text).toBe(201);
    const off = await post("off", "9223372036854775806");
    expect(off.status, off.text).toBe(422);
    expect((off.json() as { message: string }).message).toContain('num: Invalid value: "object": num1 is not math.MaxInt64');
  });

  it("minimum compares the int64 exactly", async () => {
    const r = await post("min", minInt64);
    expect(r.status, r.text).toBe(422);
    expect((r.json() as { message: string }).message).toContain(
      `num.num1: Invalid value: ${minInt64}: num.num1 in body should be greater than or equal to 0`,
    );
  });

  it("a set list tells int64s apart that one double would merge", async () => {
    const distinct = await post("set", maxInt64, `,"set":[${maxInt64},9223372036854775806]`);
    expect(distinct.status, distinct.text).toBe(201);
    const dup = await post("dup", maxInt64, `,"set":[${maxInt64},${maxInt64}]`);
    expect(dup.status, dup.text).toBe(422);
    expect((dup.json() as { message: string }).message).toContain(`num.set[1]: Duplicate value: ${maxInt64}`);
  });
});
