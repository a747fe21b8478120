/**
 * The Nodes one kubelet process runs: for each, its InternalIPs (the hostIPs of its Pods and the
 * pod IPs of its hostNetwork Pods) and, once the Node has `spec.podCIDRs`, its host-local IPAM.
 * What a real kubelet learns about its own Node from the Node informer, for many Nodes.
 */
import type { Node } from "@servicenet/api";
import { HostLocalIPAM } from "../network/host-local.ts";

/** One Node of this process. */
export interface OwnedNode {
  name: string;
  /** InternalIPs in the Node's address order (primary family first). */
  hostIPs: string[];
  /** The podCIDRs the IPAM was built for ("" while the Node has none). */
  podCIDRs: string;
  ipam: HostLocalIPAM | undefined;
}

/** The Nodes of this process, by name. */
export class NodeSet {
  readonly #nodes = new Map<string, OwnedNode>();

  constructor(nodes: readonly { name: string; hostIPs: string[] }[]) {
    for (const n of nodes) this.#nodes.set(n.name, { name: n.name, hostIPs: n.hostIPs, podCIDRs: "", ipam: undefined });
  }

  get(name: string | undefined): OwnedNode | undefined {
    return name === undefined ? undefined : this.#nodes.get(name);
  }

  /** Forgets a Node: its Pods are no longer this process's. */
  remove(name: string): void {
    this.#nodes.delete(name);
  }

  names(): string[] {
    return [...this.#nodes.keys()];
  }

  get size(): number {
    return this.#nodes.size;
  }

  /**
   * Takes a Node from the informer; true when it is one of ours and its podCIDRs just became
   * known (its waiting Pods can start). podCIDRs are immutable once set, so the IPAM is built once.
   */
  observe(node: Node): boolean {
    const owned = this.get(node.metadata.name);
    if (owned === undefined) return false;
    const ips = (node.status?.addresses ?? []).filter((a) => a.type === "InternalIP").map((a) => a.address);
    if (ips.length > 0) owned.hostIPs = ips;
    const cidrs = node.spec.podCIDRs ?? (node.spec.podCIDR ? [node.spec.podCIDR] : []);
    if (cidrs.length === 0 || owned.podCIDRs !== "") return false;
    owned.podCIDRs = cidrs.join(",");
    owned.ipam = new HostLocalIPAM(cidrs);
    return true;
  }
}
