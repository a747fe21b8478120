/**
 * Rules of one service port, in upstream's write order (syncProxyRules' loop body).
 * KUBE-SERVICES/KUBE-NODEPORTS/filter rules always go to the real buffers; the
 * SVC/SVL/EXT/FW/SEP chains go to `svcChains`/`svcRules`, which the proxier
 * points at a discard buffer for unchanged services in a partial sync.
 */
import type { Endpoint } from "../proxy/endpoint.ts";
import { externallyAccessible, usesClusterEndpoints, usesLocalEndpoints } from "../proxy/service-port.ts";
import type { ServicePortInfo } from "../proxy/service-port.ts";
import { categorizeEndpoints } from "../proxy/topology.ts";
import type { TopologyContext } from "../proxy/topology.ts";
import { chainLine, chains, probability } from "./names.ts";
import type { ServiceChainNames } from "./names.ts";
import type { LocalTrafficDetector } from "../util/local-detector.ts";

export interface ServiceWriteContext {
  readonly filterRules: string[];
  readonly natRules: string[];
  readonly svcChains: string[];
  readonly svcRules: string[];
  readonly activeNatChains: string[];
  /** `--detect-local-mode`'s detector (no-op: neither pod-traffic rule is written). */
  readonly localDetector: LocalTrafficDetector;
  readonly masqueradeAll: boolean;
  readonly largeClusterMode: boolean;
  readonly nodeIPs: readonly string[];
  readonly names: ServiceChainNames;
  readonly endpointChain: (ep: Endpoint) => string;
  readonly cidrContains: (cidr: string, ip: string) => boolean;
  readonly topology: TopologyContext;
}

export interface ServiceWriteStats {
  noLocalInternal: boolean;
  noLocalExternal: boolean;
}

