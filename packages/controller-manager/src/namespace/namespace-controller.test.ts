/** NamespaceController's queueing (pkg/controller/namespace/namespace_controller.go enqueueNamespace and worker). */
import type { Namespace } from "@servicenet/api";
import { MemoryInformer } from "@servicenet/client/tools/cache";
import { FakeClock } from "@servicenet/component-base/clock";
import { describe, expect, it } from "vitest";
import { ResourcesRemainingError } from "./deletion/namespaced-resources-deleter.ts";
import { NamespaceController, namespaceDeletionGracePeriodMs, type NamespaceDeleter } from "./namespace-controller.ts";

const ns = (name: string, deleting: boolean): Namespace => ({
  apiVersion: "v1",
  kind: "Namespace",
  metadata: { name, ...(deleting ? { deletionTimestamp: "2026-01-01T00:00:00Z" } : {}) },
});

function setup(deleteFn: NamespaceDeleter["delete"] = () => Promise.resolve()) {
  const clock = new FakeClock(0);
  const namespaces = new MemoryInformer<Namespace>();
  const deleted: string[] = [];
  const deleter: NamespaceDeleter = {
    initOpCache: () => Promise.resolve(),
    delete: (name) => (deleted.push(name), deleteFn(name)),
  };
  const c = new NamespaceController({ namespaces, deleter, clock });
  return { c, clock, namespaces, deleted };
}

describe("NamespaceController", () => {
  it("queues only namespaces being deleted, after the 5 s grace period", () => {
    const { c, clock, namespaces } = setup();
    namespaces.set(ns("active", false));
    namespaces.set(ns("going", true));
    expect(c.queue.len()).toBe(0);
    clock.step(namespaceDeletionGracePeriodMs - 1);
    expect(c.queue.len()).toBe(0);
    clock.step(1);
    expect(c.queue.len()).toBe(1);
  });

  it("requeues remaining content after estimate/2+1 seconds; other errors go to the rate-limited retry", async () => {
    let err: Error = new ResourcesRemainingError(15);
    const { c, clock, namespaces, deleted } = setup(() => Promise.reject(err));
    namespaces.set(ns("held", true));
    clock.step(namespaceDeletionGracePeriodMs);
    const key = await c.queue.get();
    expect(key).toBe("held");
    await c.sync("held");
    c.queue.done("held");
    expect(deleted).toEqual(["held"]);
    expect(c.queue.len()).toBe(0);
    clock.step(7_999);
    expect(c.queue.len()).toBe(0);
    clock.step(1);
    expect(c.queue.len()).toBe(1);
    err = new Error("boom");
    await expect(c.sync("held")).rejects.toThrow("boom");
  });

  it("a namespace missing from the cache has been deleted: nothing to do", async () => {
    const { c, deleted } = setup();
    await c.sync("gone");
    expect(deleted).toEqual([]);
  });
});
