/**
 * The `kubernetes` Service's Endpoints and EndpointSlice over HTTP, with several apiservers on one
 * store (upstream's lease endpoint reconciler, test/integration/controlplane's
 * TestReconcilerAPIServerLeaseCombined in spirit): each live apiserver's advertise address is
 * listed, a clean stop removes its address at once, an expired lease leaves at the next reconcile.
 */
import { jsonLogger } from "@servicenet/component-base/logs";
import { afterEach, describe, expect, it } from "vitest";
import { eventually } from "@servicenet/testing";
import { startApiServer, type ApiServer } from "../../apiserver.ts";
import { createStore, type Store } from "../../../storage/index.ts";
import { StorageLeases } from "../../reconcilers/index.ts";

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const c of opened.splice(0).reverse()) await c.close();
});

async function start(store: Store, advertiseAddress: string, intervalMs = 100): Promise<ApiServer> {
  const api = await startApiServer({
    storage: store,
    auth: false,
    tls: false,
    serviceClusterIPRange: "10.0.0.0/24",
    advertiseAddress,
    kubernetesServiceIntervalMs: intervalMs,
  });
  opened.push(api);
  return api;
}

async function get(api: ApiServer, path: string): Promise<Record<string, unknown>> {
  const r = await fetch(`${api.url}${path}`);
  return (await r.json()) as Record<string, unknown>;
}

async function addresses(api: ApiServer): Promise<{ endpoints: string[]; slice: string[] }> {
  const ep = (await get(api, "/api/v1/namespaces/default/endpoints/kubernetes")) as {
    subsets?: Array<{ addresses?: Array<{ ip: string }> }>;
  };
  const sl = (await get(api, "/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/kubernetes")) as {
    endpoints?: Array<{ addresses: string[] }>;
  };
  return {
    endpoints: (ep.subsets ?? []).flatMap((s) => (s.addresses ?? []).map((a) => a.ip)),
    slice: (sl.endpoints ?? []).flatMap((e) => e.addresses),
  };
}

describe("kubernetes.default endpoints (lease endpoint reconciler)", () => {
  it("lists the apiserver with upstream's shapes: skip-mirror Endpoints, an EndpointSlice named kubernetes", async () => {
    const store = await createStore({ backend: "memory" });
    opened.push(store);
    const a = await start(store, "192.0.2.1");
    const ep = await get(a, "/api/v1/namespaces/default/endpoints/kubernetes");
    expect(ep["metadata"]).toMatchObject({
      name: "kubernetes",
      namespace: "default",
      labels: { "endpointslice.kubernetes.io/skip-mirror": "true" },
    });
    expect(ep["subsets"]).toEqual([{ addresses: [{ ip: "192.0.2.1" }], ports: [{ name: "https", port: a.port, protocol: "TCP" }] }]);
    const slice = await get(a, "/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/kubernetes");
    expect(slice["metadata"]).toMatchObject({ name: "kubernetes", labels: { "kubernetes.io/service-name": "kubernetes" } });
    expect(slice["addressType"]).toBe("IPv4");
    expect(slice["endpoints"]).toEqual([{ addresses: ["192.0.2.1"], conditions: { ready: true } }]);
    expect(slice["ports"]).toEqual([{ name: "https", port: a.port, protocol: "TCP" }]);
  });

  it("follows a second apiserver: listed while it runs, removed at once on a clean stop", async () => {
    const store = await createStore({ backend: "memory" });
    opened.push(store);
    const a = await start(store, "192.0.2.1");
    const b = await start(store, "192.0.2.2");
    await eventually(async () =>
      expect(await addresses(a)).toEqual({ endpoints: ["192.0.2.1", "192.0.2.2"], slice: ["192.0.2.1", "192.0.2.2"] }),
    );
    opened.splice(opened.indexOf(b), 1);
    await b.close();
    // RemoveEndpoints on shutdown: no wait for a lease to expire.
    expect(await addresses(a)).toEqual({ endpoints: ["192.0.2.1"], slice: ["192.0.2.1"] });
  });

  it("drops an address whose lease expired (an apiserver that died without stopping)", async () => {
    const store = await createStore({ backend: "memory" });
    opened.push(store);
    const a = await start(store, "192.0.2.1");
    // A dead apiserver's last refresh, with a short TTL.
    await new StorageLeases(store, { leaseTimeMs: 400 }).updateLease("192.0.2.9");
    await eventually(async () => expect((await addresses(a)).endpoints).toEqual(["192.0.2.1", "192.0.2.9"]));
    await eventually(async () => expect(await addresses(a)).toEqual({ endpoints: ["192.0.2.1"], slice: ["192.0.2.1"] }), {
      timeoutMs: 5_000,
    });
  });

  it("the last apiserver's clean stop empties the endpoints (upstream TestApiserverShutdown)", async () => {
    const store = await createStore({ backend: "memory" });
    opened.push(store);
    const a = await start(store, "192.0.2.1");
    opened.splice(opened.indexOf(a), 1);
    await a.close();
    const stored = await store.get("/registry/services/endpoints/default/kubernetes");
    expect(stored["subsets"] ?? []).toEqual([]);
    expect((await store.list("/registry/masterleases/")).items).toEqual([]);
    const b = await start(store, "192.0.2.2", 60_000);
    expect(await addresses(b)).toEqual({ endpoints: ["192.0.2.2"], slice: ["192.0.2.2"] });
  });
});

describe("kubernetes.default endpoints with a lease shared by workers (servicenet up --workers)", () => {
  async function worker(store: Store, shared: boolean, lines: string[]): Promise<ApiServer> {
    return startApiServer({
      storage: store,
      auth: false,
      tls: false,
      serviceClusterIPRange: "10.0.0.0/24",
      advertiseAddress: "192.0.2.9",
      kubernetesServiceIntervalMs: 100,
      ...(shared ? { sharedMasterLease: true } : {}),
      logger: jsonLogger("apiserver", { write: (l) => lines.push(l) }),
    });
  }
  const errors = (lines: string[]): string[] => lines.filter((l) => l.includes('"level":"error"'));

  it.each([
    { shared: true, errorLines: 0 },
    // Without it, the second worker takes the first one's lease for a stale one, and the last to stop finds it gone.
    { shared: false, errorLines: 2 },
  ])("sharedMasterLease=$shared: two workers on one address log $errorLines errors from start to stop", async ({ shared, errorLines }) => {
    const store = await createStore({ backend: "memory" });
    opened.push(store);
    const lines: string[] = [];
    const a = await worker(store, shared, lines);
    const b = await worker(store, shared, lines);
    await eventually(async () => expect((await addresses(b)).endpoints).toEqual(["192.0.2.9"]));
    await a.close();
    await b.close();
    expect(errors(lines)).toHaveLength(errorLines);
  });
});
