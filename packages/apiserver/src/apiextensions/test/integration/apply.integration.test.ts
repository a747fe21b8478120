/**
 * Upstream test/integration/apply_test.go over real kubectl 1.33: `kubectl apply` (client-side)
 * and `kubectl apply --server-side` of a custom resource, with the server's field validation
 * (kubectl asks for Strict) and schema validation answering as kube-apiserver does.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { haveKubectl, startTestServer, type TestServer } from "../../../server/testing.ts";
import { createCRD, noxuCRD } from "./fixtures-testing.ts";

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
