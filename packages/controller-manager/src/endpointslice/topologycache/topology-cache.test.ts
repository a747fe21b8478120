/** staging/src/k8s.io/endpointslice/topologycache/topologycache_test.go: TestAddHints, TestSetNodes. */
import { describe, expect, it } from "vitest";
import type { EndpointSlice } from "@servicenet/api";
import * as msg from "./event.ts";
import type { EventBuilder } from "./event.ts";
import { ep, node, nodesWithCPU, slice } from "../../testing/topology.ts";
import { TopologyCache } from "./topology-cache.ts";

interface AddHintsCase {
  name: string;
  /** Milli-CPU per zone giving upstream's cpuRatiosByZone; null: no Node information. */
  cpu: Record<string, number> | null;
  toCreate: EndpointSlice[];
  toUpdate: EndpointSlice[];
  expectedEndpointsByAddrType: Record<string, Record<string, number>> | null;
  expectedSlicesToCreate: EndpointSlice[];
  expectedSlicesToUpdate: EndpointSlice[];
  expectedEvents: { eventType: string; reason: string; message: string }[];
}

const disabled = (message: string) => ({ eventType: "Warning", reason: "TopologyAwareHintsDisabled", message });
const enabled = { eventType: "Normal", reason: "TopologyAwareHintsEnabled", message: msg.topologyAwareHintsEnabled };

const addHintsCases: AddHintsCase[] = [
  {
    name: "empty",
    cpu: null,
    toCreate: [],
    toUpdate: [],
    expectedEndpointsByAddrType: null,
    expectedSlicesToCreate: [],
    expectedSlicesToUpdate: [],
    expectedEvents: [disabled(msg.insufficientNodeInfo)],
  },
  {
    name: "slice to create, no zone ratios",
    cpu: null,
    toCreate: [slice(ep("10.1.2.3", "zone-a", true))],
    toUpdate: [],
    expectedEndpointsByAddrType: null,
    expectedSlicesToCreate: [slice(ep("10.1.2.3", "zone-a", true))],
    expectedSlicesToUpdate: [],
    expectedEvents: [disabled(msg.insufficientNodeInfo)],
  },
  {
    name: "slice to create with 2 endpoints, zone ratios require 3",
    cpu: { "zone-a": 300, "zone-b": 400, "zone-c": 300 },
    toCreate: [slice(ep("10.1.2.3", "zone-a", true), ep("10.1.2.4", "zone-b", true))],
    toUpdate: [],
    expectedEndpointsByAddrType: null,
    expectedSlicesToCreate: [slice(ep("10.1.2.3", "zone-a", true), ep("10.1.2.4", "zone-b", true))],
    expectedSlicesToUpdate: [],
    expectedEvents: [disabled(msg.insufficientNumberOfEndpoints)],
  },
  {
    name: "slice to create with 2 endpoints, zone ratios only require 2",
    cpu: { "zone-a": 450, "zone-b": 550 },
    toCreate: [slice(ep("10.1.2.3", "zone-a", true), ep("10.1.2.4", "zone-b", true))],
    toUpdate: [],
    expectedEndpointsByAddrType: { IPv4: { "zone-a": 1, "zone-b": 1 } },
    expectedSlicesToCreate: [slice(ep("10.1.2.3", "zone-a", true, ["zone-a"]), ep("10.1.2.4", "zone-b", true, ["zone-b"]))],
    expectedSlicesToUpdate: [],
    expectedEvents: [enabled],
  },
  {
    name: "slice to create with 2 ready, 1 unready, 1 unknown endpoints, zone ratios only require 2",
    cpu: { "zone-a": 450, "zone-b": 550 },
    toCreate: [
      slice(
        ep("10.1.2.3", "zone-a", true),
        ep("10.1.2.4", "zone-b", true),
        ep("10.1.2.5", "zone-b", false),
        ep("10.1.2.6", "zone-b", undefined),
      ),
    ],
    toUpdate: [],
    expectedEndpointsByAddrType: { IPv4: { "zone-a": 1, "zone-b": 1 } },
    expectedSlicesToCreate: [
      slice(
        ep("10.1.2.3", "zone-a", true, ["zone-a"]),
        ep("10.1.2.4", "zone-b", true, ["zone-b"]),
        ep("10.1.2.5", "zone-b", false),
        ep("10.1.2.6", "zone-b", undefined),
      ),
    ],
    expectedSlicesToUpdate: [],
    expectedEvents: [enabled],
  },
  {
    name: "slices to create and update within 3 zone threshold",
    cpu: { "zone-a": 350, "zone-b": 350, "zone-c": 300 },
    toCreate: [
      slice(ep("10.1.2.3", "zone-a", true), ep("10.1.2.4", "zone-b", true)),
      slice(ep("10.1.3.3", "zone-c", true), ep("10.1.3.4", "zone-c", true), ep("10.1.3.4", "zone-a", true)),
    ],
    toUpdate: [
      slice(ep("10.2.2.3", "zone-a", true), ep("10.2.2.4", "zone-a", true)),
      slice(ep("10.2.3.3", "zone-b", true), ep("10.2.3.4", "zone-c", true), ep("10.2.3.4", "zone-a", true)),
    ],
    expectedEndpointsByAddrType: { IPv4: { "zone-a": 4, "zone-b": 3, "zone-c": 3 } },
    expectedSlicesToCreate: [
      slice(ep("10.1.2.3", "zone-a", true, ["zone-b"]), ep("10.1.2.4", "zone-b", true, ["zone-b"])),
      slice(
        ep("10.1.3.3", "zone-c", true, ["zone-c"]),
        ep("10.1.3.4", "zone-c", true, ["zone-c"]),
        ep("10.1.3.4", "zone-a", true, ["zone-a"]),
      ),
    ],
    expectedSlicesToUpdate: [
      slice(ep("10.2.2.3", "zone-a", true, ["zone-a"]), ep("10.2.2.4", "zone-a", true, ["zone-a"])),
      slice(
        ep("10.2.3.3", "zone-b", true, ["zone-b"]),
        ep("10.2.3.4", "zone-c", true, ["zone-c"]),
        ep("10.2.3.4", "zone-a", true, ["zone-a"]),
      ),
    ],
    expectedEvents: [enabled],
  },
];

