/** pods/binding over HTTP (pkg/registry/core/pod/storage/storage_test.go TestEtcdCreateBinding and friends). */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../../server/testing.ts";

const json = { "Content-Type": "application/json" };
type Pod = {
  metadata: { name: string; resourceVersion: string; uid: string; annotations?: Record<string, string> };
  spec: { nodeName?: string };
  status?: { conditions?: { type: string; status: string; lastTransitionTime?: string }[] };
};

describe("pods/binding", () => {
  let s: TestServer;
  const post = (path: string, body: unknown) => s.request(path, { method: "POST", headers: json, body: JSON.stringify(body) });
  const pods = "/api/v1/namespaces/default/pods";
  const binding = (pod: string, target: Record<string, unknown>, meta: Record<string, unknown> = {}) => ({
    apiVersion: "v1",
    kind: "Binding",
    metadata: { name: pod, ...meta },
    target,
  });
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });
  const createPod = async (name: string) =>
    (await post(pods, { metadata: { name }, spec: { containers: [{ name: "c", image: "nginx" }] } })).json() as Pod;

  it("binds a Pod: spec.nodeName, PodScheduled=True, the Binding's annotations; 201 with a Success Status", async () => {
    await createPod("b1");
    const r = await post(
      `${pods}/b1/binding`,
      binding("b1", { kind: "Node", name: "node-a" }, { annotations: { "example.com/by": "test" } }),
    );
    expect(r.status).toBe(201);
    expect(r.json()).toEqual({ kind: "Status", apiVersion: "v1", metadata: {}, status: "Success", code: 201 });
    const pod = (await s.request(`${pods}/b1`)).json() as Pod;
    expect(pod.spec.nodeName).toBe("node-a");
    expect(pod.metadata.annotations).toEqual({ "example.com/by": "test" });
    expect(pod.status?.conditions).toEqual([
      // lastProbeTime is a non-pointer metav1.Time: omitempty never omits a struct, so Go writes null.
      { type: "PodScheduled", status: "True", lastProbeTime: null, lastTransitionTime: expect.stringMatching(/Z$/) },
    ]);
  });

  it("answers 409 on pods/binding for a Pod already bound", async () => {
    await createPod("b2");
    expect((await post(`${pods}/b2/binding`, binding("b2", { name: "node-a" }))).status).toBe(201);
    const r = await post(`${pods}/b2/binding`, binding("b2", { name: "node-b" }));
    expect(r.status).toBe(409);
    expect(r.json()).toMatchObject({
      reason: "Conflict",
      message: 'Operation cannot be fulfilled on pods/binding "b2": pod b2 is already assigned to node "node-a"',
      details: { name: "b2", kind: "pods/binding" },
    });
  });

  it("refuses a Pod being deleted, a name mismatch, a target that is no Node, and a missing Pod", async () => {
    await createPod("b3");
    await post(pods, { metadata: { name: "b3f", finalizers: ["example.com/x"] }, spec: { containers: [{ name: "c", image: "nginx" }] } });
    await s.request(`${pods}/b3f`, { method: "DELETE" });
    const deleting = await post(`${pods}/b3f/binding`, binding("b3f", { name: "node-a" }));
    expect(deleting.status).toBe(409);
    expect((deleting.json() as { message: string }).message).toBe(
      'Operation cannot be fulfilled on pods/binding "b3f": pod b3f is being deleted, cannot be assigned to a host',
    );
    const mismatch = await post(`${pods}/b3/binding`, binding("other", { name: "node-a" }));
    expect(mismatch.status).toBe(400);
    expect((mismatch.json() as { message: string }).message).toBe("name in URL does not match name in Binding object");
    const badKind = await post(`${pods}/b3/binding`, binding("b3", { kind: "Pod", name: "x" }));
    expect(badKind.status).toBe(500);
    // A plain error is an unknown-reason 500: Go's omitempty drops the empty reason.
    expect(badKind.json()).toMatchObject({
      code: 500,
      message: 'target.kind: Unsupported value: "Pod": supported values: "Node", "<empty>"',
    });
    expect(badKind.json()).not.toHaveProperty("reason");
    const missing = await post(`${pods}/nope/binding`, binding("nope", { name: "node-a" }));
    expect(missing.status).toBe(404);
    expect((missing.json() as { message: string }).message).toBe('pods "nope" not found');
    expect(((await s.request(`${pods}/b3`)).json() as Pod).spec.nodeName).toBeUndefined();
  });

  it("checks the Binding's uid as a precondition", async () => {
    await createPod("b4");
    const r = await post(`${pods}/b4/binding`, binding("b4", { name: "node-a" }, { uid: "00000000-0000-0000-0000-000000000000" }));
    expect(r.status).toBe(409);
  });

  it("serves only create on pods/binding", async () => {
    await createPod("b5");
    expect((await s.request(`${pods}/b5/binding`)).status).toBe(405);
  });
});
