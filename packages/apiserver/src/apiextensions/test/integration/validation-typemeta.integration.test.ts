/**
 * Upstream apiextensions-apiserver test/integration/validation_test.go TestForProperValidationErrors
 * over HTTP: an object of another version is the decoder's 400, an object of another kind reaches
 * the strategy and is customResourceValidator.ValidateTypeMeta's 422, qualified with the kind sent
 * (the error names the object's own kind, as rest.BeforeCreate does).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../server/testing.ts";
import { createCRD, json, noxuCRD } from "./fixtures-testing.ts";

const ns = "not-the-default";
const noxus = `/apis/mygroup.example.com/v1beta1/namespaces/${ns}/noxus`;

/** fixtures.NewVersionedNoxuInstance. */
const noxuInstance = (version: string, kind = "WishIHadChosenNoxu") => ({
  apiVersion: `mygroup.example.com/${version}`,
  kind,
  metadata: { namespace: ns, name: "foo" },
  content: { key: "value" },
  num: { num1: Number.MAX_SAFE_INTEGER, num2: 1000000 },
});

describe("apiextensions validation_test TestForProperValidationErrors", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    expect((await s.send("POST", "/api/v1/namespaces", { metadata: { name: ns } })).status).toBe(201);
    await createCRD(s, noxuCRD("Namespaced"));
  });
  afterAll(async () => {
    await s?.close();
  });

  it.each([
    [
      "bad version",
      noxuInstance("v2"),
      400,
      "the API version in the data (mygroup.example.com/v2) does not match the expected API version (mygroup.example.com/v1beta1)",
    ],
    [
      "bad kind",
      noxuInstance("v1beta1", "SomethingElse"),
      422,
      'SomethingElse.mygroup.example.com "foo" is invalid: kind: Invalid value: "SomethingElse": must be WishIHadChosenNoxu',
    ],
  ])("%s", async (_name, body, code, expectedError) => {
    const r = await s.request(noxus, { method: "POST", headers: json, body: JSON.stringify(body) });
    expect(r.status, r.text).toBe(code);
    expect((r.json() as { message: string }).message).toBe(expectedError);
    expect((await s.request(`${noxus}/foo`)).status).toBe(404);
  });

  it("bad kind on update: the same 422, nothing stored", async () => {
    const created = await s.request(noxus, { method: "POST", headers: json, body: JSON.stringify(noxuInstance("v1beta1")) });
    expect(created.status, created.text).toBe(201);
    const o = { ...(created.json() as Record<string, unknown>), kind: "SomethingElse" };
    const r = await s.request(`${noxus}/foo`, { method: "PUT", headers: json, body: JSON.stringify(o) });
    expect(r.status, r.text).toBe(422);
    expect((r.json() as { message: string }).message).toBe(
      'SomethingElse.mygroup.example.com "foo" is invalid: kind: Invalid value: "SomethingElse": must be WishIHadChosenNoxu',
    );
    expect(((await s.request(`${noxus}/foo`)).json() as { kind: string }).kind).toBe("WishIHadChosenNoxu");
  });
});
