/** GenericStore.delete with a beforeDelete hook (the namespace deleter) and preconditions. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStore, type KubeObject, type Store } from "../../storage/index.ts";
import { leaseStrategy } from "../coordination/lease/strategy.ts";
import { GenericStore } from "./store.ts";

describe("GenericStore.delete with beforeDelete", () => {
  let store: Store;
  let emptied: string[];
  let leases: GenericStore;
  let uid: string;
  beforeAll(async () => {
    store = await createStore({ backend: "memory" });
    emptied = [];
    leases = new GenericStore(store, {
      group: "coordination.k8s.io",
      resource: "leases",
      storagePath: "leases",
      strategy: leaseStrategy,
      beforeDelete: async (o: KubeObject) => void emptied.push(o.metadata.name ?? ""),
    });
    uid = (await leases.create("ns", { apiVersion: "coordination.k8s.io/v1", kind: "Lease", metadata: { name: "a" } })).metadata.uid ?? "";
  });
  afterAll(async () => {
    await store.close();
  });

  it.each([
    ["a wrong uid", { uid: "00000000-0000-0000-0000-000000000000" }],
    ["a resourceVersion it does not have", { resourceVersion: "12345" }],
  ])("fails %s with 409 before the hook runs", async (_name, preconditions) => {
    await expect(leases.delete("ns", "a", { preconditions })).rejects.toMatchObject({ code: 409 });
    expect(emptied).toEqual([]);
    expect((await leases.get("ns", "a")).metadata.uid).toBe(uid);
  });

  it("runs the hook and deletes when the preconditions hold", async () => {
    const r = await leases.delete("ns", "a", { preconditions: { uid } });
    expect(r.deleted).toBe(true);
    expect(emptied).toEqual(["a"]);
  });
});
