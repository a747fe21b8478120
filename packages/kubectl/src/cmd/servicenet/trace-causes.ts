/**
 * What caused each step of a traced walk: the Service field (its ClusterIP or
 * NodePort, a traffic policy, session affinity, source ranges), the
 * EndpointSlice endpoint a branch or DNAT goes to, or the kube-proxy flag
 * (--cluster-cidr, --proxy-mode for the base chains every packet passes). The
 * chain names are upstream's (pkg/proxy/iptables/proxier.go servicePortPolicyClusterChain
 * and friends, pkg/proxy/nftables/proxier.go servicePortChainNameBase), so
 * they tell which object a rule belongs to.
 */
import type { EndpointSlice } from "@servicenet/api";
import { splitHostPort } from "@servicenet/kube-proxy";
import type { ProxyMode, TraceOutcome, TraceStep } from "@servicenet/kube-proxy";
import type { ResolvedTrace } from "./trace-resolve.ts";

/** The object or flag behind a step. */
export interface StepCause {
  readonly kind: "Service" | "EndpointSlice" | "Flag";
  /** namespace/name for objects, the flag (`--cluster-cidr`) for flags. */
  readonly name: string;
  readonly detail: string;
}

export interface CauseContext {
  readonly resolved: ResolvedTrace;
  readonly slices: readonly EndpointSlice[];
  readonly clusterCIDR: string;
  readonly mode: ProxyMode;
}

/** `(service default/web: internalTrafficPolicy=Local)`, `(flag --cluster-cidr=…: …)`. */
export function causeText(c: StepCause): string {
  return c.kind === "Flag" ? `(flag ${c.name}: ${c.detail})` : `(${c.kind.toLowerCase()} ${c.name}: ${c.detail})`;
}

type Role = "cluster" | "local" | "external" | "firewall" | "endpoint" | "mark" | "base";

const roles: readonly [RegExp, Role][] = [
  // nftables: "<prefix>-<8-character hash>-<namespace>/<name>/<protocol>/<port>"; base chains such as
  // service-endpoints-check and firewall-check have no hash.
  [/^(KUBE-SVC-|service-[A-Z0-9]{8}-)/, "cluster"],
  [/^(KUBE-SVL-|local-[A-Z0-9]{8}-)/, "local"],
  [/^(KUBE-EXT-|external-[A-Z0-9]{8}-)/, "external"],
  [/^(KUBE-FW-|firewall-[A-Z0-9]{8}-)/, "firewall"],
  [/^(KUBE-SEP-|endpoint-[A-Z0-9]{8}-)/, "endpoint"],
  [/^(KUBE-MARK-MASQ|mark-for-masquerade)$/, "mark"],
];

function roleOf(chain: string): Role {
  return roles.find(([re]) => re.test(chain))?.[1] ?? "base";
}

/** The chain a step jumps or goes to ("" when it does not). */
function targetOf(action: string): string {
  return /(?:jump|goto) (\S+)/.exec(action)?.[1] ?? "";
}

/** Causes for every step of `o`, in order. */
export function stepCauses(o: TraceOutcome, c: CauseContext): StepCause[] {
  return o.steps.map((s, i) => stepCause(s, i === o.steps.length - 1 ? o : undefined, o, c));
}

function stepCause(s: TraceStep, last: TraceOutcome | undefined, o: TraceOutcome, c: CauseContext): StepCause {
  const svc = c.resolved.destination.service?.metadata;
  const service = (detail: string): StepCause => ({ kind: "Service", name: `${svc?.namespace ?? ""}/${svc?.name ?? ""}`, detail });
  const base: StepCause = { kind: "Flag", name: `--proxy-mode=${c.mode}`, detail: "base rules" };
  if (last !== undefined && last.verdict !== "accept" && svc !== undefined) return verdictCause(last, c, service);
  const target = roleOf(targetOf(s.action));
  const here = roleOf(s.chain);
  if (target === "mark") return markCause(s, c, service);
  if (/^(dnat|DNAT) to /.test(s.action) || s.branchProbability !== undefined || target === "endpoint")
    return endpointCause(s, o, c) ?? service("endpoint chosen");
  if (svc === undefined) return base;
  if (/update @affinity|--set|--rcheck/.test(`${s.action} ${s.rule}`))
    return service(
      `sessionAffinity=ClientIP (timeout ${c.resolved.destination.service?.spec?.sessionAffinityConfig?.clientIP?.timeoutSeconds ?? 10800}s)`,
    );
  if (target === "local" || here === "local")
    return service(c.resolved.destination.via === "clusterIP" ? "internalTrafficPolicy=Local" : "externalTrafficPolicy=Local");
  if (target === "firewall" || here === "firewall")
    return service(`loadBalancerSourceRanges=[${(c.resolved.destination.service?.spec?.loadBalancerSourceRanges ?? []).join(", ")}]`);
  if (target === "external" || here === "external") return service(`${addressOf(c)}, externalTrafficPolicy=${policyOf(c, "external")}`);
  if (target === "cluster" || here === "cluster")
    return service(here === "base" ? addressOf(c) : `internalTrafficPolicy=${policyOf(c, "internal")}: endpoints of every node`);
  return base;
}

function policyOf(c: CauseContext, which: "internal" | "external"): string {
  const spec = c.resolved.destination.service?.spec;
  return (which === "internal" ? spec?.internalTrafficPolicy : spec?.externalTrafficPolicy) ?? "Cluster";
}

