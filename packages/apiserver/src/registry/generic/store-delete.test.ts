/** GenericStore.delete with preconditions. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStore, type Store } from "../../storage/index.ts";
import { leaseStrategy } from "../coordination/lease/strategy.ts";
import { GenericStore } from "./store.ts";

describe("GenericStore.delete with preconditions", () => {
  let store: Store;
  let leases: GenericStore;
  let uid: string;
  beforeAll(async () => {
    store = await createStore({ backend: "memory" });
    leases = new GenericStore(store, {
      group: "coordination.k8s.io",
      resource: "leases",
      storagePath: "leases",
      strategy: leaseStrategy,
    });
    uid = (await leases.create("ns", { apiVersion: "coordination.k8s.io/v1", kind: "Lease", metadata: { name: "a" } })).metadata.uid ?? "";
  });
  afterAll(async () => {
    await store.close();
  });

  it.each([
    ["a wrong uid", { uid: "00000000-0000-0000-0000-000000000000" }],
    ["a resourceVersion it does not have", { resourceVersion: "12345" }],
  ])("fails %s with 409 and keeps the object", async (_name, preconditions) => {
    await expect(leases.delete("ns", "a", { preconditions })).rejects.toMatchObject({ code: 409 });
    expect((await leases.get("ns", "a")).metadata.uid).toBe(uid);
  });

  it("deletes when the preconditions hold", async () => {
    const r = await leases.delete("ns", "a", { preconditions: { uid } });
    expect(r.deleted).toBe(true);
  });

  it("validates a delete with the object in the endpoint's version (strategy.decode), not the stored one", async () => {
    const decoded = new GenericStore(store, {
      group: "coordination.k8s.io",
      resource: "leases",
      storagePath: "leases",
      strategy: { ...leaseStrategy, decode: (o) => ({ ...o, apiVersion: "coordination.k8s.io/v1beta1" }) },
    });
    await decoded.create("ns", { apiVersion: "coordination.k8s.io/v1", kind: "Lease", metadata: { name: "b" } });
    const seen: string[] = [];
    const r = await decoded.delete("ns", "b", { deleteValidation: async (o) => void seen.push(String(o.apiVersion)) });
    expect(r.deleted).toBe(true);
    expect(seen).toEqual(["coordination.k8s.io/v1beta1"]);
  });
});
