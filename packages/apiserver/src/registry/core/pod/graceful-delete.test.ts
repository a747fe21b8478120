/**
 * Pod deletion through the generic store: pkg/registry/core/pod/strategy.go CheckGracefulDelete
 * with the store's graceful path (registry/store.go Delete, updateForGracefulDeletionAndFinalizers).
 */
import type { Pod } from "@servicenet/api";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createStore, type Store } from "../../../storage/index.ts";
import { GenericStore } from "../../generic/store.ts";
import { checkGracefulDeleteWithPodStatus, podStrategy } from "./strategy.ts";

const pod = (spec: Partial<Pod["spec"]> = {}, status?: Pod["status"]): Pod => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name: "p" },
  spec: { containers: [{ name: "c", image: "nginx" }], ...spec },
  ...(status ? { status } : {}),
});

describe("checkGracefulDeleteWithPodStatus", () => {
  it.each([
    ["scheduled: the pod's terminationGracePeriodSeconds", { nodeName: "n", terminationGracePeriodSeconds: 45 }, undefined, undefined, 45],
    ["scheduled: the request's period wins", { nodeName: "n", terminationGracePeriodSeconds: 45 }, undefined, 5, 5],
    ["scheduled without a period: 0", { nodeName: "n" }, undefined, undefined, 0],
    ["unscheduled: 0", { terminationGracePeriodSeconds: 45 }, undefined, 10, 0],
    ["Succeeded: 0", { nodeName: "n", terminationGracePeriodSeconds: 45 }, { phase: "Succeeded" }, undefined, 0],
    ["Failed: 0", { nodeName: "n", terminationGracePeriodSeconds: 45 }, { phase: "Failed" }, undefined, 0],
    ["negative: 1", { nodeName: "n" }, undefined, -3, 1],
  ])("%s", (_n, spec, status, requested, want) => {
    const options = { gracePeriodSeconds: requested };
    expect(checkGracefulDeleteWithPodStatus(pod(spec, status), options)).toBe(true);
    expect(options.gracePeriodSeconds).toBe(want);
  });
});

describe("graceful Pod deletion in the generic store", () => {
  let store: Store;
  let pods: GenericStore;
  beforeEach(async () => {
    store = await createStore({ backend: "memory" });
    pods = new GenericStore(store, { group: "", resource: "pods", storagePath: "pods", strategy: podStrategy });
  });
  afterEach(async () => {
    await store.close();
  });
  const create = (spec: Partial<Pod["spec"]>, status?: Pod["status"]) => {
    const o = pod(spec, status);
    podStrategy.defaults?.(o);
    return pods.create("default", o);
  };

  it("keeps a scheduled Pod Terminating (deletionTimestamp, grace period, generation + 1) until a delete with grace 0", async () => {
    await create({ nodeName: "node-a" });
    const before = Date.now();
    const r = await pods.delete("default", "p");
    expect(r.deleted).toBe(false);
    expect(r.object.metadata).toMatchObject({ deletionGracePeriodSeconds: 30, generation: 2 });
    const ts = Date.parse(r.object.metadata.deletionTimestamp ?? "");
    expect(ts).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 30_000);
    // Deleting again asks for nothing new: still there, unchanged.
    const again = await pods.delete("default", "p");
    expect(again).toMatchObject({ deleted: false, object: { metadata: { resourceVersion: r.object.metadata.resourceVersion } } });
    // The kubelet's final delete.
    expect((await pods.delete("default", "p", { gracePeriodSeconds: 0 })).deleted).toBe(true);
    await expect(pods.get("default", "p")).rejects.toMatchObject({ code: 404 });
  });

  it("deletes an unscheduled Pod at once", async () => {
    await create({});
    expect((await pods.delete("default", "p")).deleted).toBe(true);
    await expect(pods.get("default", "p")).rejects.toMatchObject({ code: 404 });
  });

  it("deletes a terminal Pod at once", async () => {
    await create({ nodeName: "node-a" });
    await pods.update("default", "p", async (cur) => ({ ...cur!, status: { phase: "Succeeded" } }), { subresource: "status" });
    expect((await pods.delete("default", "p")).deleted).toBe(true);
  });

  it("keeps a Pod with a finalizer after its grace-0 delete, marked with grace 0, and removes it with the finalizer", async () => {
    const created = await create({ nodeName: "node-a" });
    await pods.update("default", "p", async (cur) => ({ ...cur!, metadata: { ...cur!.metadata, finalizers: ["example.com/x"] } }));
    await pods.delete("default", "p");
    const kept = await pods.delete("default", "p", { gracePeriodSeconds: 0 });
    expect(kept.deleted).toBe(false);
    expect(kept.object.metadata["deletionGracePeriodSeconds"]).toBe(0);
    const gone = await pods.update("default", "p", async (cur) => ({ ...cur!, metadata: { ...cur!.metadata, finalizers: [] } }));
    expect(gone.object.metadata.uid).toBe(created.metadata.uid);
    await expect(pods.get("default", "p")).rejects.toMatchObject({ code: 404 });
  });

  it("does not remove a gracefully deleting Pod when its last finalizer goes before the grace period ends", async () => {
    await create({ nodeName: "node-a" });
    await pods.update("default", "p", async (cur) => ({ ...cur!, metadata: { ...cur!.metadata, finalizers: ["example.com/x"] } }));
    await pods.delete("default", "p");
    await pods.update("default", "p", async (cur) => ({ ...cur!, metadata: { ...cur!.metadata, finalizers: [] } }));
    expect((await pods.get("default", "p")).metadata["deletionGracePeriodSeconds"]).toBe(30);
  });

  it("refuses two IPv4 pod IPs through the status subresource", async () => {
    await create({ nodeName: "node-a" });
    const write = pods.update(
      "default",
      "p",
      async (cur) => ({ ...cur!, status: { podIP: "10.0.0.1", podIPs: [{ ip: "10.0.0.1" }, { ip: "10.0.0.2" }] } }),
      { subresource: "status" },
    );
    await expect(write).rejects.toMatchObject({
      code: 422,
      message: expect.stringContaining("may specify no more than one IP for each IP family"),
    });
  });
});
