import { describe, expect, it } from "vitest";
import { createStore } from "../../../../storage/index.ts";
import { GenericStore } from "../../../generic/store.ts";
import { endpointsStrategy } from "../../endpoints/strategy.ts";
import { body, serviceStoreConfig } from "./rest-testing.ts";
import { reconcileKubernetesServiceIn } from "../../../../controlplane/controller/kubernetesservice/index.ts";
import { initServiceStorage, newServiceREST, serviceRESTOf } from "./startup-server.ts";
import { allocatorState, makeTestAllocators } from "./testing.ts";

describe("server wiring helpers", () => {
  it("restores, reconciles kubernetes.default, and deletes a deleted Service's Endpoints", async () => {
    const store = await createStore({ backend: "memory" });
    const t = makeTestAllocators("v4v6");
    const stores = new Map<string, GenericStore>();
    stores.set(
      "services/endpoints",
      new GenericStore(store, { group: "", resource: "endpoints", storagePath: "services/endpoints", strategy: endpointsStrategy }),
    );
    stores.set("services/specs", newServiceREST(store, serviceStoreConfig, t.alloc, stores));
    const empty = allocatorState(t);

    expect(await initServiceStorage(stores)).toEqual({ clusterIPs: 0, nodePorts: 0, skipped: 0 });
    expect(await reconcileKubernetesServiceIn(stores, { port: 6443 })).toBe("created");
    const rest = serviceRESTOf(stores)!;
    await rest.create("default", body("foo"));
    await stores.get("services/endpoints")!.create("default", { metadata: { name: "foo" } });
    await rest.delete("default", "foo");
    await expect(stores.get("services/endpoints")!.get("default", "foo")).rejects.toMatchObject({ reason: "NotFound" });
    await rest.delete("default", "kubernetes");
    expect(allocatorState(t)).toBe(empty);
  });

  it("is a no-op when the services entry is a plain GenericStore", async () => {
    const store = await createStore({ backend: "memory" });
    const stores = new Map([["services/specs", new GenericStore(store, serviceStoreConfig)]]);
    expect(serviceRESTOf(stores)).toBeUndefined();
    expect(await initServiceStorage(stores)).toBeUndefined();
    expect(await reconcileKubernetesServiceIn(stores, { port: 6443 })).toBeUndefined();
  });
});
