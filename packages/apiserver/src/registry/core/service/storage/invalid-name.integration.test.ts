/** A Service whose name is invalid is refused with 422 before any ClusterIP is allocated (found by the fuzz suite as a 500). */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEnvironment, type TestEnvironment } from "../../../../envtest/index.ts";
import { defaultFeatureGates, type FeatureGates } from "../../../../features/kube-features.ts";

describe.each([
  ["dual-write (default gates)", defaultFeatureGates],
  ["IPAddress only", { ...defaultFeatureGates, DisableAllocatorDualWrite: true }],
  ["bitmap only", { ...defaultFeatureGates, MultiCIDRServiceAllocator: false }],
] satisfies [string, FeatureGates][])("Service create with an invalid name, %s", (_mode, featureGates) => {
  let env: TestEnvironment;
  beforeAll(async () => {
    env = await startTestEnvironment({ featureGates });
  });
  afterAll(() => env?.stop());

  it.each([
    ["a/b", {}],
    ["Upper", {}],
    ["a/b", { clusterIP: "10.96.0.50", clusterIPs: ["10.96.0.50"] }],
    ["a/b", { ipFamilyPolicy: "RequireDualStack" }],
  ])("%s %j is 422 Invalid at metadata.name", async (name, spec) => {
    const res = await fetch(`${env.url}/api/v1/namespaces/default/services`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ apiVersion: "v1", kind: "Service", metadata: { name }, spec: { ports: [{ port: 80 }], ...spec } }),
    });
    const body = (await res.json()) as { code: number; reason: string; details?: { causes?: { field: string }[] } };
    expect([res.status, body.reason]).toEqual([422, "Invalid"]);
    expect(body.details?.causes?.map((c) => c.field)).toEqual(["metadata.name"]);
  });
});
