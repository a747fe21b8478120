/**
 * ServiceREST behind the real HTTP handlers (POST, PUT, merge/strategic/apply patches, DELETE):
 * the services entry of a started server's registry is swapped for a ServiceREST, which is what
 * the integration does in newRESTStorage.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../../../server/server.ts";
import { createStore, type KubeObject } from "../../../../storage/index.ts";
import type { GenericStore } from "../../../generic/store.ts";
import { serviceStoreConfig, specOf } from "./rest-testing.ts";
import { newServiceREST } from "./startup-server.ts";
import { allocatorState, makeTestAllocators, type TestAllocators } from "./testing.ts";

let server: RunningServer;
let t: TestAllocators;
const base = (): string => `${server.url}/api/v1/namespaces/default/services`;

async function call(
  method: string,
  path: string,
  body?: unknown,
  contentType = "application/json",
): Promise<{ code: number; obj: KubeObject }> {
  const res = await fetch(path, {
    method,
    headers: { "Content-Type": contentType, Accept: "application/json" },
    ...(body !== undefined ? { body: typeof body === "string" ? body : JSON.stringify(body) } : {}),
  });
  return { code: res.status, obj: (await res.json()) as KubeObject };
}

const svc = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  apiVersion: "v1",
  kind: "Service",
  metadata: { name: "web" },
  spec: { selector: { app: "web" }, ports: [{ port: 80, targetPort: 8080 }], ...extra },
});

beforeAll(async () => {
  const store = await createStore({ backend: "memory" });
  server = await startServer({ store, port: 0 });
  t = makeTestAllocators("v4v6");
  const stores = server.registry.stores as Map<string, GenericStore>;
  stores.set("services/specs", newServiceREST(store, serviceStoreConfig, t.alloc, stores));
});
afterAll(async () => server.close());

describe("ServiceREST over HTTP", () => {
  const empty = (): string => allocatorState(makeTestAllocators("v4v6"));

  it("POST allocates; dry-run POST does not", async () => {
    const dry = await call("POST", `${base()}?dryRun=All`, svc({ ipFamilyPolicy: "PreferDualStack" }));
    expect(dry.code).toBe(201);
    expect(specOf(dry.obj).clusterIPs).toHaveLength(2);
    expect(allocatorState(t)).toBe(empty());
    const { code, obj } = await call("POST", base(), svc());
    expect(code).toBe(201);
    expect(t.ranges.get("IPv4")!.used()).toBe(1);
    expect(specOf(obj).ipFamilies).toEqual(["IPv4"]);
  });

  it("merge patch upgrades to dual-stack and to NodePort; strategic patch back to ClusterIP releases the port", async () => {
    const up = await call(
      "PATCH",
      `${base()}/web`,
      { spec: { ipFamilyPolicy: "RequireDualStack", type: "NodePort" } },
      "application/merge-patch+json",
    );
    expect(up.code).toBe(200);
    expect(specOf(up.obj).clusterIPs).toHaveLength(2);
    const np = specOf(up.obj).ports![0]!.nodePort!;
    expect(t.ports.has(np)).toBe(true);
    const down = await call(
      "PATCH",
      `${base()}/web`,
      { spec: { type: "ClusterIP", externalTrafficPolicy: null } },
      "application/strategic-merge-patch+json",
    );
    expect(down.code).toBe(200);
    expect(t.ports.used()).toBe(0);
  });

  it("PUT without clusterIPs keeps them; a bad PUT (422) changes nothing", async () => {
    const before = (await call("GET", `${base()}/web`)).obj;
    const put = await call("PUT", `${base()}/web`, svc({ ipFamilyPolicy: "RequireDualStack" }));
    expect(put.code).toBe(200);
    expect(specOf(put.obj).clusterIPs).toEqual(specOf(before).clusterIPs);
    const state = allocatorState(t);
    const bad = await call(
      "PUT",
      `${base()}/web`,
      svc({ ipFamilyPolicy: "RequireDualStack", type: "NodePort", sessionAffinity: "Sometimes" }),
    );
    expect(bad.code).toBe(422);
    expect(allocatorState(t)).toBe(state);
  });

  it("a merge patch to ExternalName drops clusterIP and its companions from the answer (omitempty), as strategy.go dropTypeDependentFields", async () => {
    const created = await call("POST", base(), { ...svc(), metadata: { name: "ext" } });
    expect(created.code).toBe(201);
    const patched = await call(
      "PATCH",
      `${base()}/ext`,
      { spec: { type: "ExternalName", externalName: "db.example.com", selector: null, ports: null } },
      "application/merge-patch+json",
    );
    expect(patched.code).toBe(200);
    for (const obj of [patched.obj, (await call("GET", `${base()}/ext`)).obj]) {
      expect(Object.keys(specOf(obj))).not.toContain("clusterIP");
      expect(specOf(obj)).toEqual({ type: "ExternalName", externalName: "db.example.com", sessionAffinity: "None" });
    }
    expect((await call("DELETE", `${base()}/ext`)).code).toBe(200);
  });

  it("server-side apply creates with an allocation; DELETE releases everything", async () => {
    const yaml = "apiVersion: v1\nkind: Service\nmetadata:\n  name: applied\nspec:\n  type: NodePort\n  ports:\n  - port: 443\n";
    const applied = await call("PATCH", `${base()}/applied?fieldManager=test`, yaml, "application/apply-patch+yaml");
    expect(applied.code).toBe(201);
    expect(specOf(applied.obj).ports![0]!.nodePort).toBeGreaterThan(0);
    for (const name of ["web", "applied"]) expect((await call("DELETE", `${base()}/${name}`)).code).toBe(200);
    expect(allocatorState(t)).toBe(empty());
  });
});
