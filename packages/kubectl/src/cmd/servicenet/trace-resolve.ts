/**
 * `servicenet trace` arguments resolved against the API: the source (a Pod, a
 * Node or an outside address), the destination (a Service port or an
 * address:port) and the node whose kube-proxy rules the connection meets.
 */
import { formatIP, parseIPSloppy } from "@servicenet/api";
import type { IPFamily, Node, Pod, Service } from "@servicenet/api";
import { splitHostPort } from "@servicenet/kube-proxy";
import type { TraceOrigin, TraceProtocol } from "@servicenet/kube-proxy";
import { CLIError } from "../errors.ts";
import { effectiveNamespace, type Context } from "../io.ts";
import { mustResource, resourcePath } from "../resources.ts";

type ServicePort = NonNullable<NonNullable<Service["spec"]>["ports"]>[number];

/** How the destination reaches the Service. */
export type Via = "clusterIP" | "externalIP" | "loadBalancerIP" | "nodePort";

export interface TraceSource {
  readonly kind: "pod" | "node" | "ip";
  readonly namespace?: string;
  readonly name?: string;
  readonly ip: string;
}

export interface TraceDestination {
  readonly ip: string;
  readonly port: number;
  readonly protocol: TraceProtocol;
  readonly service?: Service;
  readonly servicePort?: ServicePort;
  readonly via?: Via;
}

export interface ResolvedTrace {
  readonly source: TraceSource;
  readonly destination: TraceDestination;
  readonly family: IPFamily;
  readonly node: Node;
  readonly origin: TraceOrigin;
  readonly services: Service[];
}

const familyOf = (ip: string): IPFamily | undefined => parseIPSloppy(ip)?.family;
const canonical = (ip: string): string => {
  const p = parseIPSloppy(ip);
  return p === null ? ip : formatIP(p);
};

async function get<T>(ctx: Context, resource: string, ns: string | undefined, name: string): Promise<T> {
  return ctx.client.get<T>(resourcePath(mustResource(resource), ns, name));
}

async function list<T>(ctx: Context, resource: string): Promise<T[]> {
  return (await ctx.client.get<{ items?: T[] }>(resourcePath(mustResource(resource), undefined))).items ?? [];
}

/** The node's addresses of `family` (InternalIP and ExternalIP), or of every family. */
export function nodeAddresses(node: Node, family?: IPFamily): string[] {
  return (node.status?.addresses ?? [])
    .filter((a) => a.type === "InternalIP" || a.type === "ExternalIP")
    .map((a) => a.address)
    .filter((ip) => family === undefined || familyOf(ip) === family);
}

/** Resolves SOURCE and DESTINATION; throws CLIError with kubectl-style messages. */
export async function resolveTrace(ctx: Context, sourceArg: string, destArg: string): Promise<ResolvedTrace> {
  const ns = effectiveNamespace(ctx);
  const services = await list<Service>(ctx, "services");
  const [srcKind, srcName] = splitKind(sourceArg);
  let pod: Pod | undefined;
  let srcNode: Node | undefined;
  if (srcKind === "pod") pod = await get<Pod>(ctx, "pods", ns, srcName);
  else if (srcKind === "node") srcNode = await get<Node>(ctx, "nodes", undefined, srcName);
  else if (srcKind !== undefined || familyOf(sourceArg) === undefined)
    throw new CLIError(`error: SOURCE must be pod/NAME, node/NAME or an IP address, not "${sourceArg}"`);

  const nodeName = ctx.args.node ?? pod?.spec?.nodeName ?? srcNode?.metadata?.name;
  if (nodeName === undefined || nodeName === "")
    throw new CLIError(
      pod !== undefined
        ? `error: pod "${srcName}" is not scheduled to a node; use --node`
        : "error: --node is required when SOURCE is an IP address",
    );
  const node = srcNode !== undefined && srcNode.metadata?.name === nodeName ? srcNode : await get<Node>(ctx, "nodes", undefined, nodeName);
  const hostNetwork = pod?.spec?.hostNetwork === true;
  const sourceIPs =
    pod !== undefined && !hostNetwork
      ? (pod.status?.podIPs ?? []).map((p) => p.ip)
      : pod !== undefined || srcNode !== undefined
        ? nodeAddresses(node)
        : [sourceArg];
  if (sourceIPs.length === 0) throw new CLIError(`error: pod "${srcName}" has no IP address yet`);

  const dest = resolveDestination(ctx, destArg, ns, services, sourceIPs, node);
  const family = familyOf(dest.ip) ?? "IPv4";
  const ip = sourceIPs.find((s) => familyOf(s) === family);
  if (ip === undefined) throw new CLIError(`error: ${sourceArg} has no ${family} address to reach ${dest.ip}`);
  const source: TraceSource =
    pod !== undefined
      ? { kind: "pod", namespace: ns, name: srcName, ip: canonical(ip) }
      : srcNode !== undefined
        ? { kind: "node", name: srcName, ip: canonical(ip) }
        : { kind: "ip", ip: canonical(ip) };
  // Pods send through their veth into PREROUTING; the node's own processes (and host-network pods) start in OUTPUT.
  const origin: TraceOrigin = source.kind === "node" || hostNetwork ? "output" : "prerouting";
  return { source, destination: dest, family, node, origin, services };
}

