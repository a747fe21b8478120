import type { Endpoints, Pod, Service } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import { dualStackPods, makeService } from "../testing/fixtures.ts";
import { keysQueuedBy, NoScanInformer } from "../testing/no-scan-informer.ts";
import { EndpointsController, type EndpointsClient } from "./endpoints-controller.ts";

// Upstream's syncService reads podLister.Pods(service.Namespace).List(selector), and
// GetPodServiceMemberships serviceLister.Services(pod.Namespace): one namespace, never the cache.
describe("EndpointsController listers", () => {
  function setup() {
    const written: Endpoints[] = [];
    const client: EndpointsClient = {
      create: async (_ns, ep) => (written.push(ep), ep),
      update: async (_ns, ep) => (written.push(ep), ep),
      delete: async () => undefined,
    };
    const services = new NoScanInformer<Service>([makeService(), makeService({ namespace: "other" })]);
    const pods = new NoScanInformer<Pod>([...dualStackPods(2), ...dualStackPods(3, { namespace: "other" })]);
    const c = new EndpointsController({ services, pods, endpoints: new NoScanInformer<Endpoints>(), client });
    return { c, pods, written };
  }

  it("builds a Service's Endpoints from its namespace's pods only", async () => {
    const { c, written } = setup();
    await c.syncService("default/web");
    expect(written.map((e) => e.subsets?.[0]?.addresses?.length)).toEqual([2]);
  });

  it("enqueues only the Services of the changed pod's namespace", async () => {
    const { c, pods } = setup();
    const [pod] = dualStackPods(1, { namespace: "other" });
    const keys = await keysQueuedBy(c.queue, () => pods.set({ ...pod!, metadata: { ...pod!.metadata, resourceVersion: "2" } }));
    expect(keys).toEqual(["other/web"]);
  });
});
