/**
 * Upstream test/integration/objectmeta_test.go (TestPostInvalidObjectMeta) over HTTP: metadata that
 * does not decode as ObjectMeta is a 400 "cannot be handled"; once it does, unknown metadata fields
 * are pruned and the generation the client sent (null) is the strategy's 1.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../server/testing.ts";
import { createCRD, noxuCRD } from "./fixtures-testing.ts";

const base = "/apis/mygroup.example.com/v1beta1/namespaces/default/noxus";

/** fixtures.NewNoxuInstance("default", "foo") with upstream's metadata: unknown 42, generation null. */
function instance(labels: Record<string, unknown>): Record<string, unknown> {
  return {
    apiVersion: "mygroup.example.com/v1beta1",
    kind: "WishIHadChosenNoxu",
    metadata: { namespace: "default", name: "foo", unknown: 42, generation: null, labels },
    content: { key: "value" },
    num: { num1: Number.MAX_SAFE_INTEGER, num2: 1000000 },
  };
}

describe("apiextensions objectmeta_test", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    await createCRD(s, noxuCRD("Namespaced"));
  });
  afterAll(async () => {
    await s?.close();
  });

  it("TestPostInvalidObjectMeta: a label that is a number is a BadRequest", async () => {
    const r = await s.send("POST", base, instance({ foo: 42, bar: "abc" }));
    expect(r.status, r.text).toBe(400);
    const st = r.json() as { reason: string; message: string };
    expect(st.reason).toBe("BadRequest");
    // Upstream decodes the metadata alone into ObjectMeta: the field path starts there.
    expect(st.message).toBe(
      'WishIHadChosenNoxu in version "v1beta1" cannot be handled as a WishIHadChosenNoxu: json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string',
    );
  });

  it("TestPostInvalidObjectMeta: valid labels create; metadata.unknown is pruned, generation is 1", async () => {
    const r = await s.send("POST", base, instance({ bar: "abc" }));
    expect(r.status, r.text).toBe(201);
    const meta = (r.json() as { metadata: Record<string, unknown> }).metadata;
    expect(meta["unknown"]).toBeUndefined();
    expect(meta["generation"]).toBe(1);
    expect(meta["labels"]).toEqual({ bar: "abc" });
  });
});
