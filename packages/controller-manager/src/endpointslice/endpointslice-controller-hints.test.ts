/**
 * Topology hints through the controller: trafficDistribution PreferClose, the
 * topology-mode Auto annotation with the topology cache fed by Node events,
 * and the Events recorded on the Service (upstream's reconciler and
 * endpointslice_controller checkNodeTopologyDistribution).
 */
import type { EndpointSlice, Node, Pod, Service } from "@servicenet/api";
import { MemoryInformer } from "@servicenet/client/tools/cache";
import { FakeRecorder } from "@servicenet/client/tools/record";
import { describe, expect, it } from "vitest";
import { dualStackPods, makeService } from "../testing/fixtures.ts";
import { EndpointSliceController, type EndpointSliceClient } from "./endpointslice-controller.ts";
import { node } from "../testing/topology.ts";

const zones = ["zone-a", "zone-b", "zone-c"];
function nodeNamed(i: number, ready: "True" | "False" = "True", zone = zones[i]!): Node {
  const n = node(zone, "2", ready);
  return { ...n, metadata: { ...n.metadata, name: `node-${i}` } };
}

function setup(svc: Service, withNodes = true) {
  const services = new MemoryInformer<Service>([svc]);
  // Six pods, two per zone.
  const pods = new MemoryInformer<Pod>(dualStackPods(6).map((p, i) => ({ ...p, spec: { ...p.spec, nodeName: `node-${i % 3}` } })));
  // Without zones, the Nodes exist (pods are not held back) but say nothing about topology.
  const nodes = new MemoryInformer<Node>([0, 1, 2].map((i) => (withNodes ? nodeNamed(i) : nodeNamed(i, "True", ""))));
  const slices = new MemoryInformer<EndpointSlice>();
  const server = new Map<string, EndpointSlice>();
  let n = 0;
  const client: EndpointSliceClient = {
    async create(ns, s) {
      const created = {
        ...s,
        metadata: { ...s.metadata, name: `${s.metadata.generateName}${++n}`, namespace: ns, resourceVersion: String(n) },
      };
      server.set(created.metadata.name, created);
      return created;
    },
    async update(ns, s) {
      const updated = { ...s, metadata: { ...s.metadata, namespace: ns, resourceVersion: String(++n) } };
      server.set(s.metadata.name!, updated);
      return updated;
    },
    async delete(_ns, name) {
      server.delete(name);
    },
  };
  const recorder = new FakeRecorder();
  const c = new EndpointSliceController({ services, pods, slices, nodes, client, recorder });
  const sync = async () => {
    await c.syncService("default/web");
    for (const s of server.values()) slices.set(s);
  };
  /** Zone hints per endpoint address of the IPv4 slice. */
  const hints = () => {
    const out: Record<string, string[] | undefined> = {};
    for (const s of server.values()) {
      if (s.addressType !== "IPv4") continue;
      for (const ep of s.endpoints) out[ep.addresses[0]!] = ep.hints?.forZones?.map((z) => z.name);
    }
    return out;
  };
  return { c, services, nodes, recorder, sync, hints };
}

describe("EndpointSlice controller hints", () => {
  it("trafficDistribution PreferClose hints each endpoint for its own zone; unset removes them", async () => {
    const svc = makeService();
    svc.spec.trafficDistribution = "PreferClose";
    const t = setup(svc);
    await t.sync();
    expect(t.hints()).toEqual({
      "10.244.0.1": ["zone-a"],
      "10.244.0.2": ["zone-b"],
      "10.244.0.3": ["zone-c"],
      "10.244.0.4": ["zone-a"],
      "10.244.0.5": ["zone-b"],
      "10.244.0.6": ["zone-c"],
    });
    const plain = makeService();
    t.services.set(plain);
    await t.sync();
    expect(Object.values(t.hints()).every((h) => h === undefined)).toBe(true);
    expect(t.recorder.events).toEqual([]);
  });

  it("topology-mode Auto: hints and TopologyAwareHintsEnabled once Nodes are known; removed with an event when Node information becomes insufficient", async () => {
    const svc = makeService();
    svc.metadata.annotations = { "service.kubernetes.io/topology-mode": "Auto" };
    const t = setup(svc, false);
    // Nodes without zones: the cache knows no topology.
    await t.sync();
    expect(Object.values(t.hints()).every((h) => h === undefined)).toBe(true);
    expect(t.recorder.events[0]).toMatch(/^Warning TopologyAwareHintsDisabled Insufficient Node information/);
    t.recorder.events.length = 0;
    for (const i of [0, 1, 2]) t.nodes.set(nodeNamed(i));
    await t.sync();
    expect(t.hints()).toEqual({
      "10.244.0.1": ["zone-a"],
      "10.244.0.2": ["zone-b"],
      "10.244.0.3": ["zone-c"],
      "10.244.0.4": ["zone-a"],
      "10.244.0.5": ["zone-b"],
      "10.244.0.6": ["zone-c"],
    });
    // One event per Service: the cache tracks "hints populated" per Service, not per address type.
    expect(t.recorder.events).toEqual(["Normal TopologyAwareHintsEnabled Topology Aware Hints has been enabled, addressType: IPv4"]);
    t.recorder.events.length = 0;
    t.services.set(makeService());
    await t.sync();
    expect(Object.values(t.hints()).every((h) => h === undefined)).toBe(true);
    expect(t.recorder.events).toEqual(["Warning TopologyAwareHintsDisabled Topology Aware Hints has been disabled, addressType: IPv4"]);
  });

  it("a Node turning NotReady leaves a hinted Service overloaded: it is requeued", async () => {
    const svc = makeService();
    svc.metadata.annotations = { "service.kubernetes.io/topology-aware-hints": "auto" };
    const t = setup(svc);
    await t.sync();
    expect(t.c.topologyCache?.hasPopulatedHints("default/web")).toBe(true);
    while (t.c.queue.len() > 0) {
      const k = await t.c.queue.get();
      if (k !== undefined) t.c.queue.done(k);
    }
    t.nodes.set(nodeNamed(2, "False"));
    expect(Object.fromEntries(t.c.topologyCache?.cpuRatiosByZone ?? [])).toEqual({ "zone-a": 0.5, "zone-b": 0.5 });
    expect(t.c.queue.len()).toBe(1);
    expect(await t.c.queue.get()).toBe("default/web");
  });
});