/** Writes every rule of one service port. */
export function writeServicePortRules(ctx: ServiceWriteContext, svc: ServicePortInfo, all: readonly Endpoint[]): ServiceWriteStats {
  const proto = svc.protocol.toLowerCase();
  const spn = svc.nameString;
  const categorized = categorizeEndpoints(all, svc, ctx.topology);
  const { allReachableEndpoints, hasAnyEndpoints } = categorized;
  const clusterEndpoints = categorized.clusterEndpoints ?? [];
  const localEndpoints = categorized.localEndpoints ?? [];
  const n = ctx.names;
  // pkg/proxy/iptables/proxier.go syncProxyRules: usesClusterPolicyChain / usesLocalPolicyChain.
  const usesClusterChain = clusterEndpoints.length > 0 && usesClusterEndpoints(svc);
  const usesLocalChain = localEndpoints.length > 0 && usesLocalEndpoints(svc);
  const internalChain = svc.internalPolicyLocal ? n.local : n.cluster;
  const hasInternal = hasAnyEndpoints && (!svc.internalPolicyLocal || localEndpoints.length > 0);
  const externalPolicyChain = svc.externalPolicyLocal ? n.local : n.cluster;
  const hasExternal = hasAnyEndpoints && (!svc.externalPolicyLocal || localEndpoints.length > 0);
  const usesExternalChain = hasAnyEndpoints && externallyAccessible(svc);
  const usesFWChain = hasAnyEndpoints && svc.loadBalancerVIPs.length > 0 && svc.loadBalancerSourceRanges.length > 0;
  const lbChain = usesFWChain ? n.firewall : n.external;
  const [intTarget, intComment] = hasAnyEndpoints ? ["DROP", `"${spn} has no local endpoints"`] : ["REJECT", `"${spn} has no endpoints"`];
  const [extTarget, extComment] = [intTarget, intComment];
  const match = `-m ${proto} -p ${proto}`;
  const dport = `--dport ${svc.port}`;

  // Capture the clusterIP.
  if (hasInternal) {
    ctx.natRules.push(
      `-A ${chains.services} -m comment --comment "${spn} cluster IP" ${match} -d ${svc.clusterIP} ${dport} -j ${internalChain}`,
    );
  } else {
    ctx.filterRules.push(`-A ${chains.services} -m comment --comment ${intComment} ${match} -d ${svc.clusterIP} ${dport} -j ${intTarget}`);
  }
  // Capture externalIPs.
  for (const ip of svc.externalIPs) {
    if (hasAnyEndpoints)
      ctx.natRules.push(`-A ${chains.services} -m comment --comment "${spn} external IP" ${match} -d ${ip} ${dport} -j ${n.external}`);
    if (!hasExternal)
      ctx.filterRules.push(`-A ${chains.externalServices} -m comment --comment ${extComment} ${match} -d ${ip} ${dport} -j ${extTarget}`);
  }
  // Capture load-balancer ingress.
  for (const ip of svc.loadBalancerVIPs) {
    if (hasAnyEndpoints)
      ctx.natRules.push(`-A ${chains.services} -m comment --comment "${spn} loadbalancer IP" ${match} -d ${ip} ${dport} -j ${lbChain}`);
    if (usesFWChain) {
      ctx.filterRules.push(
        `-A ${chains.proxyFirewall} -m comment --comment "${spn} traffic not accepted by ${n.firewall}" ${match} -d ${ip} ${dport} -j DROP`,
      );
    }
  }
  if (!hasExternal) {
    for (const ip of svc.loadBalancerVIPs) {
      ctx.filterRules.push(`-A ${chains.externalServices} -m comment --comment ${extComment} ${match} -d ${ip} ${dport} -j ${extTarget}`);
    }
  }
  // Capture nodeports.
  if (svc.nodePort !== 0) {
    if (hasAnyEndpoints)
      ctx.natRules.push(`-A ${chains.nodePorts} -m comment --comment ${spn} ${match} --dport ${svc.nodePort} -j ${n.external}`);
    if (!hasExternal) {
      ctx.filterRules.push(
        `-A ${chains.externalServices} -m comment --comment ${extComment} -m addrtype --dst-type LOCAL ${match} --dport ${svc.nodePort} -j ${extTarget}`,
      );
    }
  }
  // Capture healthCheckNodePorts: accepted whether or not there are local endpoints.
  if (svc.healthCheckNodePort !== 0) {
    ctx.filterRules.push(
      `-A ${chains.nodePorts} -m comment --comment "${spn} health check node port" -m tcp -p tcp --dport ${svc.healthCheckNodePort} -j ACCEPT`,
    );
  }

  const rules = ctx.svcRules;
  if (hasInternal) {
    const args = `-A ${internalChain} -m comment --comment "${spn} cluster IP" ${match} -d ${svc.clusterIP} ${dport}`;
    if (ctx.masqueradeAll) rules.push(`${args} -j ${chains.markMasq}`);
    // Off-cluster traffic to a ClusterIP (a static route to any node) may bounce off-node: masquerade it.
    else if (ctx.localDetector.isImplemented) rules.push(`${args} ${ctx.localDetector.ifNotLocal} -j ${chains.markMasq}`);
  }
  if (usesExternalChain) writeExternalChain(ctx, svc, hasExternal, externalPolicyChain);
  if (usesFWChain) writeFirewallChain(ctx, svc);
  if (usesClusterChain) {
    ctx.svcChains.push(chainLine(n.cluster));
    ctx.activeNatChains.push(n.cluster);
    writeServiceToEndpointRules(ctx, svc, n.cluster, clusterEndpoints);
  }
  if (usesLocalChain) {
    ctx.svcChains.push(chainLine(n.local));
    ctx.activeNatChains.push(n.local);
    writeServiceToEndpointRules(ctx, svc, n.local, localEndpoints);
  }
  for (const ep of allReachableEndpoints) writeEndpointChain(ctx, svc, ep, match);
  return { noLocalInternal: hasAnyEndpoints && !hasInternal, noLocalExternal: hasAnyEndpoints && !hasExternal };
}

