/**
 * A one-node "cluster network" in network namespaces that this suite creates and deletes itself:
 *
 *   <p>-pod1 eth0 10.244.0.11 fd00:10:244::11 --+
 *                                               +-- br0 10.244.0.1 fd00:10:244::1   [<p>-node]
 *   <p>-pod2 eth0 10.244.0.12 fd00:10:244::12 --+   eth0 10.250.0.1 fd00:10:250::1 --- <p>-cli eth0 10.250.0.2 fd00:10:250::2
 *
 * The pods sit on a bridge (cluster CIDR 10.244.0.0/16, fd00:10:244::/56); the client sits on the
 * node's "host network" 10.250.0.0/24 outside the cluster CIDR, so its ClusterIP traffic is
 * masqueraded as a real off-cluster client's would be. No namespace has an uplink, and the root
 * namespace is never changed (veths are created inside the node namespace).
 */
import { spawnSync } from "node:child_process";

export const pod1 = { v4: "10.244.0.11", v6: "fd00:10:244::11" } as const;
export const pod2 = { v4: "10.244.0.12", v6: "fd00:10:244::12" } as const;
export const nodeIP = { v4: "10.250.0.1", v6: "fd00:10:250::1" } as const;
export const clusterCIDRs = "10.244.0.0/16,fd00:10:244::/56";
export const serviceCIDRs = { v4: "10.96.0.0/16", v6: "fd00:10:96::/112" } as const;

export interface Topology {
  readonly node: string;
  readonly pods: readonly [string, string];
  readonly client: string;
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

/** The namespace names for `prefix` (nothing is created yet, so cleanup can start from these). */
export function topologyNames(prefix: string): Topology {
  const node = `${prefix}-node`;
  const pods = [`${prefix}-pod1`, `${prefix}-pod2`] as const;
  const client = `${prefix}-cli`;
  return { node, pods, client, all: [node, ...pods, client] };
}

/** Creates the namespaces, links, addresses and routes of `t`. */
export function createTopology(t: Topology): void {
  for (const ns of t.all) {
    sh(["ip", "netns", "add", ns]);
    sh(["ip", "-n", ns, "link", "set", "lo", "up"]);
  }
  const n = (...a: string[]) => sh(["ip", "-n", t.node, ...a]);
  n("link", "add", "br0", "type", "bridge");
  n("addr", "add", "10.244.0.1/24", "dev", "br0");
  n("-6", "addr", "add", "fd00:10:244::1/64", "dev", "br0", "nodad");
  n("link", "set", "br0", "up");
  [pod1, pod2].forEach((ip, i) => {
    const pod = t.pods[i]!;
    const p = (...a: string[]) => sh(["ip", "-n", pod, ...a]);
    n("link", "add", `vp${i + 1}`, "type", "veth", "peer", "name", "eth0", "netns", pod);
    n("link", "set", `vp${i + 1}`, "master", "br0", "up");
    p("addr", "add", `${ip.v4}/24`, "dev", "eth0");
    p("-6", "addr", "add", `${ip.v6}/64`, "dev", "eth0", "nodad");
    p("link", "set", "eth0", "up");
    p("route", "add", "default", "via", "10.244.0.1");
    p("-6", "route", "add", "default", "via", "fd00:10:244::1");
  });
  n("link", "add", "eth0", "type", "veth", "peer", "name", "eth0", "netns", t.client);
  n("addr", "add", `${nodeIP.v4}/24`, "dev", "eth0");
  n("-6", "addr", "add", `${nodeIP.v6}/64`, "dev", "eth0", "nodad");
  n("link", "set", "eth0", "up");
  const c = (...a: string[]) => sh(["ip", "-n", t.client, ...a]);
  c("addr", "add", "10.250.0.2/24", "dev", "eth0");
  c("-6", "addr", "add", "fd00:10:250::2/64", "dev", "eth0", "nodad");
  c("link", "set", "eth0", "up");
  // The node is the client's gateway to the Service CIDRs, as a router in front of a cluster.
  c("route", "add", serviceCIDRs.v4, "via", nodeIP.v4);
  c("-6", "route", "add", serviceCIDRs.v6, "via", nodeIP.v6);
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
    t.node,
    "sysctl",
    "-q",
    "-w",
    "net.ipv4.ip_forward=1",
    "net.ipv6.conf.all.forwarding=1",
    "net.ipv4.icmp_ratelimit=0",
    "net.ipv6.icmp.ratelimit=0",
  ]);
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
