/**
 * Upstream apiextensions-apiserver test/integration/deprecation_test.go over HTTP:
 * TestCustomResourceDeprecation, the `Warning` header a list of each version of deprecationFixture
 * answers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../server/testing.ts";
import { createCRD } from "./fixtures-testing.ts";

const objectSchema = { openAPIV3Schema: { type: "object" } };
/** deprecation_test.go deprecationFixture. */
const deprecationFixture = {
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: "deps.tests.example.com" },
  spec: {
    group: "tests.example.com",
    versions: [
      { name: "v1alpha1", served: true, storage: false, deprecated: true, schema: objectSchema },
      {
        name: "v1alpha2",
        served: true,
        storage: false,
        deprecated: true,
        deprecationWarning: "custom deprecation warning",
        schema: objectSchema,
      },
      { name: "v1beta3", served: true, storage: false, schema: objectSchema },
      { name: "v1beta2", served: true, storage: false, schema: objectSchema },
      { name: "v1", served: false, storage: true, schema: objectSchema },
    ],
    names: { plural: "deps", singular: "dep", kind: "Dep", listKind: "DepList" },
    scope: "Cluster",
  },
};

describe("apiextensions deprecation_test", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    await createCRD(s, deprecationFixture);
  });
  afterAll(async () => {
    await s?.close();
  });

  it.each([
    {
      name: "default",
      version: "v1alpha1",
      want: ['299 - "tests.example.com/v1alpha1 Dep is deprecated; use tests.example.com/v1beta3 Dep"'],
    },
    { name: "custom", version: "v1alpha2", want: ['299 - "custom deprecation warning"'] },
    { name: "older non-deprecated", version: "v1beta2", want: [] },
    { name: "newest non-deprecated", version: "v1beta3", want: [] },
  ])("TestCustomResourceDeprecation: $name", async ({ version, want }) => {
    const r = await s.request(`/apis/tests.example.com/${version}/deps`);
    expect(r.status, r.text).toBe(200);
    expect(r.headers.get("warning")?.split(/,\s*(?=299)/) ?? []).toEqual(want);
  });
});
