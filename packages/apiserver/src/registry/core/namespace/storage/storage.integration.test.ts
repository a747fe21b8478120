/**
 * The namespace registry over HTTP, named after upstream's
 * pkg/registry/core/namespace/storage/storage_test.go: DELETE marks Terminating, the object goes
 * once spec.finalizers (through PUT .../finalize) and metadata.finalizers are both empty.
 */
import type { Namespace } from "@servicenet/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../../server/testing.ts";

const json = { "Content-Type": "application/json" };
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

const base = "/api/v1/namespaces";
async function create(name: string, finalizers?: string[]): Promise<Namespace> {
  const body = { apiVersion: "v1", kind: "Namespace", metadata: { name, ...(finalizers ? { finalizers } : {}) } };
  const r = await s.request(base, { method: "POST", headers: json, body: JSON.stringify(body) });
  expect(r.status).toBe(201);
  return r.json() as Namespace;
}
const get = (name: string) => s.request(`${base}/${name}`);
const del = (name: string, body?: unknown) =>
  s.request(`${base}/${name}`, { method: "DELETE", ...(body ? { headers: json, body: JSON.stringify(body) } : {}) });
const put = (path: string, obj: Namespace) => s.request(path, { method: "PUT", headers: json, body: JSON.stringify(obj) });
const finalize = (ns: Namespace, finalizers: string[]) => put(`${base}/${ns.metadata.name}/finalize`, { ...ns, spec: { finalizers } });

