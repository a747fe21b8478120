/**
 * Chains, affinity sets and map elements of one service port in the nftables
 * layout (syncProxyRules' loop body in pkg/proxy/nftables/proxier.go).
 */
import type { Endpoint } from "../proxy/endpoint.ts";
import { externallyAccessible, usesClusterEndpoints, usesLocalEndpoints } from "../proxy/service-port.ts";
import type { ServicePortInfo } from "../proxy/service-port.ts";
import { categorizeEndpoints } from "../proxy/topology.ts";
import type { TopologyContext } from "../proxy/topology.ts";
import type { Element } from "./element-storage.ts";
import { maps, sets } from "./names.ts";
import type { LocalTrafficDetector } from "../util/local-detector.ts";

export interface NftChain {
  readonly name: string;
  readonly rules: string[];
}

export interface ServiceObjects {
  /** `add set` bodies (name and definition) of the ClientIP affinity sets. */
  readonly affinitySets: { name: string; def: string }[];
  /** Chain names in creation order: endpoint chains first, so that jumps resolve. */
  readonly chainOrder: string[];
  /** Chains in rule-writing order: service chains, then endpoint chains. */
  readonly chains: NftChain[];
  readonly elements: Element[];
  /** Endpoints exist, but none local for the Local internal / external policy. */
  readonly noLocalInternal: boolean;
  readonly noLocalExternal: boolean;
}

export interface NftServiceContext {
  /** "ip" or "ip6". */
  readonly ip: string;
  readonly addrType: string;
  /** `--detect-local-mode`'s detector (no-op: neither pod-traffic rule is written). */
  readonly localDetector: LocalTrafficDetector;
  readonly masqueradeAll: boolean;
  readonly nodeIPs: readonly string[];
  /** Base name (hash-ns/svc/proto/port) of the service's chains. */
  readonly base: string;
  readonly endpointBase: (ep: Endpoint) => string;
  readonly cidrContains: (cidr: string, ip: string) => boolean;
  readonly topology: TopologyContext;
}

/** Everything one service port contributes to the table. */
export function serviceObjects(ctx: NftServiceContext, svc: ServicePortInfo, all: readonly Endpoint[]): ServiceObjects {
  const categorized = categorizeEndpoints(all, svc, ctx.topology);
  const { allReachableEndpoints, hasAnyEndpoints } = categorized;
  const clusterEndpoints = categorized.clusterEndpoints ?? [];
  const localEndpoints = categorized.localEndpoints ?? [];
  const proto = svc.protocol.toLowerCase();
  const spn = svc.nameString;
  const cluster = `service-${ctx.base}`;
  const local = `local-${ctx.base}`;
  const external = `external-${ctx.base}`;
  const firewall = `firewall-${ctx.base}`;
  const accessible = externallyAccessible(svc);
  // pkg/proxy/nftables/proxier.go syncProxyRules: usesClusterPolicyChain / usesLocalPolicyChain.
  const usesCluster = clusterEndpoints.length > 0 && usesClusterEndpoints(svc);
  const usesLocal = localEndpoints.length > 0 && usesLocalEndpoints(svc);
  const internalChain = svc.internalPolicyLocal ? local : cluster;
  const hasInternal = hasAnyEndpoints && (!svc.internalPolicyLocal || localEndpoints.length > 0);
  const externalPolicyChain = svc.externalPolicyLocal ? local : cluster;
  const hasExternal = hasAnyEndpoints && (!svc.externalPolicyLocal || localEndpoints.length > 0);
  const usesExternal = hasAnyEndpoints && accessible;
  const usesFW = hasAnyEndpoints && svc.loadBalancerVIPs.length > 0 && svc.loadBalancerSourceRanges.length > 0;
  const target = hasAnyEndpoints ? "drop" : "goto reject-chain";
  const noEp = ` comment "${spn}" : ${target}`;

  const elements: Element[] = [{ set: sets.clusterIPs, key: svc.clusterIP, rest: "" }];
  const svcKey = (ip: string) => `${ip} . ${proto} . ${svc.port}`;
  if (hasInternal) elements.push({ set: maps.serviceIPs, key: svcKey(svc.clusterIP), rest: ` : goto ${internalChain}` });
  else elements.push({ set: maps.noEndpointServices, key: svcKey(svc.clusterIP), rest: noEp });
  for (const ip of [...svc.externalIPs, ...svc.loadBalancerVIPs]) {
    if (hasAnyEndpoints) elements.push({ set: maps.serviceIPs, key: svcKey(ip), rest: ` : goto ${external}` });
    if (!hasExternal) elements.push({ set: maps.noEndpointServices, key: svcKey(ip), rest: noEp });
  }
  if (usesFW) for (const ip of svc.loadBalancerVIPs) elements.push({ set: maps.firewallIPs, key: svcKey(ip), rest: ` : goto ${firewall}` });
  if (svc.nodePort !== 0) {
    const key = `${proto} . ${svc.nodePort}`;
    if (hasAnyEndpoints) elements.push({ set: maps.serviceNodePorts, key, rest: ` : goto ${external}` });
    if (!hasExternal) elements.push({ set: maps.noEndpointNodePorts, key, rest: noEp });
  }

  const epChains = allReachableEndpoints.map((ep) => endpointChain(ctx, svc, ep, proto));
  const chains: NftChain[] = epChains.map((e) => e.chain);
  const masq = hasInternal ? internalMasqueradeRule(ctx, svc) : undefined;
  const policyChain = (name: string, eps: readonly Endpoint[]): NftChain => {
    const rules = name === internalChain && masq !== undefined ? [masq] : [];
    rules.push(...serviceToEndpointRules(ctx, svc, eps));
    return { name, rules };
  };
  if (usesCluster) chains.push(policyChain(cluster, clusterEndpoints));
  if (usesLocal) chains.push(policyChain(local, localEndpoints));
  if (usesExternal) chains.push({ name: external, rules: externalRules(ctx, svc, cluster, hasExternal ? externalPolicyChain : "") });
  if (usesFW) chains.push({ name: firewall, rules: [firewallRule(ctx, svc)] });
  const affinitySets = svc.sessionAffinityClientIP
    ? epChains.map((e) => ({
        name: e.affinity,
        def: `{ type ${ctx.addrType} ; flags dynamic,timeout ; timeout ${svc.stickyMaxAgeSeconds}s ; }`,
      }))
    : [];
  return {
    affinitySets,
    chainOrder: chains.map((c) => c.name),
    chains: reorder(chains, epChains.length),
    elements,
    noLocalInternal: hasAnyEndpoints && !hasInternal,
    noLocalExternal: hasAnyEndpoints && !hasExternal,
  };
}

