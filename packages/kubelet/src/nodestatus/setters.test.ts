import { describe, expect, it } from "vitest";
import { defaultSimulatedNodeOptions as o, nodeIPs, nodeLease, simulatedNode } from "./setters.ts";

describe("simulatedNode", () => {
  const now = "2026-01-01T00:00:00Z";

  it("spreads the Nodes over the zones round-robin, with one InternalIP per family", () => {
    const zones = [0, 1, 2, 3].map((i) => simulatedNode(o, i, now).metadata.labels?.["topology.kubernetes.io/zone"]);
    expect(zones).toEqual(["zone-a", "zone-b", "zone-c", "zone-a"]);
    const n = simulatedNode(o, 1, now);
    expect(n.metadata.name).toBe("node-1");
    expect(n.status?.addresses).toEqual([
      { type: "InternalIP", address: "172.18.0.3" },
      { type: "InternalIP", address: "fc00:f853:ccd:e793::3" },
      { type: "Hostname", address: "node-1" },
    ]);
    expect(n.status?.conditions?.map((c) => c.type)).toEqual(["MemoryPressure", "DiskPressure", "PIDPressure", "Ready"]);
    expect(n.status?.conditions?.[3]).toMatchObject({ type: "Ready", status: "True", reason: "KubeletReady" });
  });

  it("orders the addresses as --node-ip (IPv6 primary), Node i at the first Node's IPs + i", () => {
    expect(nodeIPs({ ...o, nodeIPs: ["fd00::2", "10.0.0.2"] }, 0)).toEqual(["fd00::2", "10.0.0.2"]);
    expect(nodeIPs({ ...o, nodeIPs: ["fd00::2", "10.0.0.255"] }, 1)).toEqual(["fd00::3", "10.0.1.0"]);
  });

  it("writes the node Lease kube-node-lease/<name>, owned by the Node", () => {
    expect(nodeLease("node-0", "u1", now)).toMatchObject({
      metadata: { name: "node-0", namespace: "kube-node-lease", ownerReferences: [{ kind: "Node", name: "node-0", uid: "u1" }] },
      spec: { holderIdentity: "node-0", leaseDurationSeconds: 40, renewTime: now },
    });
  });
});
