/**
 * `servicenet serve`: the dataplane page on a local port, as `kubectl proxy`
 * serves on one (--address, --port; port 0 picks a free one). The page is
 * served here and not by the apiserver because it runs kube-proxy's own code
 * (CategorizeEndpoints and the proxiers) and components talk to the apiserver
 * only over HTTP; the apiserver's /servicenet/usage page links to it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { EndpointSlice, Node, Service } from "@servicenet/api";
import { labelTopologyZone, nodeServiceEndpoints, type ProxyMode } from "@servicenet/kube-proxy";
import { CLIError } from "../errors.ts";
import { effectiveNamespace, type Context } from "../io.ts";
import { mustResource, resourcePath } from "../resources.ts";
import { renderDataplanePage, type TraceForm } from "./serve-page.ts";
import { traceErrorHTML, traceHTML } from "./serve-trace-html.ts";
import { traceReport } from "./trace.ts";

/** kubectl proxy's default is 8001; the dataplane page takes the next port. */
export const defaultServePort = 8002;

export interface DataplaneServer {
  /** http://ADDRESS:PORT/ */
  readonly url: string;
  close(): Promise<void>;
}

async function list<T>(ctx: Context, resource: string): Promise<T[]> {
  return (await ctx.client.get<{ items?: T[] }>(resourcePath(mustResource(resource), undefined))).items ?? [];
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Renders the page for one request's query (node, and a flow to trace). */
export async function dataplanePage(ctx: Context, query: URLSearchParams, now = new Date()): Promise<string> {
  const [nodes, services, slices] = await Promise.all([
    list<Node>(ctx, "nodes"),
    list<Service>(ctx, "services"),
    list<EndpointSlice>(ctx, "endpointslices"),
  ]);
  nodes.sort((a, b) => ((a.metadata?.name ?? "") < (b.metadata?.name ?? "") ? -1 : 1));
  const wanted = query.get("node") ?? "";
  const node = nodes.find((n) => n.metadata?.name === wanted) ?? (wanted === "" ? nodes[0] : undefined);
  const mode = query.get("proxyMode") ?? ctx.args.proxyMode ?? "iptables";
  const form: TraceForm = {
    source: query.get("source") ?? "",
    destination: query.get("destination") ?? "",
    namespace: query.get("namespace") ?? effectiveNamespace(ctx),
    proxyMode: mode === "nftables" ? "nftables" : "iptables",
  };
  const nodeName = node?.metadata?.name ?? "";
  const zone = node?.metadata?.labels?.[labelTopologyZone] ?? "";
  const ports =
    node === undefined
      ? []
      : nodeServiceEndpoints({
          // PreferSameTrafficDistribution is alpha and off in 1.33, as in kube-proxy's defaults.
          topology: { nodeName, zone, preferSameTrafficDistribution: false },
          families: ["IPv4", "IPv6"],
          services,
          slices,
        });
  let trace = "";
  if (wanted !== "" && node === undefined) trace = traceErrorHTML(`error: nodes "${wanted}" not found`);
  else if (form.source !== "" && form.destination !== "") trace = await traced(ctx, nodeName, form, mode);
  return renderDataplanePage({ nodes, ...(node !== undefined ? { node } : {}), zone, ports, form, traceHTML: trace, generatedAt: now });
}

async function traced(ctx: Context, node: string, form: TraceForm, mode: string): Promise<string> {
  const args = { ...ctx.args, positional: [], node, proxyMode: mode as ProxyMode, namespace: form.namespace };
  try {
    return traceHTML(await traceReport({ ...ctx, args }, form.source, form.destination));
  } catch (err) {
    return traceErrorHTML(messageOf(err));
  }
}

async function handle(ctx: Context, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? "/", "http://localhost");
  if (url.pathname !== "/") {
    res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("404 page not found\n");
    return;
  }
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.writeHead(405, { "Content-Type": "text/plain; charset=utf-8", Allow: "GET, HEAD" }).end("405 method not allowed\n");
    return;
  }
  try {
    const body = await dataplanePage(ctx, url.searchParams);
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" }).end(req.method === "HEAD" ? "" : body);
  } catch (err) {
    res.writeHead(502, { "Content-Type": "text/plain; charset=utf-8" }).end(`${messageOf(err)}\n`);
  }
}

/** Starts the page's HTTP server on `address`:`port`. */
export async function startDataplaneServer(ctx: Context, address: string, port: number): Promise<DataplaneServer> {
  const server = createServer((req, res) => void handle(ctx, req, res));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, address, () => resolve());
  });
  const a = server.address() as AddressInfo;
  const host = a.address.includes(":") ? `[${a.address}]` : a.address;
  return {
    url: `http://${host}:${a.port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Runs `servicenet serve` until the process is interrupted; returns the exit code. */
export async function runServe(ctx: Context): Promise<number> {
  if (ctx.args.positional.length > 0)
    throw new CLIError(`error: unknown command "${ctx.args.positional[0] ?? ""}" for "kubectl servicenet serve"`);
  const port = Number(ctx.args.port ?? defaultServePort);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new CLIError(`error: invalid argument "${ctx.args.port ?? ""}" for "-p, --port" flag: must be a port number`);
  const s = await startDataplaneServer(ctx, ctx.args.address ?? "127.0.0.1", port);
  // kubectl proxy's line, with the page's address.
  ctx.io.stdout.write(`Starting to serve on ${s.url.slice("http://".length, -1)}\n`);
  const signal = ctx.io.signal;
  await new Promise<void>((resolve) => {
    if (signal === undefined) return;
    if (signal.aborted) resolve();
    else signal.addEventListener("abort", () => resolve(), { once: true });
  });
  await s.close();
  return 0;
}
