/** Text and JSON output of `servicenet trace`. */
import type { ProxyMode, TraceResult, TraceStep } from "@servicenet/kube-proxy";
import { causeText, type StepCause } from "./trace-causes.ts";
import type { Explanation } from "./trace-explain.ts";
import type { ResolvedTrace } from "./trace-resolve.ts";

export interface TraceReport {
  readonly resolved: ResolvedTrace;
  readonly mode: ProxyMode;
  readonly clusterCIDR: string;
  readonly result: TraceResult;
  readonly explanations: readonly Explanation[];
  /** Per outcome, what caused each of its steps (same order as its steps). */
  readonly causes: readonly (readonly StepCause[])[];
  /** "api" when computed from the API objects, else the files read. */
  readonly rulesFrom: "api" | readonly string[];
}

const hookNames = { prerouting: "PREROUTING", input: "INPUT", forward: "FORWARD", output: "OUTPUT", postrouting: "POSTROUTING" } as const;

/** A probability as a percentage with one decimal. */
export function pct(p: number): string {
  return `${(p * 100).toFixed(1)}%`;
}

/** The source in words: pod, node or outside address. */
export function describeSource(r: ResolvedTrace): string {
  const s = r.source;
  if (s.kind === "pod") return `pod ${s.namespace ?? ""}/${s.name ?? ""} (${s.ip})`;
  if (s.kind === "node") return `node ${s.name ?? ""} (${s.ip})`;
  return `${s.ip} (outside the cluster)`;
}

/** The destination in words, with the Service port it reaches. */
export function describeDestination(r: ResolvedTrace): string {
  const d = r.destination;
  const addr = `${d.ip.includes(":") ? `[${d.ip}]` : d.ip}:${d.port}/${d.protocol.toUpperCase()}`;
  const m = d.service?.metadata;
  if (m === undefined) return `${addr} (no Service has this address and port)`;
  const port = d.servicePort?.name !== undefined && d.servicePort.name !== "" ? d.servicePort.name : String(d.servicePort?.port ?? "");
  const via = { clusterIP: "ClusterIP", externalIP: "external IP", loadBalancerIP: "LoadBalancer IP", nodePort: "NodePort" }[
    d.via ?? "clusterIP"
  ];
  return `${addr} = Service ${m.namespace ?? ""}/${m.name ?? ""} port ${port} (${via})`;
}

function stepLine(s: TraceStep, cause: StepCause | undefined): string {
  const where = `${hookNames[s.hook]} ${s.table}/${s.chain}`;
  const branch = s.branchProbability !== undefined ? ` [${pct(s.branchProbability)}]` : "";
  const comment = s.comment !== undefined ? `  # ${s.comment}` : "";
  return `      ${where.padEnd(58)} ${s.action}${branch}${comment}${cause !== undefined ? `  ${causeText(cause)}` : ""}\n`;
}

/** The human-readable walk. */
export function renderTrace(rep: TraceReport): string {
  const r = rep.resolved;
  let out = `Source:       ${describeSource(r)}\n`;
  out += `Destination:  ${describeDestination(r)}\n`;
  out += `Node:         ${r.node.metadata?.name ?? ""} (${rep.mode}, ${r.family}; packet enters at ${hookNames[r.origin]})\n`;
  out += `Rules:        ${rep.rulesFrom === "api" ? "computed from the API as the node's kube-proxy would write them" : `read from ${rep.rulesFrom.join(", ")}`}\n`;
  const outcomes = rep.result.outcomes;
  out += `\n${outcomes.length} possible outcome${outcomes.length === 1 ? "" : "s"}:\n`;
  outcomes.forEach((o, i) => {
    const e = rep.explanations[i];
    out += `\n  [${i + 1}] ${pct(o.probability)}  ${e?.summary ?? o.verdict}\n`;
    const ep = e?.endpoint;
    if (ep !== undefined) {
      const cond = [
        ep.ready === false ? "not ready" : "ready",
        ...(ep.serving === false ? ["not serving"] : []),
        ...(ep.terminating === true ? ["terminating"] : []),
      ].join(", ");
      const where = [
        ep.pod !== undefined ? `pod ${ep.pod}` : undefined,
        ep.nodeName !== undefined ? `on node ${ep.nodeName}` : undefined,
        ep.zone !== undefined ? `zone ${ep.zone}` : undefined,
      ]
        .filter((x) => x !== undefined)
        .join(" ");
      out += `      endpoint: ${where === "" ? ep.address : where} (EndpointSlice ${ep.slice}, ${cond}${ep.hints !== undefined ? `, hints: ${ep.hints.join(", ")}` : ""})\n`;
    }
    if (o.verdict === "accept") out += `      masquerade: ${e?.masquerade ?? "no"}\n`;
    if (o.affinity.length > 0)
      out += `      session affinity: records the client in ${o.affinity.join(", ")}; its next connections skip the random choice\n`;
    out += "      rules:\n";
    o.steps.forEach((s, j) => (out += stepLine(s, rep.causes[i]?.[j])));
  });
  out += `\nVerdict: ${renderVerdict(rep)}\n`;
  return out;
}

/** The verdict over every outcome, in one line. */
export function renderVerdict(rep: TraceReport): string {
  const outcomes = rep.result.outcomes;
  const delivered = outcomes.filter((o) => o.verdict === "accept" && o.dnat !== undefined);
  if (delivered.length === outcomes.length && delivered.length > 0) {
    const masq = delivered.every((o) => o.masquerade)
      ? "masqueraded"
      : delivered.some((o) => o.masquerade)
        ? "masqueraded on some paths"
        : "not masqueraded";
    const eps = delivered.map((o) => `${o.dnat ?? ""} ${pct(o.probability)}`).join(", ");
    return delivered.length === 1
      ? `delivered to ${delivered[0]?.dnat ?? ""}, ${masq}`
      : `delivered to one of ${delivered.length} endpoints (${eps}), ${masq}`;
  }
  return outcomes.map((o, i) => `${pct(o.probability)} ${rep.explanations[i]?.summary ?? o.verdict}`).join("; ");
}

/** `-o json`: the resolved flow, every outcome with its explanation and steps. */
export function traceToJSON(rep: TraceReport): string {
  const r = rep.resolved;
  const svc = r.destination.service?.metadata;
  const doc = {
    kind: "Trace",
    node: r.node.metadata?.name ?? "",
    proxyMode: rep.mode,
    ipFamily: r.family,
    clusterCIDR: rep.clusterCIDR,
    rules: rep.rulesFrom,
    source: r.source,
    destination: {
      ip: r.destination.ip,
      port: r.destination.port,
      protocol: r.destination.protocol.toUpperCase(),
      ...(svc !== undefined
        ? { service: { namespace: svc.namespace, name: svc.name, port: r.destination.servicePort?.name ?? "", via: r.destination.via } }
        : {}),
    },
    packet: rep.result.packet,
    outcomes: rep.result.outcomes.map((o, i) => ({
      ...o,
      steps: o.steps.map((s, j) => ({ ...s, cause: rep.causes[i]?.[j] })),
      explanation: rep.explanations[i],
    })),
  };
  return `${JSON.stringify(doc, null, 4)}\n`;
}
