/** TaintNodesByCondition through the server: on by default, as kube-apiserver 1.33's plugin list has it. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../../server/testing.ts";

const json = { "Content-Type": "application/json" };

describe("TaintNodesByCondition in the admission chain", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  it("a created Node has node.kubernetes.io/not-ready:NoSchedule; an update (Handles: Create only) does not add it back", async () => {
    const r = await s.request("/api/v1/nodes", { method: "POST", headers: json, body: JSON.stringify({ metadata: { name: "taint-me" } }) });
    expect(r.status, r.text).toBe(201);
    const node = r.json() as { metadata: { resourceVersion: string }; spec: { taints?: unknown[] } };
    expect(node.spec.taints).toEqual([{ key: "node.kubernetes.io/not-ready", effect: "NoSchedule" }]);
    const patched = await s.request("/api/v1/nodes/taint-me", {
      method: "PATCH",
      headers: { "Content-Type": "application/merge-patch+json" },
      body: JSON.stringify({ spec: { taints: null } }),
    });
    expect(patched.status, patched.text).toBe(200);
    expect((patched.json() as { spec: { taints?: unknown[] } }).spec.taints).toBeUndefined();
  });
});
