/**
 * A raw REST client over a KubeConfig: `@kubernetes/client-node` loads the
 * kubeconfig and applies its TLS material and credentials
 * (applyToHTTPSOptions); requests go through node:http/https so the CLI can
 * send kubectl's Accept headers (server-side Tables) and see raw Status bodies.
 */
import { request as httpRequest } from "node:http";
import { request as httpsRequest, type RequestOptions } from "node:https";
import { KubeConfig } from "@kubernetes/client-node";
import type { Status, WatchEvent } from "@servicenet/api";
import { KubeconfigError, kubeconfigPath, loadKubeConfig as loadClientConfig } from "@servicenet/client/tools/clientcmd";
import { APIError, CLIError, connectionErrorMessage, statusErrorMessage } from "./errors.ts";

/** Accept header kubectl sends for human-readable `get`. */
export const tableAccept =
  "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";

/** A request body and its media type, for create/apply/delete. */
export interface RequestBody {
  contentType: string;
  data: string;
}

export interface Client {
  /** GET `path` (with query) and decode JSON; API failures throw APIError (a CLIError in kubectl's words). */
  get<T>(path: string, accept?: string): Promise<T>;
  /** Any verb with an optional body; same decoding and errors as `get`. */
  request<T>(method: string, path: string, body?: RequestBody, accept?: string): Promise<T>;
  /**
   * Opens a watch (`path` must carry `watch=1`) and calls `onEvent` per line
   * until the server ends the stream or `signal` aborts.
   */
  watch(path: string, accept: string, onEvent: (e: WatchEvent<unknown>) => void, signal?: AbortSignal): Promise<void>;
  /** The kubeconfig context's namespace, or "default". */
  namespace: string;
}

/** Which kubeconfig file to read (clientcmd's loading rules). */
export { kubeconfigPath };

/** Loads the kubeconfig (clientcmd's loader), failing like kubectl on a missing or unparsable explicit file. */
export function loadKubeConfig(path: string, explicit: boolean): KubeConfig {
  try {
    // kubectl checks the context only when it connects; without one it falls back to localhost:8080.
    return loadClientConfig(path, { validate: false, reuseConnections: false });
  } catch (err) {
    if (!(err instanceof KubeconfigError)) throw err;
    if (err.reason === "NotFound") {
      if (!explicit) return new KubeConfig(); // no config at all: kubectl falls back to localhost:8080
      throw new CLIError(`error: stat ${path}: no such file or directory`);
    }
    const cause = err.cause instanceof Error ? err.cause.message : String(err.cause);
    throw new CLIError(`error: error loading config file "${path}": ${cause}`);
  }
}

function hostPortOf(server: URL): string {
  const port = server.port !== "" ? server.port : server.protocol === "https:" ? "443" : "80";
  // URL.hostname keeps IPv6 brackets, as net.JoinHostPort would add them.
  return `${server.hostname}:${port}`;
}

/**
 * client-node refuses plain-http servers unless skip-tls-verify is set (it
 * only affects TLS, so it is meaningless there); kubectl accepts http://, so
 * for those the options come from a copy with the flag set.
 */
function forPlainHTTP(kc: KubeConfig): KubeConfig {
  const current = kc.getCurrentCluster();
  if (current === null || !current.server.startsWith("http:") || current.skipTLSVerify) return kc;
  const copy = new KubeConfig();
  copy.loadFromOptions({
    clusters: kc.getClusters().map((c) => (c.name === current.name ? { ...c, skipTLSVerify: true } : c)),
    users: kc.getUsers(),
    contexts: kc.getContexts(),
    currentContext: kc.getCurrentContext(),
  });
  return copy;
}

/**
 * The texts of the RFC 7234 code-299 `Warning` headers of a response, in order
 * (client-go `rest/warnings.go` parseWarningHeaders: other codes are ignored).
 */
export function warningTexts(rawHeaders: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (rawHeaders[i]!.toLowerCase() !== "warning") continue;
    for (const m of rawHeaders[i + 1]!.matchAll(/(\d{3}) \S+ "((?:[^"\\]|\\.)*)"/g)) {
      if (m[1] === "299") out.push(m[2]!.replace(/\\(.)/g, "$1"));
    }
  }
  return out;
}

/**
 * Builds a Client for the kubeconfig's current context. `onWarning` gets each
 * server warning once per client, as kubectl's deduplicating WarningWriter
 * prints them (`Warning: <text>` on stderr).
 */