/** `compareExpectedEvents`: type and reason equal, the message starts with the expected one. */
function compareExpectedEvents(expected: AddHintsCase["expectedEvents"], events: readonly EventBuilder[]): void {
  expect(events.length).toBe(expected.length);
  events.forEach((e, i) => {
    const want = expected[i]!;
    expect([e.eventType, e.reason]).toEqual([want.eventType, want.reason]);
    expect(want.message).not.toBe("");
    expect(e.message.startsWith(want.message), `${e.message} starts with ${want.message}`).toBe(true);
  });
}

describe("TestAddHints", () => {
  it.each(addHintsCases.map((c) => [c.name, c] as const))("%s", (_name, tc) => {
    const cache = new TopologyCache();
    if (tc.cpu !== null) cache.setNodes(nodesWithCPU(tc.cpu));
    const r = cache.addHints({ serviceKey: "ns/svc", addressType: "IPv4", toCreate: tc.toCreate, toUpdate: tc.toUpdate, unchanged: [] });
    expect(r.toCreate).toEqual(tc.expectedSlicesToCreate);
    expect(r.toUpdate).toEqual(tc.expectedSlicesToUpdate);
    compareExpectedEvents(tc.expectedEvents, r.events);
    const info = cache.endpointZoneInfo("ns/svc");
    if (tc.expectedEndpointsByAddrType === null) expect(info).toBeUndefined();
    else {
      const got = Object.fromEntries([...(info ?? new Map())].map(([t, z]) => [t, Object.fromEntries(z)]));
      expect(got).toEqual(tc.expectedEndpointsByAddrType);
    }
  });

  it("the events carry the address type (FormatWithAddressType)", () => {
    const cache = new TopologyCache();
    const r = cache.addHints({ serviceKey: "ns/svc", addressType: "IPv6", toCreate: [], toUpdate: [], unchanged: [] });
    expect(r.events[0]?.message).toBe(`${msg.insufficientNodeInfo}, addressType: IPv6`);
  });

  it("an unchanged slice with hints is copied, cleared and updated when hints are removed; the original is untouched", () => {
    const cache = new TopologyCache();
    const original = slice(ep("10.1.2.3", "zone-a", true, ["zone-a"]));
    const snapshot = structuredClone(original);
    const r = cache.addHints({ serviceKey: "ns/svc", addressType: "IPv4", toCreate: [], toUpdate: [], unchanged: [original] });
    expect(r.toUpdate).toEqual([slice(ep("10.1.2.3", "zone-a", true))]);
    expect(original).toEqual(snapshot);
  });
});

