/** A Service without a name is refused before allocation (the IPAddress allocator names its parent). */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../../server/testing.ts";

describe("ServiceREST create without a name", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  it.each([
    ["JSON", "application/json", JSON.stringify({ spec: { ipFamilyPolicy: "PreferDualStack", ports: [{ port: 80 }] } })],
    ["YAML with a complex key", "application/yaml", "? [a, b]\n: c\n"],
  ])("%s body: 422 name or generateName is required, no IPAddress left behind", async (_name, contentType, body) => {
    const before = s.request("/apis/networking.k8s.io/v1/ipaddresses").then((r) => (r.json() as { items: unknown[] }).items.length);
    const r = await s.request("/api/v1/namespaces/default/services", { method: "POST", headers: { "Content-Type": contentType }, body });
    expect(r.status).toBe(422);
    expect((r.json() as { message: string }).message).toBe(
      'Service "" is invalid: metadata.name: Required value: name or generateName is required',
    );
    const after = (await s.request("/apis/networking.k8s.io/v1/ipaddresses").then((x) => x.json())) as { items: unknown[] };
    expect(after.items.length).toBe(await before);
  });
});
