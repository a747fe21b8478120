/**
 * Upstream test/integration/limit_test.go (TestLimits) over HTTP: a custom-resource body over the
 * 3 MiB request limit is 413, a deeply nested one under it is 400 (JSON and YAML creates; JSON,
 * merge and apply patches), never a crash.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../server/testing.ts";
import { createCRD, noxuCRD } from "./fixtures-testing.ts";

const apiVersion = "mygroup.example.com/v1beta1";
const kind = "WishIHadChosenNoxu";
const base = "/apis/mygroup.example.com/v1beta1/noxus";
const MiB = 1024 * 1024;

describe("apiextensions limit_test TestLimits", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    await createCRD(s, noxuCRD("Cluster"));
  });
  afterAll(async () => {
    await s?.close();
  });

  const post = async (contentType: string, body: string): Promise<{ status: number; reason: string }> => {
    const r = await s.request(base, { method: "POST", headers: { Accept: "application/json", "Content-Type": contentType }, body });
    return { status: r.status, reason: (r.json() as { reason: string }).reason };
  };
  const yamlDoc = (values: string): string => `\napiVersion: ${apiVersion}\nkind: ${kind}\nmetadata:\n  name: test\nvalues: ${values}`;
  const jsonDoc = (values: string): string =>
    `{\n"apiVersion": ${JSON.stringify(apiVersion)},\n"kind": ${JSON.stringify(kind)},\n"metadata": {\n  "name": "test"\n},\n"values": ${values}}`;

  it.each<[string, string, () => string, number, string]>([
    ["create YAML over limit", "application/yaml", () => yamlDoc("[".repeat(3 * MiB)), 413, "RequestEntityTooLarge"],
    [
      "create YAML doc under limit, nested",
      "application/yaml",
      () => yamlDoc("[".repeat((3 * MiB) / 2 - 500) + "]".repeat((3 * MiB) / 2 - 500)),
      400,
      "BadRequest",
    ],
    ["create YAML doc under limit, not nested", "application/yaml", () => yamlDoc("[".repeat(3 * MiB - 1000)), 400, "BadRequest"],
    [
      "create JSON over limit",
      "application/json",
      () => jsonDoc("[".repeat((3 * MiB) / 2) + "]".repeat((3 * MiB) / 2)),
      413,
      "RequestEntityTooLarge",
    ],
    [
      "create JSON doc under limit, nested",
      "application/json",
      () => jsonDoc("[".repeat((3 * MiB) / 2 - 500) + "]".repeat((3 * MiB) / 2 - 500)),
      400,
      "BadRequest",
    ],
    ["create JSON doc under limit, not nested", "application/json", () => jsonDoc("[".repeat(3 * MiB - 1000)), 400, "BadRequest"],
  ])("%s", async (_name, contentType, body, status, reason) => {
    expect(await post(contentType, body())).toEqual({ status, reason });
  });

  describe("patches of an existing object", () => {
    beforeAll(async () => {
      const r = await s.send("POST", base, { apiVersion, kind, metadata: { name: "test" } });
      expect(r.status, r.text).toBe(201);
    });
    const nested = "[".repeat((3 * MiB) / 2 - 100) + "]".repeat((3 * MiB) / 2 - 100);

    it.each<[string, string, string]>([
      ["JSONPatchType nested patch under limit", "application/json-patch+json", `[{"op":"add","path":"/foo","value":${nested}}]`],
      ["MergePatchType nested patch under limit", "application/merge-patch+json", `{"value":${nested}}`],
      ["ApplyPatchType nested patch under limit", "application/apply-patch+yaml", `{"value":${nested}}`],
    ])("%s", async (_name, contentType, body) => {
      const r = await s.request(`${base}/test?fieldManager=test`, { method: "PATCH", headers: { "Content-Type": contentType }, body });
      expect(r.status, r.text.slice(0, 300)).toBe(400);
      expect((r.json() as { reason: string }).reason).toBe("BadRequest");
    });
  });
});