function splitKind(arg: string): [string | undefined, string] {
  const i = arg.indexOf("/");
  if (i < 0) return [undefined, arg];
  const kind = arg.slice(0, i).toLowerCase();
  const name = arg.slice(i + 1);
  if (["pod", "pods", "po"].includes(kind)) return ["pod", name];
  if (["node", "nodes", "no"].includes(kind)) return ["node", name];
  if (["svc", "service", "services"].includes(kind)) return ["svc", name];
  return [kind, name];
}

function protocolFlag(ctx: Context): TraceProtocol | undefined {
  const p = ctx.args.protocol?.toLowerCase();
  if (p === undefined) return undefined;
  if (p !== "tcp" && p !== "udp" && p !== "sctp")
    throw new CLIError(`error: --protocol must be TCP, UDP or SCTP, not "${ctx.args.protocol ?? ""}"`);
  return p;
}

function resolveDestination(ctx: Context, arg: string, ns: string, services: Service[], sourceIPs: string[], node: Node): TraceDestination {
  const [kind, rest] = splitKind(arg);
  if (kind === "svc") {
    const [name, portArg] = rest.split(":");
    const svc = services.find((s) => s.metadata?.namespace === ns && s.metadata?.name === name);
    if (svc === undefined) throw new CLIError(`Error from server (NotFound): services "${name ?? ""}" not found`);
    const ports = svc.spec?.ports ?? [];
    const sp =
      portArg === undefined
        ? ports.length === 1
          ? ports[0]
          : undefined
        : ports.find((p) => p.name === portArg || String(p.port) === portArg);
    if (sp === undefined)
      throw new CLIError(
        portArg === undefined
          ? `error: service "${name ?? ""}" has ${ports.length} ports; name one as svc/${name ?? ""}:PORT`
          : `error: service "${name ?? ""}" has no port "${portArg}"`,
      );
    const ips = svc.spec?.clusterIPs ?? (svc.spec?.clusterIP !== undefined ? [svc.spec.clusterIP] : []);
    const srcFamilies = new Set(sourceIPs.map(familyOf));
    const ip = ips.find((c) => srcFamilies.has(familyOf(c)));
    if (ip === undefined || ip === "None") throw new CLIError(`error: service "${name ?? ""}" has no ClusterIP the source can reach`);
    return {
      ip: canonical(ip),
      port: sp.port,
      protocol: (sp.protocol ?? "TCP").toLowerCase() as TraceProtocol,
      service: svc,
      servicePort: sp,
      via: "clusterIP",
    };
  }
  if (kind !== undefined) throw new CLIError(`error: DESTINATION must be svc/NAME[:PORT] or IP:PORT, not "${arg}"`);
  const { ip, port } = splitHostPort(arg);
  if (familyOf(ip) === undefined || port === undefined || !(port > 0 && port < 65536))
    throw new CLIError(`error: DESTINATION must be svc/NAME[:PORT] or IP:PORT ([IPv6]:PORT for IPv6), not "${arg}"`);
  const want = canonical(ip);
  const protocol = protocolFlag(ctx);
  for (const svc of services) {
    for (const sp of svc.spec?.ports ?? []) {
      const proto = (sp.protocol ?? "TCP").toLowerCase() as TraceProtocol;
      if (protocol !== undefined && protocol !== proto) continue;
      const via = viaOf(svc, sp, want, port, node);
      if (via !== undefined) return { ip: want, port, protocol: proto, service: svc, servicePort: sp, via };
    }
  }
  return { ip: want, port, protocol: protocol ?? "tcp" };
}

function viaOf(svc: Service, sp: ServicePort, ip: string, port: number, node: Node): Via | undefined {
  const has = (list: readonly string[] | undefined) => (list ?? []).some((x) => canonical(x) === ip);
  if (sp.port === port) {
    if (has(svc.spec?.clusterIPs ?? (svc.spec?.clusterIP !== undefined ? [svc.spec.clusterIP] : []))) return "clusterIP";
    if (has(svc.spec?.externalIPs)) return "externalIP";
    if (has((svc.status?.loadBalancer?.ingress ?? []).map((i) => i.ip ?? ""))) return "loadBalancerIP";
  }
  if (sp.nodePort === port && (has(nodeAddresses(node)) || ip.startsWith("127."))) return "nodePort";
  return undefined;
}
