/**
 * The fixed part of the kube-proxy table (upstream's setupNFTables, in the
 * order of the `baseRules` fixture of TestOverallNFTablesRules).
 */
import type { IPFamily } from "@servicenet/api";
import { kubeProxyTable, maps, nftFamily, sets } from "./names.ts";
import { isLoopbackIP } from "../util/nodeport-addresses.ts";

export interface BaseRulesOptions {
  readonly family: IPFamily;
  /** Masquerade mark, "0x4000". */
  readonly mark: string;
  /** Service CIDRs of this family, for the drop of unallocated ClusterIPs. */
  readonly serviceCIDRs: readonly string[];
  /** Local addresses that accept NodePorts (`nodeport-ips`); undefined: every local address but loopback. */
  readonly nodePortIPs: readonly string[] | undefined;
}

/** `add ...` lines creating the table's sets, maps, base chains and fixed rules. */
export function baseRules(o: BaseRulesOptions): string[] {
  const f = nftFamily(o.family);
  const t = `${f.table} ${kubeProxyTable}`;
  const svcKey = `${f.addrType} . inet_proto . inet_service : verdict`;
  const npKey = "inet_proto . inet_service : verdict";
  const L: string[] = [
    `add set ${t} ${sets.clusterIPs} { type ${f.addrType} ; comment "Active ClusterIPs" ; }`,
    `add set ${t} ${sets.nodePortIPs} { type ${f.addrType} ; comment "IPs that accept NodePort traffic" ; }`,
    `add map ${t} ${maps.firewallIPs} { type ${svcKey} ; comment "destinations that are subject to LoadBalancerSourceRanges" ; }`,
    `add map ${t} ${maps.noEndpointNodePorts} { type ${npKey} ; comment "vmap to drop or reject packets to service nodeports with no endpoints" ; }`,
    `add map ${t} ${maps.noEndpointServices} { type ${svcKey} ; comment "vmap to drop or reject packets to services with no endpoints" ; }`,
    `add map ${t} ${maps.serviceIPs} { type ${svcKey} ; comment "ClusterIP, ExternalIP and LoadBalancer IP traffic" ; }`,
    `add map ${t} ${maps.serviceNodePorts} { type ${npKey} ; comment "NodePort traffic" ; }`,
  ];
  for (const c of [
    "cluster-ips-check",
    "filter-prerouting-pre-dnat { type filter hook prerouting priority -110 ; }",
    "filter-output-pre-dnat { type filter hook output priority -110 ; }",
    "filter-forward { type filter hook forward priority 0 ; }",
    "filter-input { type filter hook input priority 0 ; }",
    "filter-output { type filter hook output priority 0 ; }",
    "firewall-check",
    "mark-for-masquerade",
    "masquerading",
    "nat-output { type nat hook output priority -100 ; }",
    "nat-postrouting { type nat hook postrouting priority 100 ; }",
    "nat-prerouting { type nat hook prerouting priority -100 ; }",
    "nodeport-endpoints-check",
    'reject-chain { comment "helper for @no-endpoint-services / @no-endpoint-nodeports" ; }',
    "services",
    "service-endpoints-check",
  ]) {
    L.push(`add chain ${t} ${c}`);
  }
  const r = (chain: string, rule: string) => L.push(`add rule ${t} ${chain} ${rule}`);
  r("cluster-ips-check", `${f.ip} daddr @${sets.clusterIPs} reject comment "Reject traffic to invalid ports of ClusterIPs"`);
  if (o.serviceCIDRs.length > 0) {
    r("cluster-ips-check", `${f.ip} daddr { ${o.serviceCIDRs.join(", ")} } drop comment "Drop traffic to unallocated ClusterIPs"`);
  }
  r("filter-prerouting-pre-dnat", "ct state new jump firewall-check");
  r("filter-forward", "ct state new jump service-endpoints-check");
  r("filter-forward", "ct state new jump cluster-ips-check");
  r("filter-input", "ct state new jump nodeport-endpoints-check");
  r("filter-input", "ct state new jump service-endpoints-check");
  r("filter-output", "ct state new jump service-endpoints-check");
  r("filter-output-pre-dnat", "ct state new jump firewall-check");
  r("filter-output", "ct state new jump cluster-ips-check");
  r("firewall-check", `${f.ip} daddr . meta l4proto . th dport vmap @${maps.firewallIPs}`);
  r("mark-for-masquerade", `mark set mark or ${o.mark}`);
  r("masquerading", `mark and ${o.mark} == 0 return`);
  r("masquerading", `mark set mark xor ${o.mark}`);
  r("masquerading", "masquerade fully-random");
  r("nat-output", "jump services");
  r("nat-postrouting", "jump masquerading");
  r("nat-prerouting", "jump services");
  // --nodeport-addresses: NodePorts on @nodeport-ips, or (matching all) on every local non-loopback address.
  const nodePortMatch =
    o.nodePortIPs !== undefined
      ? `${f.ip} daddr @${sets.nodePortIPs}`
      : `fib daddr type local ${f.ip} daddr != ${o.family === "IPv4" ? "127.0.0.0/8" : "::1"}`;
  r("nodeport-endpoints-check", `${nodePortMatch} meta l4proto . th dport vmap @${maps.noEndpointNodePorts}`);
  r("reject-chain", "reject");
  r("services", `${f.ip} daddr . meta l4proto . th dport vmap @${maps.serviceIPs}`);
  r("services", `${nodePortMatch} meta l4proto . th dport vmap @${maps.serviceNodePorts}`);
  // setupNFTables: the set exists only while NodePorts are restricted (add + delete removes it whether or not it exists).
  if (o.nodePortIPs === undefined) L.push(`delete set ${t} ${sets.nodePortIPs}`);
  // Localhost NodePorts never work with nftables (upstream logs each loopback address and skips it).
  for (const ip of o.nodePortIPs ?? []) if (!isLoopbackIP(ip)) L.push(`add element ${t} ${sets.nodePortIPs} { ${ip} }`);
  r("service-endpoints-check", `${f.ip} daddr . meta l4proto . th dport vmap @${maps.noEndpointServices}`);
  return L;
}
