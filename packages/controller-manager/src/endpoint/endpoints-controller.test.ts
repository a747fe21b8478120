import { describe, expect, it } from "vitest";
import type { Endpoints, Pod, Service } from "@servicenet/api";
import { MemoryInformer } from "../framework/memory-informer.ts";
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

describe("EndpointsController", () => {
  it("creates Endpoints for a selected Service and deletes them once the Service is gone", async () => {
    const { c, calls, inf } = setup([makeService()], dualStackPods(2));
    await c.syncService("default/web");
    inf.services.remove("default/web");
    await c.syncService("default/web");
    expect(calls).toEqual(["create default/web", "delete default/web"]);
  });

  it("enqueues only Services whose selector matches the pod, old or new labels", async () => {
    const { c, inf } = setup([makeService({ name: "web" }), makeService({ name: "db", selector: { app: "db" } })], []);
    for (let i = c.queue.length; i > 0; i--) c.queue.done((await c.queue.get()).item!);
    inf.pods.set(makePod({ name: "x", ips: ["10.0.0.1"], labels: { app: "db" } }));
    expect((await c.queue.get()).item).toBe("default/db");
    expect(c.queue.length).toBe(0);
  });

  it("finds Endpoints left over from deleted Services, but not leader-election ones", () => {
    const leftover: Endpoints = { metadata: { name: "gone", namespace: "default" } };
    const leader: Endpoints = { metadata: { name: "kcm", namespace: "kube-system", annotations: { "control-plane.alpha.kubernetes.io/leader": "{}" } } };
    const { c } = setup([], [], [leftover, leader]);
    c.checkLeftoverEndpoints();
    expect(c.queue.length).toBe(1);
  });
});
