/**
 * Upstream apiextensions-apiserver test/integration/apply_test.go: TestApplyBasic over HTTP (an
 * apply, a merge patch by another manager, the apply's conflict with it, the forced apply), then
 * over real kubectl 1.33: `kubectl apply` (client-side) and `kubectl apply --server-side` of a
 * custom resource, with the server's field validation (kubectl asks for Strict) and schema
 * validation answering as kube-apiserver does.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { haveKubectl, startTestServer, type TestServer } from "../../../server/testing.ts";
import { createCRD, noxuCRD } from "./fixtures-testing.ts";

interface Noxu {
  values: Record<string, unknown>;
  metadata: { managedFields: { manager: string; operation: string; apiVersion: string; fieldsV1: unknown }[] };
}

/** The managed fields without their times. */
const managers = (o: Noxu) =>
  o.metadata.managedFields.map(({ manager, operation, apiVersion, fieldsV1 }) => ({ manager, operation, apiVersion, fieldsV1 }));

describe("apiextensions apply_test", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    await createCRD(s, noxuCRD("Cluster"));
  });
  afterAll(async () => {
    await s?.close();
  });

  it("TestApplyBasic: apply, a merge patch by another manager, a conflict, a forced apply", async () => {
    const path = "/apis/mygroup.example.com/v1beta1/noxus/mytest";
    const yamlBody = `
apiVersion: mygroup.example.com/v1beta1
kind: WishIHadChosenNoxu
metadata:
  name: mytest
values:
  numVal: 1
  boolVal: true
  stringVal: "1"`;
    const apply = (query: string) =>
      s.request(`${path}?fieldManager=apply_test${query}`, {
        method: "PATCH",
        headers: { "Content-Type": "application/apply-patch+yaml" },
        body: yamlBody,
      });
    // The fields the schema (x-kubernetes-preserve-unknown-fields) does not declare are members of
    // the set, `values` included (structured-merge-diff's ToFieldSet).
    const applied = { "f:values": { ".": {}, "f:boolVal": {}, "f:numVal": {}, "f:stringVal": {} } };
    const v1beta1 = "mygroup.example.com/v1beta1";
    const created = await apply("");
    expect(created.status, created.text).toBe(201);
    expect(managers(created.json() as Noxu)).toEqual([
      { manager: "apply_test", operation: "Apply", apiVersion: v1beta1, fieldsV1: applied },
    ]);

    // A merge patch without fieldManager: its manager is the client's user agent up to the first "/".
    const patched = await s.request(path, {
      method: "PATCH",
      headers: {
        "Content-Type": "application/merge-patch+json",
        "User-Agent": "integration.test/v0.0.0 (linux/amd64) kubernetes/$Format",
      },
      body: `{"values":{"numVal": 5}}`,
    });
    expect(patched.status, patched.text).toBe(200);
    expect(managers(patched.json() as Noxu)).toEqual([
      {
        manager: "apply_test",
        operation: "Apply",
        apiVersion: v1beta1,
        fieldsV1: { "f:values": { ".": {}, "f:boolVal": {}, "f:stringVal": {} } },
      },
      { manager: "integration.test", operation: "Update", apiVersion: v1beta1, fieldsV1: { "f:values": { "f:numVal": {} } } },
    ]);

    // Re-apply the same object: a conflict (fieldmanager's NewConflictError; the manager identifier
    // never holds the time).
    const conflict = await apply("");
    expect(conflict.status, conflict.text).toBe(409);
    const by = `conflict with "integration.test" using ${v1beta1}`;
    expect(conflict.json()).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: `Apply failed with 1 conflict: ${by}: .values.numVal`,
      reason: "Conflict",
      details: { causes: [{ reason: "FieldManagerConflict", message: by, field: ".values.numVal" }] },
      code: 409,
    });

    // Re-apply with force: the applier takes numVal back; the updater's emptied entry goes.
    const forced = await apply("&force=true");
    expect(forced.status, forced.text).toBe(200);
    const got = forced.json() as Noxu;
    expect(got.values).toEqual({ numVal: 1, boolVal: true, stringVal: "1" });
    expect(managers(got)).toEqual([{ manager: "apply_test", operation: "Apply", apiVersion: v1beta1, fieldsV1: applied }]);
  });
});

const schema = {
  type: "object",
  properties: {
    spec: { type: "object", properties: { replicas: { type: "integer", minimum: 0, default: 1 }, color: { type: "string" } } },
  },
};

const doc = (name: string, spec: string): string =>
  `apiVersion: mygroup.example.com/v1\nkind: WishIHadChosenNoxu\nmetadata:\n  name: ${name}\n  namespace: default\nspec:\n${spec}\n`;

describe.runIf(haveKubectl())("apiextensions apply_test (kubectl)", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    const c = noxuCRD("Namespaced");
    (c["spec"] as { versions: unknown[] }).versions = [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: schema } }];
    await createCRD(s, c);
  });
  afterAll(async () => {
    await s?.close();
  });

  it.each([
    ["client-side", ["apply", "-f", "-"], "client"],
    ["server-side", ["apply", "--server-side", "-f", "-"], "server"],
  ])("%s apply creates, defaults and updates; unknown and invalid fields are refused", async (_n, args, name) => {
    const created = await s.kubectl(args, { input: doc(name, "  color: red") });
    expect(created.code, created.stderr).toBe(0);
    const got = await s.kubectl(["get", "noxus", name, "-n", "default", "-o", "jsonpath={.spec.replicas} {.spec.color}"]);
    expect(got.stdout).toBe("1 red");
    const updated = await s.kubectl(args, { input: doc(name, "  color: blue\n  replicas: 3") });
    expect(updated.code, updated.stderr).toBe(0);
    const unknown = await s.kubectl(args, { input: doc(name, "  foo: bar") });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(
      'WishIHadChosenNoxu in version "v1" cannot be handled as a WishIHadChosenNoxu: strict decoding error: unknown field "spec.foo"',
    );
    const invalid = await s.kubectl(args, { input: doc(name, "  replicas: -2") });
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain(
      `The WishIHadChosenNoxu "${name}" is invalid: spec.replicas: Invalid value: -2: spec.replicas in body should be greater than or equal to 0`,
    );
    const after = await s.kubectl(["get", "noxus", name, "-n", "default", "-o", "jsonpath={.spec.replicas} {.spec.color}"]);
    expect(after.stdout).toBe("3 blue");
  });
});