interface SetNodesCase {
  name: string;
  nodes: ReturnType<typeof node>[];
  expectSufficientNodeInfo: boolean;
  expectedCPUByZone: Record<string, number> | null;
  expectedRatios: Record<string, number> | null;
}

const cp = { "node-role.kubernetes.io/control-plane": "" };
const setNodesCases: SetNodesCase[] = [
  { name: "empty", nodes: [], expectSufficientNodeInfo: false, expectedCPUByZone: null, expectedRatios: null },
  {
    name: "single node",
    nodes: [node("zone-a", "1000m", "True")],
    expectSufficientNodeInfo: false,
    expectedCPUByZone: null,
    expectedRatios: null,
  },
  {
    name: "single zone",
    nodes: [node("zone-a", "1000m", "True"), node("zone-a", "1000m", "True")],
    expectSufficientNodeInfo: false,
    expectedCPUByZone: null,
    expectedRatios: null,
  },
  {
    name: "2 zones",
    nodes: [node("zone-a", "1000m", "True"), node("zone-b", "1000m", "True")],
    expectSufficientNodeInfo: true,
    expectedCPUByZone: { "zone-a": 1000, "zone-b": 1000 },
    expectedRatios: { "zone-a": 0.5, "zone-b": 0.5 },
  },
  {
    name: "2 zones, unready node in 1, ready node in 1",
    nodes: [node("zone-a", "1000m", "False"), node("zone-b", "1000m", "True")],
    expectSufficientNodeInfo: false,
    expectedCPUByZone: null,
    expectedRatios: null,
  },
  {
    name: "2 zones, control plane node in 1, ready node in 1",
    nodes: [node("zone-a", "1000m", "True"), node("zone-b", "1000m", "True", cp)],
    expectSufficientNodeInfo: false,
    expectedCPUByZone: null,
    expectedRatios: null,
  },
  {
    name: "2 zones, unready node in 1, ready node in 2",
    nodes: [node("zone-a", "1000m", "True"), node("zone-b", "1000m", "True"), node("zone-b", "1000m", "False")],
    expectSufficientNodeInfo: true,
    expectedCPUByZone: { "zone-a": 1000, "zone-b": 1000 },
    expectedRatios: { "zone-a": 0.5, "zone-b": 0.5 },
  },
  {
    name: "2 zones, control plane node in 1, ready node in 2",
    nodes: [node("zone-a", "1000m", "True"), node("zone-b", "1000m", "True"), node("zone-b", "1000m", "True", cp)],
    expectSufficientNodeInfo: true,
    expectedCPUByZone: { "zone-a": 1000, "zone-b": 1000 },
    expectedRatios: { "zone-a": 0.5, "zone-b": 0.5 },
  },
  {
    name: "3 zones, 4 nodes in 1, 2 nodes in 1, 1 node in 1",
    nodes: [
      node("zone-a", "1000m", "True"),
      node("zone-a", "1000m", "True"),
      node("zone-a", "1000m", "True"),
      node("zone-a", "2000m", "True"),
      node("zone-b", "3000m", "True"),
      node("zone-b", "1500m", "True"),
      node("zone-c", "500m", "True"),
    ],
    expectSufficientNodeInfo: true,
    expectedCPUByZone: { "zone-a": 5000, "zone-b": 4500, "zone-c": 500 },
    expectedRatios: { "zone-a": 0.5, "zone-b": 0.45, "zone-c": 0.05 },
  },
];

describe("TestSetNodes", () => {
  it.each(setNodesCases.map((c) => [c.name, c] as const))("%s", (_name, tc) => {
    const cache = new TopologyCache();
    cache.setNodes(tc.nodes);
    expect(cache.sufficientNodeInfo).toBe(tc.expectSufficientNodeInfo);
    const ratios = cache.cpuRatiosByZone;
    expect(ratios === null ? null : Object.fromEntries(ratios)).toEqual(tc.expectedRatios);
    const cpu = cache.cpuByZone;
    expect(cpu === null ? null : Object.fromEntries(cpu)).toEqual(tc.expectedCPUByZone);
  });

  it("a Node without a zone or without CPU makes the information insufficient", () => {
    const cache = new TopologyCache();
    cache.setNodes([node("zone-a", "1", "True"), node("zone-b", "1", "True"), node("", "1", "True")]);
    expect(cache.sufficientNodeInfo).toBe(false);
    cache.setNodes([node("zone-a", "1", "True"), node("zone-b", "0", "True")]);
    expect(cache.cpuRatiosByZone).toBeNull();
  });
});
