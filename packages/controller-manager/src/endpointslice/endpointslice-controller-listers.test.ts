import type { EndpointSlice, Node, Pod, Service } from "@servicenet/api";
import { MemoryInformer } from "@servicenet/client/tools/cache";
import { describe, expect, it } from "vitest";
import { dualStackPods, makeService } from "../testing/fixtures.ts";
import { keysQueuedBy, NoScanInformer } from "../testing/no-scan-informer.ts";
import { EndpointSliceController, type EndpointSliceClient } from "./endpointslice-controller.ts";

// Upstream reads pods, Services and slices through listers of one namespace
// (syncService: podLister.Pods(ns).List(selector); GetPodServiceMemberships: serviceLister.Services(pod.Namespace)).
describe("EndpointSliceController listers", () => {
  function setup() {
    const services = new NoScanInformer<Service>([makeService(), makeService({ namespace: "other" })]);
    const pods = new NoScanInformer<Pod>([...dualStackPods(2), ...dualStackPods(3, { namespace: "other" })]);
    const slices = new NoScanInformer<EndpointSlice>();
    const created: EndpointSlice[] = [];
    const client: EndpointSliceClient = {
      create: async (ns, s) => (created.push(s), { ...s, metadata: { ...s.metadata, namespace: ns, name: `x${created.length}` } }),
      update: async (_ns, s) => s,
      delete: async () => undefined,
    };
    const c = new EndpointSliceController({ services, pods, slices, client });
    return { c, pods, created };
  }

  it("syncs a Service from its namespace's pods and slices only", async () => {
    const { c, created } = setup();
    await c.syncService("default/web");
    // Two families, two pods each: the three pods of the same selector in "other" are not ours.
    expect(created.map((s) => s.endpoints.length)).toEqual([2, 2]);
  });

  it("enqueues only the Services of the changed pod's namespace", async () => {
    const { c, pods } = setup();
    const [pod] = dualStackPods(1, { namespace: "other" });
    const keys = await keysQueuedBy(c.queue, () => pods.set({ ...pod!, metadata: { ...pod!.metadata, resourceVersion: "2" } }));
    expect(keys).toEqual(["other/web"]);
  });

  it("reads a Pod's Node through the node lister's Get, and a Node update scans no Pods (upstream updateNode)", async () => {
    const services = new NoScanInformer<Service>([makeService()]);
    const pods = new NoScanInformer<Pod>(dualStackPods(2).map((p) => ({ ...p, spec: { ...p.spec, nodeName: "node-a" } })));
    const nodes = new MemoryInformer<Node>([{ metadata: { name: "node-a", resourceVersion: "1" }, spec: {} }]);
    const created: EndpointSlice[] = [];
    const client: EndpointSliceClient = {
      create: async (ns, s) => (created.push(s), { ...s, metadata: { ...s.metadata, namespace: ns, name: `x${created.length}` } }),
      update: async (_ns, s) => s,
      delete: async () => undefined,
    };
    const c = new EndpointSliceController({ services, pods, slices: new NoScanInformer<EndpointSlice>(), nodes, client });
    let nodeLists = 0;
    const list = nodes.list.bind(nodes);
    nodes.list = () => (nodeLists++, list());
    await c.syncService("default/web");
    expect(created.map((s) => s.endpoints.map((e) => e.nodeName))).toEqual([
      ["node-a", "node-a"],
      ["node-a", "node-a"],
    ]);
    expect(nodeLists).toBe(0);
    // A status or label change of a Node that stays as ready and in the same zone changes no endpoint.
    const keys = await keysQueuedBy(c.queue, () =>
      nodes.set({ metadata: { name: "node-a", resourceVersion: "2", labels: { role: "web" } }, spec: {} }),
    );
    expect(keys).toEqual([]);
  });
});
