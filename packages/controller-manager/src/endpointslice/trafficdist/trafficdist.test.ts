/** staging/src/k8s.io/endpointslice/trafficdist/trafficdist_test.go: TestReconcileHints, plus 1.33's PreferSameNode. */
import type { EndpointSlice, EndpointSliceEndpoint } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import { reconcileHints } from "./trafficdist.ts";

/** An endpoint on node-N in `zone`; `hints`: hinted zones (and nodes when given). */
function ep(n: number, zone: string, ready: boolean, hints?: { zones?: string[]; nodes?: string[] }): EndpointSliceEndpoint {
  return {
    addresses: [`10.0.0.${n}`],
    zone,
    nodeName: `node-${n}`,
    conditions: { ready },
    ...(hints !== undefined
      ? {
          hints: {
            ...(hints.zones ? { forZones: hints.zones.map((name) => ({ name })) } : {}),
            ...(hints.nodes ? { forNodes: hints.nodes.map((name) => ({ name })) } : {}),
          },
        }
      : {}),
  };
}
const slice = (...endpoints: EndpointSliceEndpoint[]): EndpointSlice => ({ metadata: {}, addressType: "IPv4", endpoints });
const z = (zone: string) => ({ zones: [zone] });

interface Case {
  name: string;
  trafficDistribution: string | undefined;
  slicesToCreate?: EndpointSlice[];
  slicesToUpdate?: EndpointSlice[];
  slicesUnchanged?: EndpointSlice[];
  wantSlicesToCreate?: EndpointSlice[];
  wantSlicesToUpdate?: EndpointSlice[];
  wantSlicesUnchanged?: EndpointSlice[];
}

const cases: Case[] = [
  {
    name: "should set zone hints with PreferClose",
    trafficDistribution: "PreferClose",
    slicesToCreate: [slice(ep(1, "zone-a", true), ep(2, "zone-b", true)), slice(ep(3, "zone-a", true), ep(4, "zone-b", true))],
    slicesToUpdate: [slice(ep(5, "zone-a", true), ep(6, "zone-a", true)), slice(ep(7, "zone-b", true), ep(8, "zone-c", true))],
    wantSlicesToCreate: [
      slice(ep(1, "zone-a", true, z("zone-a")), ep(2, "zone-b", true, z("zone-b"))),
      slice(ep(3, "zone-a", true, z("zone-a")), ep(4, "zone-b", true, z("zone-b"))),
    ],
    wantSlicesToUpdate: [
      slice(ep(5, "zone-a", true, z("zone-a")), ep(6, "zone-a", true, z("zone-a"))),
      slice(ep(7, "zone-b", true, z("zone-b")), ep(8, "zone-c", true, z("zone-c"))),
    ],
  },
  {
    name: "should correct incorrect hints with PreferClose",
    trafficDistribution: "PreferClose",
    slicesToUpdate: [slice(ep(1, "zone-a", true, z("zone-b")))],
    slicesUnchanged: [slice(ep(2, "zone-b", true, z("zone-c"))), slice(ep(3, "zone-c", true))],
    wantSlicesToUpdate: [
      slice(ep(1, "zone-a", true, z("zone-a"))),
      slice(ep(2, "zone-b", true, z("zone-b"))),
      slice(ep(3, "zone-c", true, z("zone-c"))),
    ],
  },
  {
    name: "unready endpoints should not trigger updates",
    trafficDistribution: "PreferClose",
    slicesUnchanged: [slice(ep(2, "zone-b", false))],
    wantSlicesUnchanged: [slice(ep(2, "zone-b", false))],
  },
  {
    name: "should remove hints when trafficDistribution is unrecognized",
    trafficDistribution: "Unknown",
    slicesToCreate: [
      slice(ep(1, "zone-a", true, z("zone-a")), ep(2, "zone-b", true, z("zone-b"))),
      slice(ep(3, "zone-a", true, z("zone-a"))),
    ],
    slicesToUpdate: [slice(ep(5, "zone-a", true, z("zone-a")))],
    wantSlicesToCreate: [slice(ep(1, "zone-a", true), ep(2, "zone-b", true)), slice(ep(3, "zone-a", true))],
    wantSlicesToUpdate: [slice(ep(5, "zone-a", true))],
  },
  {
    name: "should remove hints when trafficDistribution is unset",
    trafficDistribution: undefined,
    slicesToUpdate: [slice(ep(5, "zone-a", true, z("zone-a")))],
    slicesUnchanged: [slice(ep(6, "zone-b", true, z("zone-b")))],
    wantSlicesToUpdate: [slice(ep(5, "zone-a", true)), slice(ep(6, "zone-b", true))],
  },
  // Kubernetes 1.33 (PreferSameTrafficDistribution): node hints as well.
  {
    name: "PreferSameNode sets zone and node hints",
    trafficDistribution: "PreferSameNode",
    slicesToCreate: [slice(ep(1, "zone-a", true), ep(2, "zone-b", false))],
    slicesUnchanged: [slice(ep(3, "zone-a", true, z("zone-a")))],
    wantSlicesToCreate: [slice(ep(1, "zone-a", true, { zones: ["zone-a"], nodes: ["node-1"] }), ep(2, "zone-b", false))],
    wantSlicesToUpdate: [slice(ep(3, "zone-a", true, { zones: ["zone-a"], nodes: ["node-3"] }))],
  },
  {
    name: "PreferSameZone drops stale node hints",
    trafficDistribution: "PreferSameZone",
    slicesUnchanged: [slice(ep(1, "zone-a", true, { zones: ["zone-a"], nodes: ["node-1"] }))],
    wantSlicesToUpdate: [slice(ep(1, "zone-a", true, z("zone-a")))],
  },
];

describe("TestReconcileHints", () => {
  it.each(cases.map((c) => [c.name, c] as const))("%s", (_name, tc) => {
    const got = reconcileHints(tc.trafficDistribution, tc.slicesToCreate ?? [], tc.slicesToUpdate ?? [], tc.slicesUnchanged ?? []);
    expect(got.toCreate).toEqual(tc.wantSlicesToCreate ?? []);
    expect(got.toUpdate).toEqual(tc.wantSlicesToUpdate ?? []);
    expect(got.unchanged).toEqual(tc.wantSlicesUnchanged ?? []);
  });

  it("TestReconcileHints_doesNotMutateUnchangedSlices", () => {
    const original = slice(ep(1, "zone-a", true));
    const cloned = structuredClone(original);
    reconcileHints("PreferClose", [], [], [original]);
    expect(original).toEqual(cloned);
  });
});
