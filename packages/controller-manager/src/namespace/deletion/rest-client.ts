/**
 * A small JSON REST client over the kubeconfig (client-go's rest.RESTClient, the part the namespace
 * deleter needs): any path, any verb, Status bodies turned into StatusErrors. The typed client-node
 * APIs know only built-in kinds; the deleter works on whatever discovery lists, as upstream's
 * metadata client does.
 */
import { request as httpRequest, type RequestOptions } from "node:http";
import { request as httpsRequest } from "node:https";
import type { KubeConfig } from "@kubernetes/client-node";
import { toStatusError } from "@servicenet/client/errors";

/** One request: method, absolute API path (with query), optional JSON body; resolves to the parsed body. */
export type RESTRequest = (method: string, path: string, body?: unknown) => Promise<unknown>;

/** A RESTRequest against the current context's cluster with its credentials. */
export function restRequester(kc: KubeConfig): RESTRequest {
  return async (method, path, body) => {
    const cluster = kc.getCurrentCluster();
    if (!cluster) throw new Error("no current cluster in the kubeconfig");
    const server = new URL(cluster.server);
    const url = new URL(server.pathname.replace(/\/$/, "") + path, server);
    const data = body === undefined ? undefined : JSON.stringify(body);
    const opts: RequestOptions = {
      method,
      headers: {
        Accept: "application/json",
        ...(data !== undefined ? { "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(data)) } : {}),
      },
    };
    await kc.applyToHTTPSOptions(opts);
    // The TLS agent has no business on a plain-HTTP server (client-go ignores TLS config there).
    if (url.protocol === "http:") delete opts.agent;
    const { status, text } = await send(url, opts, data);
    if (status < 200 || status > 299) throw toStatusError({ statusCode: status, body: text }) ?? new Error(`HTTP ${status}`);
    return text === "" ? undefined : (JSON.parse(text) as unknown);
  };
}

function send(url: URL, opts: RequestOptions, data: string | undefined): Promise<{ status: number; text: string }> {
  const doRequest = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = doRequest(url, opts, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(data);
  });
}
