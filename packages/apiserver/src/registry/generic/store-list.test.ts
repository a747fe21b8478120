/** GenericStore.list: a read-only list's items are storage's shared decodings, decorated in place. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStore, type Store } from "../../storage/index.ts";
import { leaseStrategy } from "../coordination/lease/strategy.ts";
import { GenericStore } from "./store.ts";

describe("GenericStore.list readOnly", () => {
  let store: Store;
  let leases: GenericStore;
  beforeAll(async () => {
    store = await createStore({ backend: "memory" });
    leases = new GenericStore(store, { group: "coordination.k8s.io", resource: "leases", storagePath: "leases", strategy: leaseStrategy });
    // An idempotent read-time default, as the Service's Decorator (defaultOnReadService).
    leases.hooks.decorator = (o) => {
      o.metadata.labels = { ...(o.metadata.labels as Record<string, string> | undefined), decorated: "yes" };
    };
    await leases.create("ns", { apiVersion: "coordination.k8s.io/v1", kind: "Lease", metadata: { name: "a" } });
  });
  afterAll(async () => {
    await store.close();
  });

  it("hands every read-only list the same decorated objects, and other lists their own", async () => {
    const a = await leases.list("ns", { readOnly: true });
    const b = await leases.list("ns", { readOnly: true });
    expect(b.items[0]).toBe(a.items[0]);
    expect(b.items[0]!.metadata.labels).toEqual({ decorated: "yes" });
    const own = await leases.list("ns");
    expect(own.items[0]).not.toBe(a.items[0]);
    expect(JSON.stringify(own.items)).toBe(JSON.stringify(a.items));
  });
});
