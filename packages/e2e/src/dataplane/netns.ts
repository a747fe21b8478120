/**
 * A "cluster network" of one or three nodes in network namespaces that this suite creates and
 * deletes itself (node i = 1..3, pod CIDR 10.244.<i-1>.0/24 and fd00:10:244:<i-1>::/64):
 *
 *   <p>-pod1 eth0 10.244.0.11 --+
 *   <p>-pod2 eth0 10.244.0.12 --+-- br0 10.244.0.1   [<p>-n1] eth0 10.250.0.1 --+
 *   <p>-pod3 eth0 10.244.1.11 ----- br0 10.244.1.1   [<p>-n2] eth0 10.250.0.2 --+-- br0 [<p>-net]
 *   <p>-pod4 eth0 10.244.2.11 ----- br0 10.244.2.1   [<p>-n3] eth0 10.250.0.3 --+
 *                                                    <p>-cli  eth0 10.250.0.100 -+
 *
 * (IPv6 the same under fd00:10:244:<i-1>:: and fd00:10:250::). The pods sit on their node's bridge
 * (cluster CIDR 10.244.0.0/16, fd00:10:244::/56); the nodes' IPs share one L2 segment, a bridge in
 * the `-net` namespace, and each node routes the other nodes' pod CIDRs via their node IPs (what a
 * CNI's host-gw mode does). The client sits on that segment outside the cluster CIDR, so its
 * ClusterIP traffic is masqueraded as a real off-cluster client's would be. No namespace has an
 * uplink, and the root namespace is never changed (veths are created inside the namespaces).
 */
import { spawnSync } from "node:child_process";

export interface IPPair {
  readonly v4: string;
  readonly v6: string;
}

/** `fd00:10:244::11` for node 0's pod CIDR, `fd00:10:244:1::11` for node 1's. */
const v6In = (prefix: string, i: number, host: string): string => (i === 0 ? `${prefix}::${host}` : `${prefix}:${i}::${host}`);
const podIP = (i: number, host: number): IPPair => ({ v4: `10.244.${i}.${host}`, v6: v6In("fd00:10:244", i, String(host)) });

export const pod1 = podIP(0, 11);
export const pod2 = podIP(0, 12);
/** Node n1's IPs (the node of the single-node tests). */
export const nodeIP: IPPair = { v4: "10.250.0.1", v6: "fd00:10:250::1" };
export const clientIP: IPPair = { v4: "10.250.0.100", v6: "fd00:10:250::100" };
export const clusterCIDRs = "10.244.0.0/16,fd00:10:244::/56";
export const serviceCIDRs = { v4: "10.96.0.0/16", v6: "fd00:10:96::/112" } as const;

/** One node: its namespace, its Node object's identity and its addresses. */
export interface NodeNet {
  readonly ns: string;
  /** The Node object's name (kube-proxy's --hostname-override). */
  readonly name: string;
  /** Its `topology.kubernetes.io/zone` label. */
  readonly zone: string;
  readonly ip: IPPair;
  /** br0's addresses: the pods' gateway. */
  readonly gateway: IPPair;
  readonly podCIDR: IPPair;
  readonly pods: readonly { readonly ns: string; readonly ip: IPPair }[];
}

export interface Topology {
  readonly nodes: readonly NodeNet[];
  /** n1's namespace. */
  readonly node: string;
  /** n1's two pods' namespaces. */
  readonly pods: readonly [string, string];
  readonly client: string;
  /** The namespace holding the nodes' shared segment. */
  readonly network: string;
  /** Every namespace of this topology, for cleanup. */
  readonly all: readonly string[];
}

/** Runs argv synchronously; throws with its stderr on a non-zero exit. */
export function sh(argv: readonly string[], input?: string): string {
  const [cmd, ...args] = argv;
  const r = spawnSync(cmd!, args, { encoding: "utf8", input, timeout: 30_000 });
  if (r.error !== undefined) throw r.error;
  if (r.status !== 0) throw new Error(`${argv.join(" ")} exited ${r.status}: ${r.stderr.trim()}`);
  return r.stdout;
}

/** Why this suite cannot run here (not root, tool missing, netns refused), or undefined. */
export function dataplaneUnavailableReason(): string | undefined {
  if (typeof process.getuid === "function" && process.getuid() !== 0) return "not running as root";
  for (const [tool, arg] of [
    ["ip", "-V"],
    ["iptables", "-V"],
    ["ip6tables", "-V"],
    ["iptables-restore", "--version"],
    ["nft", "--version"],
  ] as const) {
    const r = spawnSync(tool, [arg], { stdio: "ignore" });
    if (r.error !== undefined || r.status !== 0) return `${tool} is missing (Debian: apt-get install iproute2 iptables nftables)`;
  }
  const probe = `sn-dp-probe-${process.pid}`;
  const r = spawnSync("ip", ["netns", "add", probe], { encoding: "utf8" });
  if (r.status !== 0) return `ip netns add failed: ${r.stderr.trim()}`;
  spawnSync("ip", ["netns", "del", probe]);
  return undefined;
}

/** Node i (0-based) of the topology `prefix`: namespace `<prefix>-n<i+1>`, Node `dp-n<i+1>`, zone-a|b|c. */
function nodeNet(prefix: string, i: number): NodeNet {
  // n1 holds pod1 and pod2; every other node one pod, numbered on.
  const pods = i === 0 ? [1, 2] : [i + 2];
  return {
    ns: `${prefix}-n${i + 1}`,
    name: `dp-n${i + 1}`,
    zone: `zone-${"abc"[i]}`,
    ip: { v4: `10.250.0.${i + 1}`, v6: `fd00:10:250::${i + 1}` },
    gateway: podIP(i, 1),
    podCIDR: { v4: `10.244.${i}.0/24`, v6: v6In("fd00:10:244", i, "/64") },
    pods: pods.map((n, j) => ({ ns: `${prefix}-pod${n}`, ip: podIP(i, 11 + j) })),
  };
}

