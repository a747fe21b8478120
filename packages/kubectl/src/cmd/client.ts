/**
 * kubectl's client: the one REST client of `@servicenet/client/rest` (the kubeconfig's TLS
 * material and credentials, keep-alive, plain http) with kubectl's Accept headers (server-side
 * Tables), deduplicated warnings, and failures in kubectl's words (CLIError, APIError).
 */
import { KubeConfig } from "@kubernetes/client-node";
import type { Status, WatchEvent } from "@servicenet/api";
import { newRESTClient, RESTConfigError, type RawRequest, type RawResponse, type RESTClient } from "@servicenet/client/rest";
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
 * Builds a Client for the kubeconfig's current context. `onWarning` gets each
 * server warning once per client, as kubectl's deduplicating WarningWriter
 * prints them (`Warning: <text>` on stderr).
 */
export function newClient(config: KubeConfig, onWarning?: (text: string) => void): Client {
  const seen = new Set<string>();
  const rest = newRESTClient(config, {
    onWarning: (w) => {
      if (seen.has(w)) return;
      seen.add(w);
      onWarning?.(w);
    },
  });
  const hostPort = hostPortOf(rest.server);
  const ctx = config.getContextObject(config.getCurrentContext());
  const namespace = ctx?.namespace !== undefined && ctx.namespace !== "" ? ctx.namespace : "default";

  const request = async <T>(method: string, path: string, body?: RequestBody, accept = "application/json"): Promise<T> => {
    const req: RawRequest = { accept, ...(body !== undefined ? { body: body.data, contentType: body.contentType } : {}) };
    const res = await send(rest, hostPort, (r) => r.do(method, path, req));
    const parsed = parseJSON(res.body);
    if (res.status < 200 || res.status > 299) throw apiError(res.status, parsed as Status | undefined, res.body);
    if (parsed === undefined) throw new CLIError(`error: the server returned a body that is not JSON (${res.status})`);
    return parsed as T;
  };
  const get = <T>(path: string, accept = "application/json"): Promise<T> => request<T>("GET", path, undefined, accept);

  const watch = async (path: string, accept: string, onEvent: (e: WatchEvent<unknown>) => void, signal?: AbortSignal): Promise<void> => {
    const req: RawRequest = { accept, ...(signal !== undefined ? { signal } : {}) };
    // What onEvent (or the line's parse) throws ends the watch unchanged, not as a transport failure.
    let thrown: { err: unknown } | undefined;
    const onLine = (line: string): void => {
      try {
        onEvent(JSON.parse(line) as WatchEvent<unknown>);
      } catch (err) {
        thrown = { err };
        throw err;
      }
    };
    const res = await send(rest, hostPort, (r) => r.stream("GET", path, req, onLine)).catch((err: unknown) => {
      throw thrown !== undefined ? thrown.err : err;
    });
    if (res.aborted === true || (res.status >= 200 && res.status <= 299)) return;
    throw apiError(res.status, parseJSON(res.body) as Status | undefined, res.body);
  };
  return { get, request, watch, namespace };
}

/** One exchange; a failure to connect, or to apply the credentials, in kubectl's words. */
async function send(rest: RESTClient, hostPort: string, exchange: (r: RESTClient) => Promise<RawResponse>): Promise<RawResponse> {
  try {
    return await exchange(rest);
  } catch (err) {
    if (err instanceof RESTConfigError) throw new CLIError(`error: ${err.message}`);
    throw new CLIError(connectionErrorMessage(err, hostPort));
  }
}

function parseJSON(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function apiError(httpCode: number, status: Status | undefined, raw: string): APIError {
  return new APIError(statusErrorMessage(httpCode, status, raw), httpCode, status?.kind === "Status" ? status : undefined);
}
