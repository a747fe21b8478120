/**
 * Upstream apiextensions-apiserver test/integration/versioning_test.go over HTTP:
 * TestInternalVersionIsHandlerVersion (a write through a served non-storage version is validated in
 * that version, old object included), TestVersionedNamespacedScopedCRD and TestVersionedClusterScopedCRD (testSimpleCRUD over every
 * version of fixtures.NewMultipleVersionNoxuCRD: each served version creates, reads and watches in
 * its own apiVersion, the unserved one is NotFound) and TestStoragedVersionIn{Namespaced,ClusterScoped}CRDStatus.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../server/testing.ts";
import { eventually } from "@servicenet/testing";
import { createCRD, deleteCRD, noxuCRD, watchEvents } from "./fixtures-testing.ts";

type Scope = "Namespaced" | "Cluster";
const allowAll = { openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true } };
const version = (name: string, served: boolean, storage: boolean) => ({
  name,
  served,
  storage,
  subresources: { status: {} },
  schema: allowAll,
});

/** fixtures.NewMultipleVersionNoxuCRD. */
function newMultipleVersionNoxuCRD(scope: Scope): Record<string, unknown> {
  const crd = noxuCRD(scope);
  (crd["spec"] as { versions: unknown[] }).versions = [
    version("v1beta1", true, false),
    version("v1beta2", true, true),
    version("v0", false, false),
  ];
  return crd;
}

const ns = "not-the-default";
const noxus = (scope: Scope, v: string) =>
  scope === "Namespaced" ? `/apis/mygroup.example.com/${v}/namespaces/${ns}/noxus` : `/apis/mygroup.example.com/${v}/noxus`;
const crdPath = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/noxus.mygroup.example.com";