/** The namespace names for `prefix` with `nodeCount` nodes (1-3; nothing is created yet, so cleanup can start from these). */
export function topologyNames(prefix: string, nodeCount = 1): Topology {
  const nodes = Array.from({ length: nodeCount }, (_, i) => nodeNet(prefix, i));
  const n1 = nodes[0]!;
  const pods = [n1.pods[0]!.ns, n1.pods[1]!.ns] as const;
  const client = `${prefix}-cli`;
  const network = `${prefix}-net`;
  return { nodes, node: n1.ns, pods, client, network, all: [network, ...nodes.flatMap((n) => [n.ns, ...n.pods.map((p) => p.ns)]), client] };
}

/** `ip -n ns ...` */
const ipIn =
  (ns: string) =>
  (...a: string[]): string =>
    sh(["ip", "-n", ns, ...a]);

/** A veth from the segment bridge in `network` to `eth0` in `ns`, with addresses `ip`. */
function plugIntoSegment(network: string, port: string, ns: string, ip: IPPair, prefix4: number, prefix6: number): void {
  ipIn(network)("link", "add", port, "type", "veth", "peer", "name", "eth0", "netns", ns);
  ipIn(network)("link", "set", port, "master", "br0", "up");
  const x = ipIn(ns);
  x("addr", "add", `${ip.v4}/${prefix4}`, "dev", "eth0");
  x("-6", "addr", "add", `${ip.v6}/${prefix6}`, "dev", "eth0", "nodad");
  x("link", "set", "eth0", "up");
}

/** Node `node`'s bridge, its pods and its uplink, and routes to the other nodes' pods. */
function createNode(t: Topology, node: NodeNet): void {
  const n = ipIn(node.ns);
  n("link", "add", "br0", "type", "bridge");
  n("addr", "add", `${node.gateway.v4}/24`, "dev", "br0");
  n("-6", "addr", "add", `${node.gateway.v6}/64`, "dev", "br0", "nodad");
  n("link", "set", "br0", "up");
  node.pods.forEach((pod, i) => {
    const p = ipIn(pod.ns);
    n("link", "add", `vp${i + 1}`, "type", "veth", "peer", "name", "eth0", "netns", pod.ns);
    n("link", "set", `vp${i + 1}`, "master", "br0", "up");
    p("addr", "add", `${pod.ip.v4}/24`, "dev", "eth0");
    p("-6", "addr", "add", `${pod.ip.v6}/64`, "dev", "eth0", "nodad");
    p("link", "set", "eth0", "up");
    p("route", "add", "default", "via", node.gateway.v4);
    p("-6", "route", "add", "default", "via", node.gateway.v6);
  });
  plugIntoSegment(t.network, `s-${node.name}`, node.ns, node.ip, 24, 64);
  for (const other of t.nodes.filter((o) => o !== node)) {
    n("route", "add", other.podCIDR.v4, "via", other.ip.v4);
    n("-6", "route", "add", other.podCIDR.v6, "via", other.ip.v6);
  }
  // Locally generated packets are routed before nat OUTPUT runs, so the node needs some route
  // covering the Service CIDRs (a real node's default route does this).
  n("route", "add", serviceCIDRs.v4, "dev", "br0");
  n("-6", "route", "add", serviceCIDRs.v6, "dev", "br0");
  // What a CNI plugin / node setup does; kube-proxy itself does not enable forwarding. The ICMP
  // rate limits (1 error per second and destination by default) would turn the second REJECT in
  // a row into a silent drop, i.e. a timeout instead of "connection refused".
  sh([
    "ip",
    "netns",
    "exec",
    node.ns,
    "sysctl",
    "-q",
    "-w",
    "net.ipv4.ip_forward=1",
    "net.ipv6.conf.all.forwarding=1",
    "net.ipv4.icmp_ratelimit=0",
    "net.ipv6.icmp.ratelimit=0",
  ]);
}

/** Creates the namespaces, links, addresses and routes of `t`. */
export function createTopology(t: Topology): void {
  for (const ns of t.all) {
    sh(["ip", "netns", "add", ns]);
    sh(["ip", "-n", ns, "link", "set", "lo", "up"]);
  }
  ipIn(t.network)("link", "add", "br0", "type", "bridge");
  ipIn(t.network)("link", "set", "br0", "up");
  for (const node of t.nodes) createNode(t, node);
  plugIntoSegment(t.network, "s-cli", t.client, clientIP, 24, 64);
  // n1 is the client's gateway to the Service CIDRs, as a router in front of a cluster.
  const c = ipIn(t.client);
  c("route", "add", serviceCIDRs.v4, "via", nodeIP.v4);
  c("-6", "route", "add", serviceCIDRs.v6, "via", nodeIP.v6);
}

/** Deletes every namespace of the topology that still exists; never throws. */
export function deleteTopology(t: Pick<Topology, "all"> | undefined): string[] {
  const errors: string[] = [];
  for (const ns of t?.all ?? []) {
    const r = spawnSync("ip", ["netns", "del", ns], { encoding: "utf8" });
    if (r.status !== 0 && !/No such file/.test(r.stderr)) errors.push(`${ns}: ${r.stderr.trim()}`);
  }
  return errors;
}

/** Namespaces whose name starts with `prefix` (to prove cleanup). */
export function namespacesWithPrefix(prefix: string): string[] {
  return sh(["ip", "netns", "list"])
    .split("\n")
    .map((l) => l.split(" ")[0]!)
    .filter((n) => n.startsWith(prefix));
}