function writeExternalChain(ctx: ServiceWriteContext, svc: ServicePortInfo, hasExternal: boolean, policyChain: string): void {
  const { external, cluster } = ctx.names;
  const spn = svc.nameString;
  ctx.svcChains.push(chainLine(external));
  ctx.activeNatChains.push(external);
  if (!svc.externalPolicyLocal) {
    // Non-local endpoints may be on another node: masquerade so replies come back here.
    ctx.svcRules.push(`-A ${external} -m comment --comment "masquerade traffic for ${spn} external destinations" -j ${chains.markMasq}`);
  } else {
    if (ctx.localDetector.isImplemented) {
      ctx.svcRules.push(
        `-A ${external} -m comment --comment "pod traffic for ${spn} external destinations" ${ctx.localDetector.ifLocal} -j ${cluster}`,
      );
    }
    ctx.svcRules.push(
      `-A ${external} -m comment --comment "masquerade LOCAL traffic for ${spn} external destinations" -m addrtype --src-type LOCAL -j ${chains.markMasq}`,
    );
    ctx.svcRules.push(
      `-A ${external} -m comment --comment "route LOCAL traffic for ${spn} external destinations" -m addrtype --src-type LOCAL -j ${cluster}`,
    );
  }
  if (hasExternal) ctx.svcRules.push(`-A ${external} -j ${policyChain}`);
}

function writeFirewallChain(ctx: ServiceWriteContext, svc: ServicePortInfo): void {
  const { firewall, external } = ctx.names;
  ctx.svcChains.push(chainLine(firewall));
  ctx.activeNatChains.push(firewall);
  const args = `-A ${firewall} -m comment --comment "${svc.nameString} loadbalancer IP"`;
  let allowFromNode = false;
  for (const cidr of svc.loadBalancerSourceRanges) {
    ctx.svcRules.push(`${args} -s ${cidr} -j ${external}`);
    if (ctx.nodeIPs.some((ip) => ctx.cidrContains(cidr, ip))) allowFromNode = true;
  }
  // A node reaching its own VIP loops back with the VIP as source address.
  if (allowFromNode) for (const ip of svc.loadBalancerVIPs) ctx.svcRules.push(`${args} -s ${ip} -j ${external}`);
  ctx.svcRules.push(`-A ${firewall} -m comment --comment "other traffic to ${svc.nameString} will be dropped by KUBE-PROXY-FIREWALL"`);
}

function comment(ctx: ServiceWriteContext, text: string): string {
  return ctx.largeClusterMode ? "" : ` -m comment --comment ${text}`;
}

/** `writeServiceToEndpointRules`: affinity checks first, then the probability cascade. */
function writeServiceToEndpointRules(ctx: ServiceWriteContext, svc: ServicePortInfo, chain: string, eps: readonly Endpoint[]): void {
  if (svc.sessionAffinityClientIP) {
    for (const ep of eps) {
      const sep = ctx.endpointChain(ep);
      ctx.svcRules.push(
        `-A ${chain}${comment(ctx, `"${svc.nameString} -> ${ep.endpoint}"`)} -m recent --name ${sep} --rcheck --seconds ${svc.stickyMaxAgeSeconds} --reap -j ${sep}`,
      );
    }
  }
  const n = eps.length;
  eps.forEach((ep, i) => {
    const stat = i < n - 1 ? ` -m statistic --mode random --probability ${probability(n - i)}` : "";
    ctx.svcRules.push(`-A ${chain}${comment(ctx, `"${svc.nameString} -> ${ep.endpoint}"`)}${stat} -j ${ctx.endpointChain(ep)}`);
  });
}

function writeEndpointChain(ctx: ServiceWriteContext, svc: ServicePortInfo, ep: Endpoint, match: string): void {
  const sep = ctx.endpointChain(ep);
  ctx.svcChains.push(chainLine(sep));
  ctx.activeNatChains.push(sep);
  const head = `-A ${sep}${comment(ctx, svc.nameString)}`;
  // Hairpin: a pod reaching itself through the Service must be masqueraded.
  ctx.svcRules.push(`${head} -s ${ep.ip} -j ${chains.markMasq}`);
  const recent = svc.sessionAffinityClientIP ? ` -m recent --name ${sep} --set` : "";
  ctx.svcRules.push(`${head}${recent} ${match} -j DNAT --to-destination ${ep.endpoint}`);
}