describe("apiextensions versioning_test", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    expect((await s.send("POST", "/api/v1/namespaces", { metadata: { name: ns } })).status).toBe(201);
  });
  afterAll(async () => {
    await s?.close();
  });

  /** Sets every version's schema of the noxu CRD, as UpdateCustomResourceDefinitionWithRetry does. */
  async function setSchemas(openAPIV3Schema: Record<string, unknown>): Promise<void> {
    const crd = (await s.request(crdPath)).json() as { spec: { versions: { schema: unknown }[] } };
    for (const v of crd.spec.versions) v.schema = { openAPIV3Schema };
    const r = await s.send("PUT", crdPath, crd);
    expect(r.status, r.text).toBe(200);
  }

  const mergePatch = (version: string, body: unknown) =>
    s.send("PATCH", `${noxus("Namespaced", version)}/foo`, body, "application/merge-patch+json");

  it("TestInternalVersionIsHandlerVersion: a patch is validated in the version of its handler, not the storage version", async () => {
    await createCRD(s, newMultipleVersionNoxuCRD("Namespaced"));
    try {
      // fixtures.NewNoxuInstance (without its int64 `num`, which the schema below prunes), created
      // through the non-storage version v1beta1.
      const created = await s.send("POST", noxus("Namespaced", "v1beta1"), {
        apiVersion: "mygroup.example.com/v1beta1",
        kind: "WishIHadChosenNoxu",
        metadata: { namespace: ns, name: "foo" },
        content: { key: "value" },
      });
      expect(created.status, created.text).toBe(201);
      await setSchemas({
        type: "object",
        // This means we can only patch via the v1beta1 handler version.
        properties: { apiVersion: { type: "string", pattern: "^mygroup.example.com/v1beta1$" } },
        required: ["apiVersion"],
      });
      let i = 0;
      await eventually(async () => {
        const r = await mergePatch("v1beta1", { i: i++ });
        expect(r.status, r.text).toBe(200);
        return true;
      });
      // Through the storage version the pattern fails: ratcheting leaves the root's apiVersion and
      // kind out (ratchetingValueValidator.SubPropertyValidator), unchanged as they are.
      const r = await mergePatch("v1beta2", { i: i++ });
      expect(r.status, r.text).toBe(422);
      expect((r.json() as { message: string }).message).toBe(
        `WishIHadChosenNoxu.mygroup.example.com "foo" is invalid: apiVersion: Invalid value: "mygroup.example.com/v1beta2": apiVersion in body should match '^mygroup.example.com/v1beta1$'`,
      );
    } finally {
      await deleteCRD(s, "noxus.mygroup.example.com");
    }
  });

  it("TestInternalVersionIsHandlerVersion: an update's CEL rules see old and new objects in the handler's version", async () => {
    await createCRD(s, newMultipleVersionNoxuCRD("Namespaced"));
    try {
      const created = await s.send("POST", noxus("Namespaced", "v1beta2"), {
        apiVersion: "mygroup.example.com/v1beta2",
        kind: "WishIHadChosenNoxu",
        metadata: { namespace: ns, name: "foo" },
      });
      expect(created.status, created.text).toBe(201);
      await setSchemas({
        type: "object",
        properties: { apiVersion: { type: "string" }, i: { type: "integer" } },
        "x-kubernetes-validations": [
          { rule: "self.apiVersion == oldSelf.apiVersion", message: "old and new differ in apiVersion" },
          { rule: "self.apiVersion == 'mygroup.example.com/v1beta1'", message: "not through v1beta1" },
        ],
      });
      let i = 0;
      await eventually(async () => {
        const r = await mergePatch("v1beta1", { i: i++ });
        expect(r.status, r.text).toBe(200);
        return true;
      });
      // An update (PUT) through v1beta1 of what a GET through it returned: old is read in v1beta1 too.
      const got = (await s.request(`${noxus("Namespaced", "v1beta1")}/foo`)).json() as Record<string, unknown>;
      const put = await s.send("PUT", `${noxus("Namespaced", "v1beta1")}/foo`, { ...got, i: 100 });
      expect(put.status, put.text).toBe(200);
      expect(put.json()).toMatchObject({ apiVersion: "mygroup.example.com/v1beta1", i: 100 });
      const r = await mergePatch("v1beta2", { i: 101 });
      expect(r.status, r.text).toBe(422);
      expect((r.json() as { message: string }).message).toBe(
        `WishIHadChosenNoxu.mygroup.example.com "foo" is invalid: <nil>: Invalid value: "object": not through v1beta1`,
      );
    } finally {
      await deleteCRD(s, "noxus.mygroup.example.com");
    }
  });

  it.each([
    ["TestVersionedNamespacedScopedCRD", "Namespaced"],
    ["TestVersionedClusterScopedCRD", "Cluster"],
  ] as const)("%s: each served version creates, gets and watches in its apiVersion; v0 is NotFound", async (_name, scope) => {
    await createCRD(s, newMultipleVersionNoxuCRD(scope));
    const rv = ((await s.request(noxus(scope, "v1beta2"))).json() as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
    for (const v of ["v1beta1", "v1beta2", "v0"]) {
      const body = {
        apiVersion: `mygroup.example.com/${v}`,
        kind: "WishIHadChosenNoxu",
        metadata: { name: `foo-${v}` },
        content: { key: "value" },
      };
      const created = await s.send("POST", noxus(scope, v), body);
      if (v === "v0") {
        expect(created.status, created.text).toBe(404);
        expect((await s.request(`${noxus(scope, v)}?watch=true&timeoutSeconds=1`)).status).toBe(404);
        continue;
      }
      expect(created.status, created.text).toBe(201);
      expect((created.json() as { apiVersion: string }).apiVersion).toBe(`mygroup.example.com/${v}`);
    }
    // Every object in every served version: the watch from before the creates sees both, in its own apiVersion.
    for (const v of ["v1beta1", "v1beta2"]) {
      const events = await watchEvents(s, `${noxus(scope, v)}?resourceVersion=${rv}`, 2);
      expect(events.map((e) => [e.type, e.object.metadata.name, e.object.apiVersion])).toEqual([
        ["ADDED", "foo-v1beta1", `mygroup.example.com/${v}`],
        ["ADDED", "foo-v1beta2", `mygroup.example.com/${v}`],
      ]);
      const got = (await s.request(`${noxus(scope, v)}/foo-v1beta1`)).json() as { apiVersion: string; content: unknown };
      expect(got).toMatchObject({ apiVersion: `mygroup.example.com/${v}`, content: { key: "value" } });
    }
    await deleteCRD(s, "noxus.mygroup.example.com");
  });

  it.each([
    ["TestStoragedVersionInNamespacedCRDStatus", "Namespaced"],
    ["TestStoragedVersionInClusterScopedCRDStatus", "Cluster"],
  ] as const)("%s: storedVersions starts at the storage version and keeps each one", async (_name, scope) => {
    const crd = newMultipleVersionNoxuCRD(scope);
    const spec = crd["spec"] as { versions: unknown[] };
    spec.versions = [
      { name: "v1beta1", served: true, storage: true, schema: allowAll },
      { name: "v1beta2", served: true, storage: false, schema: allowAll },
    ];
    await createCRD(s, crd);
    const got = (await s.request(crdPath)).json() as { spec: typeof spec; status: { storedVersions: string[] } };
    expect(got.status.storedVersions).toEqual(["v1beta1"]);
    got.spec.versions = [
      { name: "v1beta1", served: true, storage: false, schema: allowAll },
      { name: "v1beta2", served: true, storage: true, schema: allowAll },
    ];
    const updated = await s.send("PUT", crdPath, got);
    expect(updated.status, updated.text).toBe(200);
    expect(((await s.request(crdPath)).json() as { status: { storedVersions: string[] } }).status.storedVersions).toEqual([
      "v1beta1",
      "v1beta2",
    ]);
    await deleteCRD(s, "noxus.mygroup.example.com");
  });
});
