/**
 * Topology hints through both proxiers, both families: the Cluster chain of a
 * Service whose slices carry `forZones` hints holds only this node's zone, the
 * zone comes from this Node's label, and a label change re-renders every chain.
 */
import type { Node } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import { populate } from "../proxy/populate.ts";
import { shapeSlices } from "../testing/service-shapes.ts";
import { makeTestService } from "../testing/fixtures.ts";
import { testNodeName } from "../testing/upstream-services.ts";
import { newDualStackIptablesProxier, newDualStackNftablesProxier } from "./dual-stack.ts";

const svc = makeTestService("ns", "web", (s) => {
  s.spec.clusterIP = "172.30.0.41";
  s.spec.clusterIPs = ["172.30.0.41", "fd00:172:30::41"];
  s.spec.ipFamilies = ["IPv4", "IPv6"];
  s.spec.ports = [{ name: "p80", port: 80, protocol: "TCP" }];
});
const hinted = shapeSlices("web", [
  { n: 1, zone: "zone-a" },
  { n: 2, zone: "zone-b" },
  { n: 3, zone: "zone-a" },
]);
const node = (zone: string | undefined): Node => ({
  metadata: { name: testNodeName, labels: zone === undefined ? {} : { "topology.kubernetes.io/zone": zone } },
  spec: {},
});

/** The endpoint hosts (last address group) DNATed to in a rule set. */
function targets(data: string): string[] {
  const out = new Set<string>();
  for (const m of data.matchAll(/(?:--to-destination|dnat to) (?:10\.180\.0\.(\d+)|\[fd00:10:180::(\d+)\])/g)) out.add(m[1] ?? m[2] ?? "");
  return [...out].sort();
}

const backends = [
  ["iptables", () => newDualStackIptablesProxier({ ipv4: { nodeName: testNodeName }, ipv6: { nodeName: testNodeName } })],
  ["nftables", () => newDualStackNftablesProxier({ ipv4: { nodeName: testNodeName }, ipv6: { nodeName: testNodeName } })],
] as const;

describe.each(backends)("%s topology hints", (_name, make) => {
  it("keeps the node's zone, per family, and follows a zone label change with a full sync", () => {
    const d = make();
    d.meta.onNodeAdd(node("zone-a"));
    populate(d.meta, [svc], hinted);
    for (const p of [d.ipv4, d.ipv6]) expect(targets(p.syncProxyRules()?.data ?? "")).toEqual(["1", "3"]);
    d.meta.onNodeUpdate(node("zone-a"), node("zone-b"));
    for (const p of [d.ipv4, d.ipv6]) {
      const r = p.syncProxyRules();
      expect(r?.full).toBe(true);
      expect(targets(r?.data ?? "")).toEqual(["2"]);
    }
  });

  it("uses every endpoint when the node has no zone label or an endpoint lacks hints", () => {
    const d = make();
    d.meta.onNodeAdd(node(undefined));
    populate(d.meta, [svc], hinted);
    expect(targets(d.ipv4.syncProxyRules()?.data ?? "")).toEqual(["1", "2", "3"]);
    const e = make();
    e.meta.onNodeAdd(node("zone-a"));
    populate(e.meta, [svc], shapeSlices("web", [{ n: 1, zone: "zone-a" }, { n: 2 }]));
    expect(targets(e.ipv6.syncProxyRules()?.data ?? "")).toEqual(["1", "2"]);
  });
});