/** Endpoint chains are created first but their rules follow the service chains', as upstream writes them. */
function reorder(chains: NftChain[], nEndpoints: number): NftChain[] {
  return [...chains.slice(nEndpoints), ...chains.slice(0, nEndpoints)];
}

function internalMasqueradeRule(ctx: NftServiceContext, svc: ServicePortInfo): string | undefined {
  if (ctx.masqueradeAll) return `${ctx.ip} daddr ${svc.clusterIP} jump mark-for-masquerade`;
  if (ctx.localDetector.isImplemented)
    return `${ctx.ip} daddr ${svc.clusterIP} ${ctx.localDetector.ifNotLocalNFT} jump mark-for-masquerade`;
  return undefined;
}

function serviceToEndpointRules(ctx: NftServiceContext, svc: ServicePortInfo, eps: readonly Endpoint[]): string[] {
  const rules: string[] = [];
  if (svc.sessionAffinityClientIP) {
    for (const ep of eps) {
      const b = ctx.endpointBase(ep);
      rules.push(`${ctx.ip} saddr @affinity-${b} goto endpoint-${b}`);
    }
  }
  const vmap = eps.map((ep, i) => `${i} : goto endpoint-${ctx.endpointBase(ep)}`).join(" , ");
  rules.push(`numgen random mod ${eps.length} vmap { ${vmap} }`);
  return rules;
}

function externalRules(ctx: NftServiceContext, svc: ServicePortInfo, cluster: string, policyChain: string): string[] {
  const rules: string[] = [];
  if (!svc.externalPolicyLocal) {
    rules.push("jump mark-for-masquerade");
  } else {
    // Pods and the node itself bypass the Local policy, as if they went out and came back in.
    if (ctx.localDetector.isImplemented) rules.push(`${ctx.localDetector.ifLocalNFT} goto ${cluster} comment "short-circuit pod traffic"`);
    rules.push('fib saddr type local jump mark-for-masquerade comment "masquerade local traffic"');
    rules.push(`fib saddr type local goto ${cluster} comment "short-circuit local traffic"`);
  }
  if (policyChain !== "") rules.push(`goto ${policyChain}`);
  return rules;
}

function firewallRule(ctx: NftServiceContext, svc: ServicePortInfo): string {
  const sources = [...svc.loadBalancerSourceRanges];
  // A node reaching its own VIP loops back with the VIP as source address.
  if (svc.loadBalancerSourceRanges.some((c) => ctx.nodeIPs.some((ip) => ctx.cidrContains(c, ip)))) sources.push(...svc.loadBalancerVIPs);
  return `${ctx.ip} saddr != { ${sources.join(", ")} } drop`;
}

function endpointChain(ctx: NftServiceContext, svc: ServicePortInfo, ep: Endpoint, proto: string): { chain: NftChain; affinity: string } {
  const b = ctx.endpointBase(ep);
  const rules = [`${ctx.ip} saddr ${ep.ip} jump mark-for-masquerade`];
  if (svc.sessionAffinityClientIP) rules.push(`update @affinity-${b} { ${ctx.ip} saddr }`);
  rules.push(`meta l4proto ${proto} dnat to ${ep.endpoint}`);
  return { chain: { name: `endpoint-${b}`, rules }, affinity: `affinity-${b}` };
}