export function newClient(config: KubeConfig, onWarning?: (text: string) => void): Client {
  const seen = new Set<string>();
  const warn = (rawHeaders: readonly string[]): void => {
    for (const w of warningTexts(rawHeaders)) {
      if (seen.has(w)) continue;
      seen.add(w);
      onWarning?.(w);
    }
  };
  const kc = forPlainHTTP(config);
  const cluster = kc.getCurrentCluster();
  const serverURL = new URL(cluster?.server ?? "http://localhost:8080");
  const hostPort = hostPortOf(serverURL);
  const ctx = kc.getContextObject(kc.getCurrentContext());
  const namespace = ctx?.namespace !== undefined && ctx.namespace !== "" ? ctx.namespace : "default";
  const basePath = serverURL.pathname.replace(/\/$/, "");

  const options = async (method: string, accept: string, body?: RequestBody): Promise<RequestOptions> => {
    const headers: Record<string, string> = { Accept: accept };
    if (body !== undefined) {
      headers["Content-Type"] = body.contentType;
      // Node sends DELETE bodies unframed unless the length is given.
      headers["Content-Length"] = String(Buffer.byteLength(body.data));
    }
    const opts: RequestOptions = { method, headers };
    try {
      await kc.applyToHTTPSOptions(opts);
    } catch (err) {
      throw new CLIError(`error: ${err instanceof Error ? err.message : String(err)}`);
    }
    return opts;
  };

  const request = async <T>(method: string, path: string, body?: RequestBody, accept = "application/json"): Promise<T> => {
    const opts = await options(method, accept, body);
    const url = new URL(basePath + path, serverURL);
    const { status, body: text } = await send(url, opts, hostPort, body?.data, warn);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (status < 200 || status > 299) throw apiError(status, parsed as Status | undefined, text);
    if (parsed === undefined) throw new CLIError(`error: the server returned a body that is not JSON (${status})`);
    return parsed as T;
  };
  const get = <T>(path: string, accept = "application/json"): Promise<T> => request<T>("GET", path, undefined, accept);

  const watch = async (path: string, accept: string, onEvent: (e: WatchEvent<unknown>) => void, signal?: AbortSignal): Promise<void> => {
    const opts = await options("GET", accept);
    if (signal !== undefined) opts.signal = signal;
    const url = new URL(basePath + path, serverURL);
    await stream(url, opts, hostPort, onEvent, warn);
  };
  return { get, request, watch, namespace };
}

function apiError(httpCode: number, status: Status | undefined, raw: string): APIError {
  return new APIError(statusErrorMessage(httpCode, status, raw), httpCode, status?.kind === "Status" ? status : undefined);
}

function send(
  url: URL,
  opts: RequestOptions,
  hostPort: string,
  data: string | undefined,
  warn: (rawHeaders: string[]) => void,
): Promise<{ status: number; body: string }> {
  const req = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const r = req(url, opts, (res) => {
      warn(res.rawHeaders);
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", (err) => reject(new CLIError(connectionErrorMessage(err, hostPort))));
    });
    r.on("error", (err) => reject(new CLIError(connectionErrorMessage(err, hostPort))));
    r.end(data);
  });
}

/** Reads a watch response line by line; an abort ends it quietly. */
function stream(
  url: URL,
  opts: RequestOptions,
  hostPort: string,
  onEvent: (e: WatchEvent<unknown>) => void,
  warn: (rawHeaders: string[]) => void,
): Promise<void> {
  const req = url.protocol === "https:" ? httpsRequest : httpRequest;
  const aborted = (): boolean => opts.signal?.aborted === true;
  return new Promise((resolve, reject) => {
    const r = req(url, opts, (res) => {
      warn(res.rawHeaders);
      const code = res.statusCode ?? 0;
      let buf = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        buf += chunk;
        if (code < 200 || code > 299) return;
        let nl: number;
        while ((nl = buf.indexOf("\n")) >= 0) {
          const line = buf.slice(0, nl).trim();
          buf = buf.slice(nl + 1);
          if (line === "") continue;
          try {
            onEvent(JSON.parse(line) as WatchEvent<unknown>);
          } catch (err) {
            r.destroy();
            reject(err instanceof Error ? err : new Error(String(err)));
            return;
          }
        }
      });
      res.on("end", () => {
        if (code >= 200 && code <= 299) return resolve();
        let parsed: unknown;
        try {
          parsed = JSON.parse(buf);
        } catch {
          parsed = undefined;
        }
        reject(apiError(code, parsed as Status | undefined, buf));
      });
      res.on("error", (err) => (aborted() ? resolve() : reject(new CLIError(connectionErrorMessage(err, hostPort)))));
    });
    r.on("error", (err) => (aborted() ? resolve() : reject(new CLIError(connectionErrorMessage(err, hostPort)))));
    r.end();
  });
}
