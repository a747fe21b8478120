import { afterEach, describe, expect, it } from "vitest";
import { createStore, type KubeObject, type Store } from "../storage/index.ts";
import { newRESTStorage, type RESTStorage } from "./rest-storage.ts";
import { resourceTable } from "./resources.ts";

/**
 * The memory store, counting reads of namespace keys; its watches deliver every event 300 ms late,
 * like another apiserver's cache that has not caught up yet.
 */
async function countingStore(): Promise<{ store: Store; namespaceGets: () => number }> {
  const inner = await createStore({ backend: "memory" });
  let gets = 0;
  const store = new Proxy(inner, {
    get(target, prop, receiver) {
      if (prop === "get") {
        return (key: string, opts?: object) => {
          if (key.startsWith("/registry/namespaces/")) gets++;
          return target.get(key, opts as never);
        };
      }
      if (prop === "watch") {
        return (key: string, opts: object) => ({
          async *[Symbol.asyncIterator]() {
            for await (const ev of target.watch(key, opts)) {
              await tick(300);
              yield ev;
            }
          },
        });
      }
      const v = Reflect.get(target, prop, receiver) as unknown;
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  return { store, namespaceGets: () => gets };
}

const ns = (name: string, finalizers?: string[]): KubeObject => ({
  apiVersion: "v1",
  kind: "Namespace",
  metadata: { name, ...(finalizers ? { finalizers } : {}) },
});
const ep = (name: string): KubeObject => ({ apiVersion: "v1", kind: "Endpoints", metadata: { name } });
const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("NamespaceLifecycle admission on create", () => {
  let registry: RESTStorage | undefined;
  afterEach(() => registry?.stop());

  const setup = async () => {
    const s = await countingStore();
    registry = newRESTStorage(s.store, resourceTable);
    const namespaces = registry.stores.get("namespaces")!;
    const endpoints = registry.stores.get("services/endpoints")!;
    return { ...s, namespaces, endpoints };
  };

  it("reads a namespace the cache has not seen yet from storage, then from the cache", async () => {
    const { namespaces, endpoints, namespaceGets } = await setup();
    await namespaces.create(undefined, ns("fresh"));
    // First create: the cache is not even started yet, so storage answers.
    await endpoints.create("fresh", ep("a"));
    expect(namespaceGets()).toBe(1);
    await tick(400);
    for (let i = 0; i < 5; i++) await endpoints.create("fresh", ep(`b${i}`));
    expect(namespaceGets()).toBe(1);
  });

  it("refuses at once a create in a namespace just deleted, though the cache still has it", async () => {
    const { namespaces, endpoints } = await setup();
    await namespaces.create(undefined, ns("gone"));
    await endpoints.create("gone", ep("a"));
    await tick(400);
    // The DELETE only marks it Terminating (upstream's namespace registry): new content is Forbidden...
    await namespaces.delete(undefined, "gone");
    await expect(endpoints.create("gone", ep("b"))).rejects.toMatchObject({ code: 403, reason: "Forbidden" });
    // ...and once the namespace controller has finalized it, the namespace is gone: NotFound.
    await namespaces.update(undefined, "gone", async (cur) => ({ ...cur!, spec: { finalizers: [] } }), { subresource: "finalize" });
    await expect(endpoints.create("gone", ep("c"))).rejects.toMatchObject({ code: 404, reason: "NotFound" });
  });

  it("refuses at once a create in a namespace just marked Terminating", async () => {
    const { namespaces, endpoints } = await setup();
    await namespaces.create(undefined, ns("held", ["example.com/keep"]));
    await endpoints.create("held", ep("a"));
    await tick(400);
    await namespaces.delete(undefined, "held");
    await expect(endpoints.create("held", ep("b"))).rejects.toMatchObject({ code: 403, reason: "Forbidden" });
    await expect(endpoints.create("held", ep("c"))).rejects.toThrow(
      "unable to create new content in namespace held because it is being terminated",
    );
  });

  it("answers 404 for a namespace that never existed", async () => {
    const { endpoints } = await setup();
    await expect(endpoints.create("nope", ep("a"))).rejects.toMatchObject({ code: 404 });
  });
});
