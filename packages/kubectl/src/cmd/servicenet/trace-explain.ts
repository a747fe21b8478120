/**
 * Each traced outcome in words, tied to what caused it: the EndpointSlice
 * endpoint a DNAT reached, the traffic policy or source range behind a drop,
 * the Service with no endpoints behind a reject, the flag or policy behind a
 * masquerade. The rule comments are upstream's (pkg/proxy/iptables/proxier.go,
 * pkg/proxy/nftables/proxier.go), so they identify the rule that decided.
 */
import type { EndpointSlice } from "@servicenet/api";
import { splitHostPort } from "@servicenet/kube-proxy";
import type { TraceOutcome, TraceStep } from "@servicenet/kube-proxy";
import type { ResolvedTrace } from "./trace-resolve.ts";

/** The endpoint a path reached, as its EndpointSlice lists it. */
export interface EndpointInfo {
  readonly address: string;
  readonly slice: string;
  readonly nodeName?: string;
  readonly pod?: string;
  readonly zone?: string;
  readonly ready?: boolean;
  readonly serving?: boolean;
  readonly terminating?: boolean;
  readonly hints?: readonly string[];
}

export interface Explanation {
  /** One line: "delivered to 10.0.0.5:8080", "DROP: no local endpoints for externalTrafficPolicy=Local". */
  readonly summary: string;
  readonly endpoint?: EndpointInfo;
  /** Why the source is rewritten (empty when it is not). */
  readonly masquerade?: string;
}

const markChains = new Set(["KUBE-MARK-MASQ", "mark-for-masquerade"]);

/** Explains one outcome of `r`'s trace, given the node's EndpointSlices and `--cluster-cidr`. */
export function explainOutcome(o: TraceOutcome, r: ResolvedTrace, slices: readonly EndpointSlice[], clusterCIDR: string): Explanation {
  const masq = o.masquerade ? masqueradeReason(o.steps, clusterCIDR) : undefined;
  if (o.verdict !== "accept") return { summary: `${o.verdict.toUpperCase()}: ${dropReason(o, r)}` };
  if (o.dnat === undefined) {
    const why = o.acceptedByRule ? "accepted by a kube-proxy rule" : "no Service rule matched";
    return {
      summary: `${why}: delivered unchanged to ${r.destination.ip}:${r.destination.port}`,
      ...(masq !== undefined ? { masquerade: masq } : {}),
    };
  }
  const endpoint = findEndpoint(o.dnat, r, slices);
  return {
    summary: `delivered to ${o.dnat}`,
    ...(endpoint !== undefined ? { endpoint } : {}),
    ...(masq !== undefined ? { masquerade: masq } : {}),
  };
}

function svcName(r: ResolvedTrace): string {
  const m = r.destination.service?.metadata;
  return m === undefined ? "the Service" : `Service ${m.namespace ?? ""}/${m.name ?? ""}`;
}

function dropReason(o: TraceOutcome, r: ResolvedTrace): string {
  const reason = o.reason ?? "";
  const last = o.steps[o.steps.length - 1];
  const d = r.destination;
  const policy = d.via === "clusterIP" ? "internalTrafficPolicy=Local" : "externalTrafficPolicy=Local";
  if (/ has no local endpoints$/.test(reason) || (reason.startsWith("no-endpoint-") && o.verdict === "drop"))
    return `no local endpoints for ${policy} (node ${r.node.metadata?.name ?? ""} runs none of the endpoints of ${svcName(r)})`;
  if (/ has no endpoints$/.test(reason) || reason.startsWith("no-endpoint-"))
    return `${svcName(r)} has no endpoints for port ${d.servicePort?.name ?? String(d.port)} (no ready or serving endpoint in its EndpointSlices)`;
  if (/ traffic not accepted by KUBE-FW-/.test(reason) || (last?.chain.startsWith("firewall-") ?? false)) {
    const ranges = (d.service?.spec?.loadBalancerSourceRanges ?? []).map((s) => s.trim()).join(", ");
    return `source ${r.source.ip} is not in loadBalancerSourceRanges [${ranges}] of ${svcName(r)}`;
  }
  if (reason === "Reject traffic to invalid ports of ClusterIPs")
    return `${d.ip} is a ClusterIP, but ${d.port}/${d.protocol.toUpperCase()} is not one of its Service's ports`;
  if (reason === "Drop traffic to unallocated ClusterIPs") return `${d.ip} lies in a ServiceCIDR but no Service has it as ClusterIP`;
  if (reason === "block incoming localnet connections") return "traffic to 127.0.0.0/8 from another host is dropped (KUBE-FIREWALL)";
  return reason === "" ? "dropped by a rule without a comment" : reason;
}

function masqueradeReason(steps: readonly TraceStep[], clusterCIDR: string): string {
  const mark = steps.find((s) => markChains.has(s.action.replace(/^(jump|goto) /, "")));
  if (mark === undefined) return "the packet carries the masquerade mark";
  const c = mark.comment ?? "";
  if (mark.chain.startsWith("KUBE-SEP-") || mark.chain.startsWith("endpoint-"))
    return "hairpin: the endpoint is the client itself, so replies must come back through the Service";
  if (/^masquerade traffic for .* external destinations$/.test(c) || (mark.chain.startsWith("external-") && c === ""))
    return "externalTrafficPolicy=Cluster: external traffic may go to another node, so replies must return through this one";
  if (/LOCAL traffic|local traffic/.test(c)) return "traffic from the node itself to an externalTrafficPolicy=Local address";
  if (/ cluster IP$/.test(c) || mark.chain.startsWith("service-") || mark.chain.startsWith("local-"))
    return clusterCIDR === "" ? "masquerade-all" : `the source is outside the cluster CIDR (--cluster-cidr ${clusterCIDR})`;
  return c === "" ? `marked in ${mark.chain}` : c;
}

function findEndpoint(dnat: string, r: ResolvedTrace, slices: readonly EndpointSlice[]): EndpointInfo | undefined {
  const { ip } = splitHostPort(dnat);
  const m = r.destination.service?.metadata;
  for (const s of slices) {
    if (m !== undefined && (s.metadata?.namespace !== m.namespace || s.metadata?.labels?.["kubernetes.io/service-name"] !== m.name))
      continue;
    for (const e of s.endpoints) {
      if (!e.addresses.includes(ip)) continue;
      const c = e.conditions ?? {};
      const hints = (e.hints?.forZones ?? []).map((z) => `zone ${z.name}`).concat((e.hints?.forNodes ?? []).map((n) => `node ${n.name}`));
      return {
        address: dnat,
        slice: `${s.metadata?.namespace ?? ""}/${s.metadata?.name ?? ""}`,
        ...(e.nodeName !== undefined ? { nodeName: e.nodeName } : {}),
        ...(e.targetRef?.kind === "Pod"
          ? { pod: `${e.targetRef.namespace ?? s.metadata?.namespace ?? ""}/${e.targetRef.name ?? ""}` }
          : {}),
        ...(e.zone !== undefined ? { zone: e.zone } : {}),
        ...(c.ready !== undefined ? { ready: c.ready } : {}),
        ...(c.serving !== undefined ? { serving: c.serving } : {}),
        ...(c.terminating !== undefined ? { terminating: c.terminating } : {}),
        ...(hints.length > 0 ? { hints } : {}),
      };
    }
  }
  return undefined;
}
