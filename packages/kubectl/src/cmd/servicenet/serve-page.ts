/**
 * The dataplane page of `servicenet serve`: per node, each Service port's
 * endpoints after topology and traffic-policy filtering, as that node's
 * kube-proxy categorizes them (nodeServiceEndpoints: CategorizeEndpoints of
 * pkg/proxy/topology.go), and a form that traces a flow through the node's
 * rules. One self-contained document: no script, no external resource; the
 * form is a GET so a trace is a link. Every string from the API is escaped.
 */
import type { Node } from "@servicenet/api";
import type { Endpoint, NodeServicePort, ProxyMode } from "@servicenet/kube-proxy";
import { escapeHTML as esc } from "@servicenet/printers/usage";

export interface TraceForm {
  readonly source: string;
  readonly destination: string;
  readonly namespace: string;
  readonly proxyMode: ProxyMode;
}

export interface DataplanePage {
  readonly nodes: readonly Node[];
  /** The node shown; undefined when the cluster has no nodes. */
  readonly node?: Node;
  readonly zone: string;
  readonly ports: readonly NodeServicePort[];
  readonly form: TraceForm;
  /** The rendered trace result (serve-trace-html.ts), or "". */
  readonly traceHTML: string;
  readonly generatedAt: Date;
}

const style = `body{font:14px system-ui,sans-serif;margin:1.5em;color:#222}h1{font-size:1.4em}nav a{margin-right:.8em}
nav a.current{font-weight:bold;text-decoration:none;color:#222}table{border-collapse:collapse;margin:.5em 0}
td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}th{background:#f3f3f3}
code{font:12px ui-monospace,monospace}.ep{display:block;white-space:pre-wrap;word-break:break-word}.none{color:#b00}.muted{color:#777}
form{background:#f6f8fa;border:1px solid #ddd;padding:.8em;margin:1em 0}label{margin-right:1em}
input{font:13px ui-monospace,monospace;width:14em}.outcome{border-left:4px solid #2f9e5a;padding-left:.8em;margin:1em 0}
.outcome.drop,.outcome.reject{border-color:#c0392b}.error{color:#b00}.verdict{font-weight:bold}dt{font-weight:bold;float:left;width:7em}dd{margin-left:7.5em}`;

function endpointsCell(eps: readonly Endpoint[] | null, p: NodeServicePort, policy: string | null): string {
  if (eps === null) return `<td class="muted">not externally accessible</td>`;
  if (eps.length === 0) {
    const why = !p.hasAnyEndpoints ? "no endpoints: REJECT" : `no local endpoints for ${policy ?? ""}=Local: DROP`;
    return `<td class="none">${esc(why)}</td>`;
  }
  return `<td>${eps.map((e) => `<code class="ep">${esc(e.endpoint)}${e.isLocal ? " (local)" : ""}${e.ready ? "" : " (terminating)"}</code>`).join("")}</td>`;
}

function portRow(p: NodeServicePort): string {
  const name = `${p.namespace}/${p.name}${p.port === "" ? "" : `:${p.port}`}`;
  const addr = `${p.clusterIP.includes(":") ? `[${p.clusterIP}]` : p.clusterIP}:${p.servicePort}/${p.protocol}`;
  const dest = `svc/${p.name}${p.port === "" ? "" : `:${p.port}`}`;
  const all = p.endpoints.map((e) => `<code class="ep">${esc(e.endpoint + hints(e))}</code>`).join("");
  return (
    `<tr data-service="${esc(name)}" data-family="${p.family}"><td>${esc(name)}</td><td>${p.family}</td><td><code>${esc(addr)}</code>` +
    `${p.nodePort !== 0 ? `<br><code>NodePort ${p.nodePort}</code>` : ""}</td>` +
    `<td>internal: ${p.internalTrafficPolicy}<br>external: ${p.externalTrafficPolicy ?? "-"}${p.topologyMode === "" ? "" : `<br>topology: ${p.topologyMode}`}</td>` +
    `<td>${all === "" ? `<span class="none">none</span>` : all}</td>` +
    endpointsCell(p.internalEndpoints, p, "internalTrafficPolicy") +
    endpointsCell(p.externalEndpoints, p, "externalTrafficPolicy") +
    `<td><code>${esc(dest)}</code></td></tr>`
  );
}

function hints(e: Endpoint): string {
  const h = [...e.zoneHints.map((z) => `zone ${z}`), ...e.nodeHints.map((n) => `node ${n}`)];
  const cond = e.ready ? "" : e.serving && e.terminating ? " serving, terminating" : " not ready";
  return `${cond}${h.length > 0 ? ` [hints: ${h.join(", ")}]` : ""}`;
}

function formHTML(page: DataplanePage): string {
  const node = page.node?.metadata?.name ?? "";
  const f = page.form;
  const mode = (m: ProxyMode) => `<option value="${m}"${f.proxyMode === m ? " selected" : ""}>${m}</option>`;
  return (
    `<form method="get" action="" id="trace-form"><input type="hidden" name="node" value="${esc(node)}">` +
    `<label>Source <input name="source" value="${esc(f.source)}" placeholder="pod/NAME, node/NAME or an IP"></label>` +
    `<label>Destination <input name="destination" value="${esc(f.destination)}" placeholder="svc/NAME:PORT or IP:PORT"></label>` +
    `<label>Namespace <input name="namespace" value="${esc(f.namespace)}" style="width:8em"></label>` +
    `<label>Proxy mode <select name="proxyMode">${mode("iptables")}${mode("nftables")}</select></label>` +
    `<button type="submit">Trace</button></form>`
  );
}

/** The whole page for one node. */
export function renderDataplanePage(page: DataplanePage): string {
  const current = page.node?.metadata?.name ?? "";
  const nav = page.nodes
    .map((n) => n.metadata?.name ?? "")
    .map((n) => `<a href="?node=${encodeURIComponent(n)}"${n === current ? ` class="current"` : ""}>${esc(n)}</a>`)
    .join("");
  const body =
    page.node === undefined
      ? `<p class="none">${page.nodes.length === 0 ? "The cluster has no nodes." : "Pick a node."}</p>${page.traceHTML}`
      : `<h2>Node ${esc(current)}${page.zone === "" ? "" : ` (zone ${esc(page.zone)})`}</h2>` +
        `<p>Each Service port as this node's kube-proxy categorizes its endpoints: ClusterIP traffic follows internalTrafficPolicy, ` +
        `NodePort, external IP and LoadBalancer traffic follows externalTrafficPolicy; topology hints narrow the Cluster endpoints.</p>` +
        `<table class="ports"><thead><tr><th>Service port</th><th>Family</th><th>Address</th><th>Policies</th><th>Endpoints (slices)</th>` +
        `<th>ClusterIP traffic reaches</th><th>External traffic reaches</th><th>Trace as</th></tr></thead>` +
        `<tbody>${page.ports.map(portRow).join("")}</tbody></table>` +
        `<h2>Trace a flow from this node</h2>${formHTML(page)}${page.traceHTML}`;
  return (
    `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>servicenet dataplane${current === "" ? "" : `: ${esc(current)}`}</title>` +
    `<style>${style}</style></head><body><h1>servicenet dataplane</h1>` +
    `<p class="meta">servicenet-kubectl servicenet serve, ${esc(page.generatedAt.toISOString())}</p><nav>Nodes: ${nav}</nav>${body}</body></html>\n`
  );
}
