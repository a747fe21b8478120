// The cluster `npm start` (scripts/up.mjs) runs beside the apiserver: the controller-manager's node
// IPAM range and the simulated Nodes' addresses for the `--mode` (the cluster's IP families, primary
// first), and how many Nodes (`--nodes`, default 3, spread over zones a/b/c). kind's defaults:
// Pods from 10.244.0.0/16 and fd00:10:244::/56 (a /24 and a /64 per Node), Nodes on 172.18.0.0/16
// and fc00:f853:ccd:e793::/64. Those ranges hold 256 Nodes; for more, the Nodes' blocks get smaller
// (--node-cidr-mask-size-ipv4/-ipv6, as an operator would set them): 1,000 Nodes get a /26 and a /66.

const clusterCIDRs = { IPv4: "10.244.0.0/16", IPv6: "fd00:10:244::/56" };
const firstNodeIPs = { IPv4: "172.18.0.2", IPv6: "fc00:f853:ccd:e793::2" };
const families = { v4: ["IPv4"], v6: ["IPv6"], v4v6: ["IPv4", "IPv6"], v6v4: ["IPv6", "IPv4"] };

/**
 * Takes `--nodes N` out of up.mjs's argv (the rest goes to `servicenet up`) and returns the
 * controller-manager's node IPAM flags and the kubelet's flags for the argv's `--mode` (default
 * v4v6). Throws (a usage error) for a bad `--nodes`; a bad `--mode` is `servicenet up`'s to report.
 */
export function clusterArgs(args) {
  const rest = [];
  let nodes = "3";
  let mode = "v4v6";
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--nodes" && i + 1 < args.length) nodes = args[++i];
    else if (a.startsWith("--nodes=")) nodes = a.slice("--nodes=".length);
    else {
      if (a === "--mode" && i + 1 < args.length) mode = args[i + 1];
      else if (a.startsWith("--mode=")) mode = a.slice("--mode=".length);
      rest.push(a);
    }
  }
  if (!/^\d+$/.test(nodes)) throw new Error(`--nodes must be a number of simulated Nodes (0 for none), got ${JSON.stringify(nodes)}`);
  const fams = families[mode] ?? families.v4v6;
  // Bits of Node index beyond the 8 the default blocks leave (nodeipam's CIDRNotAvailable otherwise).
  const extra = Math.max(0, Math.ceil(Math.log2(Math.max(1, Number(nodes)))) - 8);
  const mask = { IPv4: 24 + extra, IPv6: 64 + extra };
  // The per-family flags are for dual-stack clusters only (nodeipam's setNodeCIDRMaskSizes).
  const masks =
    extra === 0
      ? []
      : fams.length === 1
        ? ["--node-cidr-mask-size", String(mask[fams[0]])]
        : ["--node-cidr-mask-size-ipv4", String(mask.IPv4), "--node-cidr-mask-size-ipv6", String(mask.IPv6)];
  return {
    upArgs: rest,
    nodes: Number(nodes),
    controllerManagerArgs: ["--allocate-node-cidrs", "--cluster-cidr", fams.map((f) => clusterCIDRs[f]).join(","), ...masks],
    kubeletArgs: ["--nodes", nodes, "--node-ip", fams.map((f) => firstNodeIPs[f]).join(",")],
  };
}