describe("namespace registry", () => {
  it("TestCreateSetsFields: phase Active and the kubernetes finalizer", async () => {
    const ns = await create("create-sets-fields");
    expect(ns.status?.phase).toBe("Active");
    expect(ns.spec?.finalizers).toEqual(["kubernetes"]);
  });

  it("TestDeleteNamespaceWithIncompleteFinalizers: DELETE sets deletionTimestamp and Terminating, and keeps it", async () => {
    await create("incomplete-finalizers");
    const r = await del("incomplete-finalizers");
    expect(r.status).toBe(200);
    const marked = r.json() as Namespace;
    expect(marked.metadata.deletionTimestamp).toBeDefined();
    expect(marked.status?.phase).toBe("Terminating");
    expect(marked.spec?.finalizers).toEqual(["kubernetes"]);
    // A second DELETE changes nothing while spec.finalizers is not empty.
    const again = await del("incomplete-finalizers");
    expect(again.status).toBe(200);
    expect((again.json() as Namespace).metadata.resourceVersion).toBe(marked.metadata.resourceVersion);
    expect((await get("incomplete-finalizers")).status).toBe(200);
  });

  it("TestFinalizeDeletingNamespaceWithCompleteFinalizers: emptying spec.finalizers through /finalize deletes it", async () => {
    await create("complete-finalizers");
    const marked = (await del("complete-finalizers")).json() as Namespace;
    const r = await finalize(marked, []);
    expect(r.status).toBe(200);
    expect((await get("complete-finalizers")).status).toBe(404);
  });

  it("TestDeleteNamespaceWithCompleteFinalizers: a DELETE of a finalized, terminating namespace deletes it", async () => {
    const ns = await create("finalized-first");
    // Finalized before deletion: the first DELETE still only marks it (upstream always does).
    const finalized = (await finalize(ns, [])).json() as Namespace;
    // `finalizers` is omitempty in NamespaceSpec: Go writes `"spec":{}` once the list is empty.
    expect(finalized.spec).toEqual({});
    expect(((await del("finalized-first")).json() as Namespace).status?.phase).toBe("Terminating");
    expect((await del("finalized-first")).status).toBe(200);
    expect((await get("finalized-first")).status).toBe(404);
  });

  it("TestFinalizeDeletingNamespaceWithIncompleteMetadataFinalizers: metadata.finalizers keep it after /finalize", async () => {
    await create("meta-finalizers", ["example.com/keep"]);
    const marked = (await del("meta-finalizers")).json() as Namespace;
    const kept = (await finalize(marked, [])).json() as Namespace;
    expect(kept.metadata.finalizers).toEqual(["example.com/keep"]);
    expect((await get("meta-finalizers")).status).toBe(200);
    // TestUpdateDeletingNamespaceWithIncompleteMetadataFinalizers: removing the last one deletes it.
    const r = await put(`${base}/meta-finalizers`, { ...kept, metadata: { ...kept.metadata, finalizers: [] } });
    expect(r.status).toBe(200);
    expect((await get("meta-finalizers")).status).toBe(404);
  });

  it("TestUpdateDeletingNamespaceWithIncompleteSpecFinalizers: removing metadata.finalizers leaves it while spec.finalizers remain", async () => {
    await create("spec-remains", ["example.com/keep"]);
    const marked = (await del("spec-remains")).json() as Namespace;
    const r = await put(`${base}/spec-remains`, { ...marked, metadata: { ...marked.metadata, finalizers: [] } });
    expect(r.status).toBe(200);
    expect(((await get("spec-remains")).json() as Namespace).status?.phase).toBe("Terminating");
  });

  it.each([
    ["Orphan", ["orphan"]],
    ["Foreground", ["foregroundDeletion"]],
    ["Background", undefined],
  ])("TestDeleteWithGCFinalizers: propagationPolicy %s", async (policy, want) => {
    const name = `gc-${policy.toLowerCase()}`;
    await create(name);
    const marked = (await del(name, { kind: "DeleteOptions", apiVersion: "v1", propagationPolicy: policy })).json() as Namespace;
    expect(marked.metadata.finalizers).toEqual(want);
  });

  it.each([
    [
      "uid",
      { uid: "00000000-0000-0000-0000-000000000000" },
      "Precondition failed: UID in precondition: 00000000-0000-0000-0000-000000000000",
    ],
    ["resourceVersion", { resourceVersion: "1" }, "Precondition failed: ResourceVersion in precondition: 1"],
  ])("a DELETE whose %s precondition fails is a 409 and marks nothing", async (_n, preconditions, message) => {
    const name = `pre-${_n.toLowerCase()}`;
    await create(name);
    const r = await del(name, { kind: "DeleteOptions", apiVersion: "v1", preconditions });
    expect(r.status).toBe(409);
    expect((r.json() as { message: string }).message).toContain(message);
    expect(((await get(name)).json() as Namespace).metadata.deletionTimestamp).toBeUndefined();
  });

  it("the finalize subresource validates spec.finalizers by index and serves PUT only", async () => {
    const ns = await create("finalize-invalid");
    const r = await finalize(ns, ["kubernetes", "nope"]);
    expect(r.status).toBe(422);
    expect((r.json() as { message: string }).message).toBe(
      'Namespace "finalize-invalid" is invalid: spec.finalizers[1]: Invalid value: "nope": name is neither a standard finalizer name nor is it fully qualified',
    );
    expect((await s.request(`${base}/finalize-invalid/finalize`)).status).toBe(405);
  });

  it("the status subresource refuses phase Terminating without a deletionTimestamp", async () => {
    const ns = await create("status-phase");
    const r = await put(`${base}/status-phase/status`, { ...ns, status: { phase: "Terminating" } });
    expect(r.status).toBe(422);
    expect((r.json() as { message: string }).message).toBe(
      `Namespace "status-phase" is invalid: status.Phase: Invalid value: "Terminating": may only be 'Active' if \`deletionTimestamp\` is empty`,
    );
  });

  it("discovery lists namespaces/finalize with the update verb only", async () => {
    const list = (await s.request("/api/v1")).json() as { resources: { name: string; verbs: string[] }[] };
    expect(list.resources.find((r) => r.name === "namespaces/finalize")?.verbs).toEqual(["update"]);
  });
});