/** The Service field the destination matched. */
function addressOf(c: CauseContext): string {
  const d = c.resolved.destination;
  const p = `${d.port}/${d.protocol.toUpperCase()}`;
  switch (d.via) {
    case "nodePort":
      return `type=${d.service?.spec?.type ?? "NodePort"} nodePort ${p}`;
    case "externalIP":
      return `externalIPs ${d.ip} port ${p}`;
    case "loadBalancerIP":
      return `status.loadBalancer.ingress ${d.ip} port ${p}`;
    default:
      return `clusterIP ${d.ip} port ${p}`;
  }
}

function markCause(s: TraceStep, c: CauseContext, service: (d: string) => StepCause): StepCause {
  if (roleOf(s.chain) === "endpoint") return service("hairpin: the endpoint is the client itself");
  if (roleOf(s.chain) === "external" || /external destinations$/.test(s.comment ?? ""))
    return service("externalTrafficPolicy=Cluster: the source is masqueraded");
  if (/LOCAL traffic|local traffic/.test(s.comment ?? "")) return service("externalTrafficPolicy=Local, traffic from the node itself");
  return c.clusterCIDR === ""
    ? { kind: "Flag", name: "--cluster-cidr", detail: "unset: every ClusterIP connection is masqueraded" }
    : { kind: "Flag", name: `--cluster-cidr=${c.clusterCIDR}`, detail: `source ${c.resolved.source.ip} is outside it` };
}

function verdictCause(o: TraceOutcome, c: CauseContext, service: (d: string) => StepCause): StepCause {
  const reason = o.reason ?? "";
  const via = c.resolved.destination.via;
  if (/ has no local endpoints$/.test(reason) || (reason.startsWith("no-endpoint-") && o.verdict === "drop"))
    return service(`${via === "clusterIP" ? "internalTrafficPolicy" : "externalTrafficPolicy"}=Local, no endpoint on this node`);
  if (/ has no endpoints$/.test(reason) || reason.startsWith("no-endpoint-"))
    return notReadyCause(c) ?? service("no EndpointSlice lists an endpoint");
  if (/KUBE-FW-|firewall/.test(`${reason} ${o.steps[o.steps.length - 1]?.chain ?? ""}`))
    return service(`loadBalancerSourceRanges=[${(c.resolved.destination.service?.spec?.loadBalancerSourceRanges ?? []).join(", ")}]`);
  return service(reason === "" ? o.verdict : reason);
}

/** The slices of the destination Service, in name order. */
function slicesOf(c: CauseContext): EndpointSlice[] {
  const m = c.resolved.destination.service?.metadata;
  return c.slices
    .filter((s) => s.metadata?.namespace === m?.namespace && s.metadata?.labels?.["kubernetes.io/service-name"] === m?.name)
    .sort((a, b) => ((a.metadata?.name ?? "") < (b.metadata?.name ?? "") ? -1 : 1));
}

/** For a Service without usable endpoints: the first endpoint that is listed but not ready. */
function notReadyCause(c: CauseContext): StepCause | undefined {
  for (const s of slicesOf(c)) {
    if (s.addressType !== c.resolved.family) continue;
    const e = s.endpoints.find((x) => x.conditions?.ready === false);
    if (e !== undefined)
      return {
        kind: "EndpointSlice",
        name: `${s.metadata?.namespace ?? ""}/${s.metadata?.name ?? ""}`,
        detail: `endpoint ${e.addresses[0] ?? ""} not ready${e.conditions?.serving === true ? " (serving, terminating)" : ""}`,
      };
  }
  return undefined;
}

/** The endpoint a branch or DNAT goes to: named in the rule's comment (`-> IP:PORT`), else the path's DNAT. */
function endpointCause(s: TraceStep, o: TraceOutcome, c: CauseContext): StepCause | undefined {
  const fromComment = /-> (\S+)$/.exec(s.comment ?? "")?.[1];
  const ip =
    fromComment !== undefined
      ? splitHostPort(fromComment).ip
      : (fromChainName(targetOf(s.action)) ?? (o.dnat !== undefined ? splitHostPort(o.dnat).ip : undefined));
  if (ip === undefined) return undefined;
  for (const sl of slicesOf(c)) {
    const e = sl.endpoints.find((x) => x.addresses.includes(ip));
    if (e === undefined) continue;
    const zone = e.zone !== undefined ? `, zone ${e.zone}` : "";
    const hints = (e.hints?.forZones ?? []).map((z) => z.name);
    const taken = s.action.includes("not taken") ? "not this one: " : "";
    return {
      kind: "EndpointSlice",
      name: `${sl.metadata?.namespace ?? ""}/${sl.metadata?.name ?? ""}`,
      detail: `${taken}endpoint ${ip} ${e.conditions?.ready === false ? "not ready" : "ready"}${e.nodeName !== undefined ? ` on ${e.nodeName}` : ""}${zone}${hints.length > 0 ? `, hinted for ${hints.join(", ")}` : ""}`,
    };
  }
  return undefined;
}

/** The endpoint IP of an nftables endpoint chain name (nftEndpointChainBase writes IPv6 ":" as "."). */
function fromChainName(chain: string): string | undefined {
  const ip = /__(.+)\/\d+$/.exec(chain)?.[1];
  if (ip === undefined) return undefined;
  return /^\d+\.\d+\.\d+\.\d+$/.test(ip) ? ip : ip.replaceAll(".", ":");
}
