/**
 * `servicenet trace SOURCE DESTINATION`: where a new connection goes through
 * one node's kube-proxy rules. The rules are computed from the API by the same
 * proxier the node's kube-proxy runs (`@servicenet/kube-proxy`), or read from
 * files a kube-proxy wrote (`--rules`), then evaluated with every random
 * branch followed (a servicenet command; upstream kubectl has none).
 */
import { readFile } from "node:fs/promises";
import type { EndpointSlice, IPFamily, Service, ServiceCIDR } from "@servicenet/api";
import { parseCIDRSloppy } from "@servicenet/api";
import { computeNodeRules, loadNodeRules } from "@servicenet/kube-proxy";
import type { NodeRules, ProxyMode, TraceResult } from "@servicenet/kube-proxy";
import { CLIError } from "../errors.ts";
import type { Context } from "../io.ts";
import { mustResource, resourcePath } from "../resources.ts";
import { stepCauses } from "./trace-causes.ts";
import { explainOutcome } from "./trace-explain.ts";
import { renderTrace, traceToJSON } from "./trace-render.ts";
import type { TraceReport } from "./trace-render.ts";
import { nodeAddresses, resolveTrace } from "./trace-resolve.ts";
import type { ResolvedTrace } from "./trace-resolve.ts";

async function list<T>(ctx: Context, resource: string): Promise<T[]> {
  return (await ctx.client.get<{ items?: T[] }>(resourcePath(mustResource(resource), undefined))).items ?? [];
}

/** The entry of `--flag V4,V6` of `family`. */
function ofFamily(values: string | undefined, family: IPFamily): string[] {
  return (values ?? "")
    .split(",")
    .map((v) => v.trim())
    .filter((v) => v !== "" && parseCIDRSloppy(v.includes("/") ? v : `${v}/${v.includes(":") ? 128 : 32}`)?.family === family);
}

function proxyMode(ctx: Context): ProxyMode {
  const m = ctx.args.proxyMode ?? "iptables";
  if (m !== "iptables" && m !== "nftables") throw new CLIError(`error: --proxy-mode must be iptables or nftables, not "${m}"`);
  return m;
}

/** Runs `servicenet trace`; returns the exit code. */
export async function runTrace(ctx: Context): Promise<number> {
  const [source, destination, ...extra] = ctx.args.positional;
  if (source === undefined || destination === undefined || extra.length > 0)
    throw new CLIError("error: trace needs exactly a SOURCE and a DESTINATION\nSee 'kubectl servicenet trace -h' for help and examples");
  const output = ctx.args.output ?? "";
  if (output !== "" && output !== "json") throw new CLIError(`error: trace supports -o json only, not "${output}"`);
  const report = await traceReport(ctx, source, destination);
  ctx.io.stdout.write(output === "json" ? traceToJSON(report) : renderTrace(report));
  return 0;
}

/** Resolves and traces one flow with `ctx`'s flags (--node, --proxy-mode, --cluster-cidr, --node-ip, --rules). */
export async function traceReport(ctx: Context, source: string, destination: string): Promise<TraceReport> {
  const mode = proxyMode(ctx);
  const r = await resolveTrace(ctx, source, destination);
  const [slices, cidrs] = await Promise.all([list<EndpointSlice>(ctx, "endpointslices"), list<ServiceCIDR>(ctx, "servicecidrs")]);
  // kube-proxy's flags: --cluster-cidr (else the node's podCIDR, as --detect-local-mode=NodeCIDR), --node-ip (else the Node's addresses).
  const clusterCIDR = ofFamily(ctx.args.clusterCIDR, r.family)[0] ?? ofFamily((r.node.spec?.podCIDRs ?? []).join(","), r.family)[0] ?? "";
  const nodeIPs = ctx.args.nodeIP !== undefined ? ofFamily(ctx.args.nodeIP, r.family) : nodeAddresses(r.node, r.family);
  const rules = await nodeRules(ctx, mode, r, { clusterCIDR, nodeIPs, slices, cidrs, services: r.services });
  const localIPs = [...nodeAddresses(r.node), ...ofFamily(ctx.args.nodeIP, "IPv4"), ...ofFamily(ctx.args.nodeIP, "IPv6")];
  const result = rules.trace(
    { source: r.source.ip, destination: r.destination.ip, protocol: r.destination.protocol, port: r.destination.port, origin: r.origin },
    localIPs,
  );
  return {
    resolved: r,
    mode,
    clusterCIDR,
    result,
    explanations: explain(result, r, slices, clusterCIDR),
    causes: result.outcomes.map((o) => stepCauses(o, { resolved: r, slices, clusterCIDR, mode })),
    rulesFrom: ctx.args.rules.length > 0 ? ctx.args.rules : "api",
  };
}

interface RuleInputs {
  readonly clusterCIDR: string;
  readonly nodeIPs: string[];
  readonly slices: EndpointSlice[];
  readonly cidrs: ServiceCIDR[];
  readonly services: Service[];
}

async function nodeRules(ctx: Context, mode: ProxyMode, r: ResolvedTrace, i: RuleInputs): Promise<NodeRules> {
  if (ctx.args.rules.length > 0) {
    const texts = await Promise.all(
      ctx.args.rules.map((f) =>
        readFile(f, "utf8").catch((err: unknown) => {
          throw new CLIError(`error: ${err instanceof Error ? err.message : String(err)}`);
        }),
      ),
    );
    return loadNodeRules(mode, texts, mode === "iptables" && r.family === "IPv4");
  }
  return computeNodeRules({
    mode,
    family: r.family,
    nodeName: r.node.metadata?.name ?? "",
    clusterCIDR: i.clusterCIDR,
    nodeIPs: i.nodeIPs,
    serviceCIDRs: ofFamily(i.cidrs.flatMap((c) => c.spec?.cidrs ?? []).join(","), r.family),
    services: i.services,
    slices: i.slices,
    node: r.node,
  });
}

function explain(result: TraceResult, r: ResolvedTrace, slices: EndpointSlice[], clusterCIDR: string) {
  return result.outcomes.map((o) => explainOutcome(o, r, slices, clusterCIDR));
}
