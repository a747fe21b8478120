/**
 * Upstream apiextensions-apiserver test/integration/basic_test.go, the cases on the cluster-scoped
 * noxu CRD and the CRD's own endpoints: TestInvalidCRUD, TestPatch, TestDiscovery and
 * TestStatusGetAndPatch (TestPreserveInt is preserve-int.integration.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../server/testing.ts";
import { createCRD, noxuCRD } from "./fixtures-testing.ts";

const base = "/apis/mygroup.example.com/v1beta1/noxus";
/** The fixture's num1, math.MaxInt64. */
const num1 = "9223372036854775807";

/** fixtures.NewNoxuInstance as JSON text. */
const noxuInstance = (name: string) =>
  `{"apiVersion":"mygroup.example.com/v1beta1","kind":"WishIHadChosenNoxu","metadata":{"name":"${name}"},` +
  `"content":{"key":"value"},"num":{"num1":${num1},"num2":1000000}}`;

describe("apiextensions basic_test (cluster scope)", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    await createCRD(s, noxuCRD("Cluster"));
  });
  afterAll(async () => {
    await s?.close();
  });

  it("TestInvalidCRUD: an empty object is a BadRequest, one with only apiVersion and kind is Invalid", async () => {
    const typeless = await s.send("POST", base, {});
    expect(typeless.status, typeless.text).toBe(400);
    expect(typeless.json()).toMatchObject({
      reason: "BadRequest",
      message: "the object provided is unrecognized (must be of type WishIHadChosenNoxu): Object 'Kind' is missing in '{}' ({})",
    });
    const noBody = await s.send("POST", base, { apiVersion: "mygroup.example.com/v1beta1", kind: "WishIHadChosenNoxu" });
    expect(noBody.status, noBody.text).toBe(422);
    expect((noBody.json() as { reason: string }).reason).toBe("Invalid");
  });

  it("TestPatch: a merge patch sets a field; a patch with no change and an empty patch keep the resourceVersion", async () => {
    const created = await s.request(base, { method: "POST", headers: { "Content-Type": "application/json" }, body: noxuInstance("foo") });
    expect(created.status, created.text).toBe(201);
    const patch = (body: unknown) => s.send("PATCH", `${base}/foo`, body, "application/merge-patch+json");
    const patched = await patch({ num: { num2: 999 } });
    expect(patched.status, patched.text).toBe(200);
    const rv = (patched.json() as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
    expect((patched.json() as { num: { num2: number } }).num.num2).toBe(999);
    for (const body of [{ num: { num2: 999 } }, {}]) {
      const again = await patch(body);
      expect(again.status, again.text).toBe(200);
      expect((again.json() as { metadata: { resourceVersion: string } }).metadata.resourceVersion).toBe(rv);
      expect(again.text).toContain(`"num":{"num1":${num1},"num2":999}`);
    }
  });

  it("TestDiscovery: the group version lists noxus with its kind, short names, verbs and category", async () => {
    const r = (await s.request("/apis/mygroup.example.com/v1beta1")).json() as {
      resources: { name: string; kind: string; shortNames: string[]; verbs: string[]; categories: string[] }[];
    };
    expect(r.resources).toHaveLength(1);
    const [noxus] = r.resources;
    expect(noxus).toMatchObject({
      name: "noxus",
      kind: "WishIHadChosenNoxu",
      shortNames: ["foo", "bar", "abc", "def"],
      categories: ["all"],
    });
    expect([...noxus!.verbs].sort()).toEqual(["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"]);
  });

  it("TestStatusGetAndPatch: the CRD's status subresource answers GET and a strategic merge patch", async () => {
    const crdStatus = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/noxus.mygroup.example.com/status";
    const got = await s.request(crdStatus);
    expect(got.status, got.text).toBe(200);
    const patched = await s.send("PATCH", crdStatus, { labels: { "test-label": "dummy" } }, "application/strategic-merge-patch+json");
    expect(patched.status, patched.text).toBe(200);
  });
});
