/**
 * GenericStore.delete with DeleteOptions (upstream store_test.go TestStoreDeletionPropagation and
 * TestDeletionFinalizersForGarbageCollection): which garbage-collector finalizers a DELETE
 * leaves and whether the object goes at once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStore, type Store } from "../../storage/index.ts";
import { leaseStrategy } from "../coordination/lease/strategy.ts";
import { deletionFinalizersForGarbageCollection } from "./gc-finalizers.ts";
import type { DeleteParams } from "./options.ts";
import { GenericStore } from "./store.ts";

const orphan = "orphan";
const fg = "foregroundDeletion";

describe("TestStoreDeletionPropagation", () => {
  let store: Store;
  let leases: GenericStore;
  beforeAll(async () => {
    store = await createStore({ backend: "memory" });
    leases = new GenericStore(store, { group: "coordination.k8s.io", resource: "leases", storagePath: "leases", strategy: leaseStrategy });
  });
  afterAll(async () => {
    await store.close();
  });

  // [name, existing finalizers, options, finalizers after (undefined = deleted)]
  const cases: [string, string[], DeleteParams, string[] | undefined][] = [
    ["no finalizers, no options: deleted", [], {}, undefined],
    ["no finalizers, Background: deleted", [], { propagationPolicy: "Background" }, undefined],
    ["no finalizers, Orphan: orphan finalizer", [], { propagationPolicy: "Orphan" }, [orphan]],
    ["no finalizers, Foreground: foregroundDeletion finalizer", [], { propagationPolicy: "Foreground" }, [fg]],
    ["no finalizers, orphanDependents=true: orphan finalizer", [], { orphanDependents: true }, [orphan]],
    ["no finalizers, orphanDependents=false: deleted", [], { orphanDependents: false }, undefined],
    ["a custom finalizer, no options: kept", ["x/y"], {}, ["x/y"]],
    ["a custom finalizer, Orphan: both", ["x/y"], { propagationPolicy: "Orphan" }, ["x/y", orphan]],
    ["a custom finalizer, Foreground: both", ["x/y"], { propagationPolicy: "Foreground" }, ["x/y", fg]],
    ["orphan finalizer, Background: removed, deleted", [orphan], { propagationPolicy: "Background" }, undefined],
    ["orphan finalizer, no options: kept", [orphan], {}, [orphan]],
    ["foregroundDeletion finalizer, Orphan: replaced", [fg], { propagationPolicy: "Orphan" }, [orphan]],
    ["orphan finalizer, Foreground: replaced", [orphan], { propagationPolicy: "Foreground" }, [fg]],
    ["foregroundDeletion and custom, orphanDependents=false: custom kept", ["x/y", fg], { orphanDependents: false }, ["x/y"]],
  ];
  it.each(cases)("%s", async (name, existing, options, after) => {
    const n = name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "")
      .slice(0, 60)
      .replace(/-$/, "");
    await leases.create("ns", {
      apiVersion: "coordination.k8s.io/v1",
      kind: "Lease",
      metadata: { name: n, ...(existing.length > 0 ? { finalizers: existing } : {}) },
    });
    const r = await leases.delete("ns", n, options);
    expect(r.deleted).toBe(after === undefined);
    if (after === undefined) {
      await expect(leases.get("ns", n)).rejects.toMatchObject({ code: 404 });
      return;
    }
    const got = await leases.get("ns", n);
    expect(got.metadata["finalizers"]).toEqual(after);
    expect(got.metadata.deletionTimestamp).toBeDefined();
    expect(got.metadata["deletionGracePeriodSeconds"]).toBe(0);
  });

  it("a second DELETE of an object being deleted changes its finalizers but keeps its deletionTimestamp", async () => {
    await leases.create("ns", { apiVersion: "coordination.k8s.io/v1", kind: "Lease", metadata: { name: "twice", finalizers: ["x/y"] } });
    const first = (await leases.delete("ns", "twice", { propagationPolicy: "Foreground" })).object;
    const second = (await leases.delete("ns", "twice", { propagationPolicy: "Orphan" })).object;
    expect(second.metadata["finalizers"]).toEqual(["x/y", orphan]);
    expect(second.metadata.deletionTimestamp).toBe(first.metadata.deletionTimestamp);
  });
});

describe("TestDeletionFinalizersForGarbageCollection", () => {
  it.each([
    ["OrphanDependents default orphans without options", "OrphanDependents", [], {}, true, [orphan]],
    ["OrphanDependents default, Background overrides", "OrphanDependents", [], { propagationPolicy: "Background" }, false, []],
    ["Unsupported never adds a finalizer", "Unsupported", [], { propagationPolicy: "Foreground" }, false, []],
    ["DeleteDependents default adds nothing", "DeleteDependents", [], {}, false, []],
  ] as const)("%s", (_n, policy, existing, options, changed, finalizers) => {
    expect(deletionFinalizersForGarbageCollection(policy, { finalizers: [...existing] }, options)).toEqual({ changed, finalizers });
  });
});
