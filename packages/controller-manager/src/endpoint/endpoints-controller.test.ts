import { describe, expect, it } from "vitest";
import type { Endpoints, Pod, Service } from "@servicenet/api";
import { MemoryInformer } from "@servicenet/client/tools/cache";
import { dualStackPods, makePod, makeService } from "../testing/fixtures.ts";
import { EndpointsController, type EndpointsClient } from "./endpoints-controller.ts";

function setup(services: Service[], pods: Pod[], endpoints: Endpoints[] = []) {
  const calls: string[] = [];
  const client: EndpointsClient = {
    create: async (ns, ep) => (calls.push(`create ${ns}/${ep.metadata.name}`), ep),
    update: async (ns, ep) => (calls.push(`update ${ns}/${ep.metadata.name}`), ep),
    delete: async (ns, name) => void calls.push(`delete ${ns}/${name}`),
  };
  const inf = { services: new MemoryInformer(services), pods: new MemoryInformer(pods), endpoints: new MemoryInformer(endpoints) };
  return { calls, inf, c: new EndpointsController({ ...inf, client }) };
}

/** The 403 NamespaceLifecycle answers for a create in a terminating namespace, as client-node reports it. */
const terminatingNamespaceError = () =>
  Object.assign(new Error("Forbidden"), {
    code: 403,
    body: JSON.stringify({
      kind: "Status",
      reason: "Forbidden",
      code: 403,
      message: 'endpoints "web" is forbidden: unable to create new content in namespace default because it is being terminated',
      details: {
        name: "web",
        kind: "endpoints",
        causes: [{ reason: "NamespaceTerminating", message: "namespace default is being terminated", field: "metadata.namespace" }],
      },
    }),
  });

describe("EndpointsController", () => {
  it("drops a Service whose namespace is terminating (upstream: creates will keep failing); other 403s are errors", async () => {
    const inf = {
      services: new MemoryInformer([makeService()]),
      pods: new MemoryInformer(dualStackPods(2)),
      endpoints: new MemoryInformer<Endpoints>(),
    };
    const failing = (err: () => Error): EndpointsClient => ({
      create: () => Promise.reject(err()),
      update: async (_ns, ep) => ep,
      delete: async () => {},
    });
    await expect(
      new EndpointsController({ ...inf, client: failing(terminatingNamespaceError) }).syncService("default/web"),
    ).resolves.toBeUndefined();
    const forbidden = () =>
      Object.assign(new Error("Forbidden"), {
        code: 403,
        body: JSON.stringify({ kind: "Status", reason: "Forbidden", code: 403, message: "no" }),
      });
    await expect(new EndpointsController({ ...inf, client: failing(forbidden) }).syncService("default/web")).rejects.toThrow("Forbidden");
  });

  it("creates Endpoints for a selected Service and deletes them once the Service is gone", async () => {
    const { c, calls, inf } = setup([makeService()], dualStackPods(2));
    await c.syncService("default/web");
    inf.services.remove("default/web");
    await c.syncService("default/web");
    expect(calls).toEqual(["create default/web", "delete default/web"]);
  });

  it("a sync that outruns the watch builds on our own last write: no second create, no stale update", async () => {
    const calls: string[] = [];
    let rv = 10;
    const client: EndpointsClient = {
      create: async (_ns, ep) => (
        calls.push(`create rv=${ep.metadata.resourceVersion ?? ""}`),
        { ...ep, metadata: { ...ep.metadata, resourceVersion: String(++rv) } }
      ),
      update: async (_ns, ep) => (
        calls.push(`update rv=${ep.metadata.resourceVersion}`),
        { ...ep, metadata: { ...ep.metadata, resourceVersion: String(++rv) } }
      ),
      delete: async () => {},
    };
    const inf = {
      services: new MemoryInformer([makeService({ families: ["IPv4"] })]),
      pods: new MemoryInformer(dualStackPods(2)),
      endpoints: new MemoryInformer<Endpoints>(),
    };
    const c = new EndpointsController({ ...inf, client });
    await c.syncService("default/web");
    inf.pods.set(dualStackPods(3)[2]!);
    await c.syncService("default/web"); // the cache has not seen the create (rv 11)
    inf.pods.set({ ...dualStackPods(4)[3]! });
    await c.syncService("default/web"); // nor the update (rv 12)
    expect(calls).toEqual(["create rv=", "update rv=11", "update rv=12"]);
    // Once the cache holds a newer object (someone else's write), it wins again.
    inf.endpoints.set({
      apiVersion: "v1",
      kind: "Endpoints",
      metadata: { name: "web", namespace: "default", resourceVersion: "20" },
      subsets: [],
    });
    await c.syncService("default/web");
    expect(calls.at(-1)).toBe("update rv=20");
  });

  it("the trigger-time annotation only counts the Service's own pods", async () => {
    const written: Endpoints[] = [];
    const client: EndpointsClient = {
      create: async (_n, ep) => (written.push(ep), ep),
      update: async (_n, ep) => (written.push(ep), ep),
      delete: async () => {},
    };
    const inf = {
      services: new MemoryInformer([makeService({ families: ["IPv4"] })]),
      pods: new MemoryInformer(dualStackPods(1)),
      endpoints: new MemoryInformer<Endpoints>(),
    };
    const c = new EndpointsController({ ...inf, client });
    await c.syncService("default/web");
    expect(written.at(-1)?.metadata.annotations?.["endpoints.kubernetes.io/last-change-trigger-time"]).toBe("2026-01-01T00:00:00Z"); // the Service's creation
    inf.pods.set(makePod({ name: "db-0", ips: ["10.0.0.9"], labels: { app: "db" }, readyTransition: "2026-01-01T00:00:45Z" }));
    inf.pods.set(makePod({ name: "web-9", ips: ["10.0.0.10"], readyTransition: "2026-01-01T00:01:00Z" }));
    await c.syncService("default/web");
    expect(written.at(-1)?.metadata.annotations?.["endpoints.kubernetes.io/last-change-trigger-time"]).toBe("2026-01-01T00:01:00Z");
  });

  it("enqueues only Services whose selector matches the pod, old or new labels", async () => {
    const { c, inf } = setup([makeService({ name: "web" }), makeService({ name: "db", selector: { app: "db" } })], []);
    for (let i = c.queue.len(); i > 0; i--) c.queue.done((await c.queue.get())!);
    inf.pods.set(makePod({ name: "x", ips: ["10.0.0.1"], labels: { app: "db" } }));
    expect(await c.queue.get()).toBe("default/db");
    expect(c.queue.len()).toBe(0);
  });

  it("finds Endpoints left over from deleted Services, but not leader-election ones", () => {
    const leftover: Endpoints = { metadata: { name: "gone", namespace: "default" } };
    const leader: Endpoints = {
      metadata: { name: "kcm", namespace: "kube-system", annotations: { "control-plane.alpha.kubernetes.io/leader": "{}" } },
    };
    const { c } = setup([], [], [leftover, leader]);
    c.checkLeftoverEndpoints();
    expect(c.queue.len()).toBe(1);
  });
});
