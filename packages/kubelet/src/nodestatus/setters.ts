/**
 * The Node a simulated kubelet registers, as pkg/kubelet/kubelet_node_status.go `initialNode` and
 * pkg/kubelet/nodestatus setters (NodeAddress, MachineInfo, ReadyCondition) would report it for a
 * machine that does not exist: labels (hostname, os, arch, topology zone/region spread over the
 * zones), capacity and allocatable, one InternalIP per family plus the Hostname, and `Ready`.
 */
import { addIP, formatIP, parseIP } from "@servicenet/api/net";
import type { Node } from "@servicenet/api";

/** Options of a set of simulated Nodes. */
export interface SimulatedNodeOptions {
  /** Node names are `<prefix>-<index>`. */
  prefix: string;
  /** Zones the Nodes are spread over, round-robin (`topology.kubernetes.io/zone`). */
  zones: readonly string[];
  region: string;
  /** The first Node's InternalIPs (kubelet's --node-ip: one, or one per family); Node i has these + i. */
  nodeIPs: readonly string[];
  capacity: Readonly<Record<string, string>>;
  kubeletVersion: string;
}

export const defaultSimulatedNodeOptions: SimulatedNodeOptions = {
  prefix: "node",
  zones: ["zone-a", "zone-b", "zone-c"],
  region: "region-1",
  nodeIPs: ["172.18.0.2", "fc00:f853:ccd:e793::2"],
  capacity: { cpu: "32", memory: "131072Mi", pods: "110", "ephemeral-storage": "100Gi" },
  kubeletVersion: "v1.33.0",
};

/** The name of Node `index`. */
export function nodeName(o: SimulatedNodeOptions, index: number): string {
  return `${o.prefix}-${index}`;
}

/** The InternalIPs of Node `index`: the first Node's plus `index`, in --node-ip order. */
export function nodeIPs(o: SimulatedNodeOptions, index: number): string[] {
  return o.nodeIPs.map((first) => {
    const ip = parseIP(first);
    if (ip === null) throw new Error(`invalid node IP ${JSON.stringify(first)}`);
    return formatIP(addIP(ip, BigInt(index)));
  });
}

type NodeCondition = NonNullable<NonNullable<Node["status"]>["conditions"]>[number];

/** The `Ready=True` condition the kubelet reports while its runtime and network are up. */
export function readyCondition(now: string, since: string): NodeCondition {
  return {
    type: "Ready",
    status: "True",
    reason: "KubeletReady",
    message: "kubelet is posting ready status",
    lastHeartbeatTime: now,
    lastTransitionTime: since,
  };
}

// pkg/kubelet/nodestatus/setters.go MemoryPressureCondition, DiskPressureCondition and
// PIDPressureCondition while there is no pressure (a simulated Node has none).
const noPressure = [
  ["MemoryPressure", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"],
  ["DiskPressure", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"],
  ["PIDPressure", "KubeletHasSufficientPID", "kubelet has sufficient PID available"],
] as const;

/**
 * The conditions the setters report at `now`, in the kubelet's order (the three pressure
 * conditions, then Ready): every heartbeat is `now`; a condition whose status is unchanged from
 * `current` keeps its lastTransitionTime (the setters' rule), else it moves to `now`.
 */
export function nodeConditions(now: string, current: readonly NodeCondition[] = []): NodeCondition[] {
  const since = (type: string, status: string) => {
    const c = current.find((x) => x.type === type);
    return c !== undefined && c.status === status && c.lastTransitionTime ? c.lastTransitionTime : now;
  };
  return [
    ...noPressure.map(([type, reason, message]) => ({
      type,
      status: "False",
      reason,
      message,
      lastHeartbeatTime: now,
      lastTransitionTime: since(type, "False"),
    })),
    readyCondition(now, since("Ready", "True")),
  ];
}

/** The Node object registered for `index` (`initialNode` plus the first status). */
export function simulatedNode(o: SimulatedNodeOptions, index: number, now: string, name = nodeName(o, index)): Node {
  const zone = o.zones[index % o.zones.length] ?? "";
  return {
    apiVersion: "v1",
    kind: "Node",
    metadata: {
      name,
      labels: {
        "kubernetes.io/hostname": name,
        "kubernetes.io/os": "linux",
        "kubernetes.io/arch": "amd64",
        "beta.kubernetes.io/os": "linux",
        "beta.kubernetes.io/arch": "amd64",
        "topology.kubernetes.io/region": o.region,
        ...(zone !== "" ? { "topology.kubernetes.io/zone": zone } : {}),
        "node.servicenet.io/simulated": "true",
      },
      annotations: { "node.alpha.kubernetes.io/ttl": "0" },
    },
    spec: {},
    status: {
      capacity: { ...o.capacity },
      allocatable: { ...o.capacity },
      addresses: [...nodeIPs(o, index).map((address) => ({ type: "InternalIP", address })), { type: "Hostname", address: name }],
      conditions: nodeConditions(now),
      nodeInfo: {
        kubeletVersion: o.kubeletVersion,
        osImage: "servicenet simulated node",
        kernelVersion: "",
        containerRuntimeVersion: "simulated://1.0",
      },
    },
  };
}

/** KubeletConfiguration's nodeLeaseDurationSeconds default (pkg/kubelet/apis/config/v1beta1/defaults.go). */
export const defaultNodeLeaseDurationSeconds = 40;

/** The node Lease (`kube-node-lease/<name>`) the kubelet renews every 10 s (40 s duration). */
export function nodeLease(name: string, nodeUID: string, renewTime: string): Record<string, unknown> {
  return {
    apiVersion: "coordination.k8s.io/v1",
    kind: "Lease",
    metadata: {
      name,
      namespace: "kube-node-lease",
      ownerReferences: [{ apiVersion: "v1", kind: "Node", name, uid: nodeUID }],
    },
    spec: { holderIdentity: name, leaseDurationSeconds: defaultNodeLeaseDurationSeconds, renewTime },
  };
}
