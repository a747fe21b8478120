/** REST semantics over HTTP: finalizers, dry-run, generateName, status subresource, namespaces, output formats. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./testing.ts";

const json = { "Content-Type": "application/json" };
type Obj = {
  metadata: { name: string; resourceVersion: string; deletionTimestamp?: string; finalizers?: string[]; generation?: number };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
};

describe("REST semantics", () => {
  let s: TestServer;
  const post = async (path: string, body: unknown, query = "") =>
    s.request(`${path}${query}`, { method: "POST", headers: json, body: JSON.stringify(body) });
  const get = async (path: string, headers: Record<string, string> = {}) => s.request(path, { headers });
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  it("dryRun=All validates but persists nothing", async () => {
    const r = await post(
      "/api/v1/namespaces/default/services",
      { metadata: { name: "dry" }, spec: { ports: [{ port: 80 }] } },
      "?dryRun=All",
    );
    expect(r.status).toBe(201);
    expect((await get("/api/v1/namespaces/default/services/dry")).status).toBe(404);
    expect((await post("/api/v1/namespaces/default/services", {}, "?dryRun=Some")).status).toBe(400);
  });

  it("generateName gives a name with a 5-character suffix", async () => {
    const r = await post("/api/v1/namespaces/default/services", { metadata: { generateName: "gen-" }, spec: { ports: [{ port: 80 }] } });
    expect((r.json() as Obj).metadata.name).toMatch(/^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });

  it("keeps an object with finalizers until the last one is removed", async () => {
    const base = "/apis/networking.k8s.io/v1/servicecidrs";
    const created = await post(base, { metadata: { name: "extra", finalizers: ["example.com/keep"] }, spec: { cidrs: ["10.100.0.0/24"] } });
    expect(created.status).toBe(201);
    // The apiserver adds no protection finalizer: upstream's ServiceCIDR controller does (servicecidrs_controller.go).
    expect((created.json() as Obj).metadata["finalizers"]).toEqual(["example.com/keep"]);
    const del = await s.request(`${base}/extra`, { method: "DELETE" });
    // 200 with the object, as upstream (202 only with orphanDependents=false).
    expect(del.status).toBe(200);
    const marked = (await get(`${base}/extra`)).json() as Obj;
    expect(marked.metadata.deletionTimestamp).toMatch(/Z$/);
    const patch = await s.request(`${base}/extra`, {
      method: "PATCH",
      headers: { "Content-Type": "application/merge-patch+json" },
      body: '{"metadata":{"finalizers":null}}',
    });
    expect(patch.status).toBe(200);
    expect((await get(`${base}/extra`)).status).toBe(404);
  });

  it("creates a ServiceCIDR without the protection finalizer: with no controller-manager a DELETE removes it at once", async () => {
    // pkg/registry/networking/servicecidr/strategy.go PrepareForCreate adds no finalizer; the
    // controller-manager's ServiceCIDR controller does.
    const base = "/apis/networking.k8s.io/v1/servicecidrs";
    const created = await post(base, { metadata: { name: "unprotected" }, spec: { cidrs: ["10.104.0.0/24"] } });
    expect(created.status).toBe(201);
    expect((created.json() as Obj).metadata.finalizers).toBeUndefined();
    const del = await s.request(`${base}/unprotected`, { method: "DELETE" });
    expect(del.status).toBe(200);
    expect((del.json() as { kind: string }).kind).toBe("Status");
    expect((await get(`${base}/unprotected`)).status).toBe(404);
  });

  it("answers 202 for an object kept by finalizers only with orphanDependents=false", async () => {
    const base = "/apis/networking.k8s.io/v1/servicecidrs";
    const body = { metadata: { name: "orphan-false", finalizers: ["example.com/keep"] }, spec: { cidrs: ["10.103.0.0/24"] } };
    expect((await post(base, body)).status).toBe(201);
    const del = await s.request(`${base}/orphan-false`, {
      method: "DELETE",
      headers: { "Content-Type": "application/json" },
      body: '{"kind":"DeleteOptions","apiVersion":"v1","orphanDependents":false}',
    });
    expect(del.status).toBe(202);
    expect((del.json() as Obj).metadata.deletionTimestamp).toMatch(/Z$/);
    const gone = await s.request(`${base}/orphan-false`, {
      method: "PATCH",
      headers: { "Content-Type": "application/merge-patch+json" },
      body: '{"metadata":{"finalizers":null}}',
    });
    expect(gone.status).toBe(200);
  });

  it("the status subresource changes status only, the main resource spec only", async () => {
    const base = "/apis/networking.k8s.io/v1/servicecidrs";
    await post(base, { metadata: { name: "st" }, spec: { cidrs: ["10.101.0.0/24"] } });
    const cond = { type: "Ready", status: "True", reason: "x", message: "", lastTransitionTime: "2025-01-01T00:00:00Z" };
    const r = await s.request(`${base}/st/status`, {
      method: "PATCH",
      headers: { "Content-Type": "application/merge-patch+json" },
      body: JSON.stringify({ spec: { cidrs: ["10.102.0.0/24"] }, status: { conditions: [cond] } }),
    });
    expect(r.status).toBe(200);
    const o = r.json() as Obj;
    expect(o.spec).toEqual({ cidrs: ["10.101.0.0/24"] });
    expect(o.status).toEqual({ conditions: [cond] });
    const main = await s.request(`${base}/st`, {
      method: "PATCH",
      headers: { "Content-Type": "application/merge-patch+json" },
      body: '{"status":{"conditions":[]},"metadata":{"labels":{"a":"b"}}}',
    });
    expect((main.json() as Obj).status).toEqual({ conditions: [cond] });
  });

  it("rejects creates in a missing namespace and in a deleted (Terminating) one; default cannot be deleted", async () => {
    expect((await post("/api/v1/namespaces/never/services", { metadata: { name: "x" }, spec: { ports: [{ port: 80 }] } })).status).toBe(
      404,
    );
    expect((await post("/api/v1/namespaces", { metadata: { name: "tmp" } })).status).toBe(201);
    expect((await post("/api/v1/namespaces/tmp/services", { metadata: { name: "x" }, spec: { ports: [{ port: 80 }] } })).status).toBe(201);
    expect((await s.request("/api/v1/namespaces/tmp", { method: "DELETE" })).status).toBe(200);
    // Upstream's split: the apiserver marks it Terminating; the controller-manager's namespace
    // controller empties and finalizes it (packages/e2e/src/lifecycle).
    expect(((await get("/api/v1/namespaces/tmp")).json() as { status: { phase: string } }).status.phase).toBe("Terminating");
    expect((await get("/api/v1/namespaces/tmp/services/x")).status).toBe(200);
    expect((await post("/api/v1/namespaces/tmp/services", { metadata: { name: "y" }, spec: { ports: [{ port: 80 }] } })).status).toBe(403);
    expect((await s.request("/api/v1/namespaces/default", { method: "DELETE" })).status).toBe(403);
  });

  it("deletecollection honours the label selector", async () => {
    for (const [n, l] of [
      ["dc1", "a"],
      ["dc2", "a"],
      ["dc3", "b"],
    ] as const)
      await post("/api/v1/namespaces/default/endpoints", { metadata: { name: n, labels: { g: l } } });
    expect((await s.request("/api/v1/namespaces/default/endpoints?labelSelector=g%3Da", { method: "DELETE" })).status).toBe(200);
    const left = (await get("/api/v1/namespaces/default/endpoints?labelSelector=g")).json() as { items: Obj[] };
    expect(left.items.map((i) => i.metadata.name)).toEqual(["dc3"]);
  });

  it("serves YAML, Tables with includeObject, PartialObjectMetadata and paginated lists", async () => {
    const yaml = await get("/api/v1/namespaces", { Accept: "application/yaml" });
    expect(yaml.headers.get("content-type")).toBe("application/yaml");
    expect(yaml.text).toMatch(/^apiVersion: v1\nitems:\n/);
    const table = (
      await get("/apis/networking.k8s.io/v1/servicecidrs?includeObject=None", { Accept: "application/json;as=Table;v=v1;g=meta.k8s.io" })
    ).json() as { kind: string; columnDefinitions: { name: string }[]; rows: { cells: unknown[]; object?: unknown }[] };
    expect(table.kind).toBe("Table");
    expect(table.columnDefinitions.map((c) => c.name)).toEqual(["Name", "CIDRs", "Age"]);
    expect(table.rows.map((r) => r.cells.slice(0, 2))).toEqual([
      ["kubernetes", "10.96.0.0/16,fd00:10:96::/112"],
      ["st", "10.101.0.0/24"],
    ]);
    expect(table.rows[0]?.object).toBeUndefined();
    const partial = (
      await get("/api/v1/namespaces", { Accept: "application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io" })
    ).json() as { kind: string };
    expect(partial.kind).toBe("PartialObjectMetadataList");
    const page1 = (await get("/api/v1/namespaces?limit=2")).json() as { items: Obj[]; metadata: { continue?: string } };
    expect(page1.items).toHaveLength(2);
    const page2 = (await get(`/api/v1/namespaces?limit=2&continue=${encodeURIComponent(page1.metadata.continue ?? "")}`)).json() as {
      items: Obj[];
    };
    expect(page2.items.map((i) => i.metadata.name)).not.toContain(page1.items[0]!.metadata.name);
    expect((await get("/api/v1/namespaces", { Accept: "text/html" })).status).toBe(406);
  });

  it("serves aggregated discovery with its content type, and the legacy documents", async () => {
    const accept = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json";
    const agg = await get("/apis", { Accept: accept });
    expect(agg.headers.get("content-type")).toBe("application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList");
    const doc = agg.json() as { items: { metadata: { name: string } }[] };
    // kube-aggregator's order: groupPriorityMinimum descending (DefaultGenericAPIServicePriorities).
    expect(doc.items.map((g) => g.metadata.name)).toEqual([
      "apps",
      "events.k8s.io",
      "authentication.k8s.io",
      "authorization.k8s.io",
      "batch",
      "networking.k8s.io",
      "policy",
      "rbac.authorization.k8s.io",
      // Both at 16700: the group name decides.
      "admissionregistration.k8s.io",
      "apiextensions.k8s.io",
      "scheduling.k8s.io",
      "coordination.k8s.io",
      "discovery.k8s.io",
      "flowcontrol.apiserver.k8s.io",
    ]);
    const core = (await get("/api/v1")).json() as { resources: { name: string; shortNames?: string[] }[] };
    expect(core.resources.find((r) => r.name === "services")?.shortNames).toEqual(["svc"]);
    expect(core.resources.map((r) => r.name)).toContain("services/status");
    const group = (await get("/apis/networking.k8s.io")).json() as { preferredVersion: { version: string } };
    expect(group.preferredVersion.version).toBe("v1");
    // pkg/registry/rbac/rest/storage_rbac.go: two cluster-scoped and two namespaced kinds, no subresources.
    const rbac = (await get("/apis/rbac.authorization.k8s.io/v1")).json() as { resources: { name: string; namespaced: boolean }[] };
    expect(rbac.resources.map((r) => [r.name, r.namespaced])).toEqual([
      ["clusterrolebindings", false],
      ["clusterroles", false],
      ["rolebindings", true],
      ["roles", true],
    ]);
  });

  it("checks delete preconditions", async () => {
    const created = (await post("/api/v1/namespaces/default/endpoints", { metadata: { name: "pre" } })).json() as Obj & {
      metadata: { uid: string };
    };
    const wrong = await s.request("/api/v1/namespaces/default/endpoints/pre", {
      method: "DELETE",
      headers: json,
      body: JSON.stringify({ preconditions: { uid: "other" } }),
    });
    expect(wrong.status).toBe(409);
    expect((wrong.json() as { message: string }).message).toContain("Precondition failed: UID in precondition: other");
    const right = await s.request("/api/v1/namespaces/default/endpoints/pre", {
      method: "DELETE",
      headers: json,
      body: JSON.stringify({ preconditions: { uid: created.metadata.uid, resourceVersion: created.metadata.resourceVersion } }),
    });
    expect(right.status).toBe(200);
    expect(right.json()).toMatchObject({ kind: "Status", status: "Success", details: { name: "pre", kind: "endpoints" } });
  });

  it("selects pods by spec.nodeName and events by involvedObject, and rejects unknown field labels", async () => {
    await post("/api/v1/namespaces/default/pods", {
      metadata: { name: "p1" },
      spec: { nodeName: "n1", containers: [{ name: "c", image: "i" }] },
    });
    await post("/api/v1/namespaces/default/pods", {
      metadata: { name: "p2" },
      spec: { nodeName: "n2", containers: [{ name: "c", image: "i" }] },
    });
    const pods = (await get("/api/v1/pods?fieldSelector=spec.nodeName%3Dn1")).json() as { items: Obj[] };
    expect(pods.items.map((p) => p.metadata.name)).toEqual(["p1"]);
    await post("/api/v1/namespaces/default/events", {
      metadata: { name: "e1" },
      involvedObject: { kind: "Pod", name: "p1", namespace: "default" },
      reason: "R",
    });
    await post("/api/v1/namespaces/default/events", {
      metadata: { name: "e2" },
      involvedObject: { kind: "Pod", name: "p2", namespace: "default" },
      reason: "R",
    });
    const evs = (
      await get("/api/v1/namespaces/default/events?fieldSelector=involvedObject.kind%3DPod,involvedObject.name%3Dp2")
    ).json() as { items: Obj[] };
    expect(evs.items.map((e) => e.metadata.name)).toEqual(["e2"]);
    const v1 = (await get("/apis/events.k8s.io/v1/namespaces/default/events/e2")).json() as {
      apiVersion: string;
      regarding: { name: string };
    };
    expect(v1).toMatchObject({ apiVersion: "events.k8s.io/v1", regarding: { name: "p2" } });
    // The Table prints the stored (core) Event, as upstream prints the internal object for either
    // version; only the row object is the events.k8s.io/v1 one.
    const tableAccept = { Accept: "application/json;as=Table;v=v1;g=meta.k8s.io" };
    const t = (await get("/apis/events.k8s.io/v1/namespaces/default/events/e2?includeObject=Object", tableAccept)).json() as {
      rows: { cells: unknown[]; object: { apiVersion: string } }[];
    };
    expect(t.rows[0]?.cells.slice(2, 4)).toEqual(["R", "pod/p2"]);
    expect(t.rows[0]?.object.apiVersion).toBe("events.k8s.io/v1");
    const list = (await get("/apis/events.k8s.io/v1/namespaces/default/events", tableAccept)).json() as { rows: { cells: unknown[] }[] };
    expect(list.rows.map((r) => r.cells[3])).toEqual(["pod/p1", "pod/p2"]);
    const bad = await get("/api/v1/pods?fieldSelector=spec.foo%3Dx");
    expect(bad.status).toBe(400);
    expect((bad.json() as { message: string }).message).toBe("field label not supported: spec.foo");
  });
});
