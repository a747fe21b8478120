/**
 * The components' one raw REST client over a kubeconfig (client-go's rest.RESTClient): any verb
 * on any API path, the kubeconfig's credentials and TLS material (client-node's
 * applyToHTTPSOptions), plain-HTTP servers, the KubeConfig's pool of keep-alive connections
 * (`reuseConnections`: capped for requests, uncapped for watches; client-go keeps one transport per
 * TLS configuration), server warnings, and non-2xx answers as StatusErrors
 * (apierrors.FromObject). The typed client-node APIs know only built-in kinds; the garbage
 * collector, the namespace deleter and kubectl work on whatever discovery lists.
 */
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest, type RequestOptions } from "node:https";
import { KubeConfig } from "@kubernetes/client-node";
import type { StatusError } from "@servicenet/api/errors";
import { realClock, sleep, type Clock } from "@servicenet/component-base/clock";
import { formatGoDuration } from "@servicenet/component-base/duration";
import { toStatusError } from "../errors/index.ts";
import { pooledAgent, type ConnectionKind } from "../tools/clientcmd/connection-reuse.ts";
import { setUserAgent, userAgentOf } from "./config-user-agent.ts";
import { rateLimiterOf, shareRateLimit } from "./rate-limit.ts";
import { warningTexts } from "./warnings.ts";

/** What `do` sends besides the verb and path. */
export interface RawRequest {
  /** The encoded body; sent with a Content-Length (Node frames DELETE bodies otherwise). */
  body?: string;
  contentType?: string;
  accept?: string;
  signal?: AbortSignal;
}

/** A whole answer: code, raw headers (name, value, ...) and the body as text. */
export interface RawResponse {
  status: number;
  rawHeaders: string[];
  body: string;
  /** The request's signal aborted it (before or during the answer): nothing is wrong. */
  aborted?: boolean;
}

export interface RESTClientOptions {
  /** The User-Agent header (client-go's rest.Config.UserAgent); default: the KubeConfig's (`setUserAgent`). */
  userAgent?: string;
  /** Called with the text of each code-299 Warning header of every answer (client-go's WarningHandler). */
  onWarning?: (text: string) => void;
  /**
   * rest.Config's QPS and Burst for this client alone: its requests (watches included) wait for a
   * token of one bucket refilled at `qps` per second, `burst` at most (client-go's `tryThrottle`),
   * besides the bucket of a KubeConfig made by `withRateLimit`. As rest.RESTClientFor: 0 means
   * DefaultQPS 5 and DefaultBurst 10, a negative `qps` no limit; absent: no limit of its own.
   */
  qps?: number;
  burst?: number;
  /** The throttle's clock (tests). */
  clock?: Clock;
  /**
   * rest.Config.Timeout: each request carries `?timeout=<duration>` (request.go URL) and fails
   * with `context deadline exceeded` when its answer has not ended by then (http.Client.Timeout);
   * 0 or absent: none. The kubelet's heartbeat client has one (cmd/kubelet/app/server.go).
   */
  timeoutMs?: number;
}

/** A raw REST client for the kubeconfig's current context; see `newRESTClient`. */
export interface RESTClient {
  /** The server URL of the current context (http://localhost:8080 without one, as kubectl). */
  readonly server: URL;
  /**
   * Sends one request and reads the whole answer; rejects only when no answer comes: a
   * RESTConfigError when the credentials cannot be applied, else the transport's error. The
   * methods need no `this`: they may be passed on alone.
   */
  do(this: void, method: string, path: string, req?: RawRequest): Promise<RawResponse>;
  /**
   * Sends one request and calls `onLine` with each non-empty line of a 2xx answer as it arrives (a
   * watch). Resolves when the server ends the stream or `req.signal` aborts; a non-2xx answer
   * resolves with its whole body and no lines. An error thrown by `onLine` ends the request and
   * rejects with that error. Streams use the pool's uncapped watch agent, so open watches never
   * hold the sockets short requests wait for.
   */
  stream(this: void, method: string, path: string, req: RawRequest, onLine: (line: string) => void): Promise<RawResponse>;
  /** `body` as JSON, the answer parsed as JSON (undefined when empty); a non-2xx answer throws its StatusError. */
  request<T>(this: void, method: string, path: string, body?: unknown, contentType?: string): Promise<T>;
}

// client-node refuses to build TLS options for an http:// server unless skip-tls-verify is set,
// which means nothing there (client-go ignores TLS config for http); a copy with the flag set
// serves plain-HTTP servers.
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
  shareRateLimit(kc, copy);
  const userAgent = userAgentOf(kc);
  if (userAgent !== undefined) setUserAgent(copy, userAgent);
  return copy;
}

/** The kubeconfig's credentials or TLS material could not be applied (a failing exec plugin, an unreadable file). */
export class RESTConfigError extends Error {
  override readonly name = "RESTConfigError";
}

/** A request that outlived the client's timeout (rest.Config.Timeout): Go's `Put "<url>": context deadline exceeded`. */
export class RequestTimeoutError extends Error {
  override readonly name = "RequestTimeoutError";
  constructor(method: string, url: URL) {
    super(`${method.charAt(0)}${method.slice(1).toLowerCase()} "${url.href}": context deadline exceeded`);
  }
}

/** The error of a non-2xx answer: its Status body as a StatusError (a generic one by code without). */
export function statusErrorOf(res: Pick<RawResponse, "status" | "body">): StatusError {
  return toStatusError({ statusCode: res.status, body: res.body }) as StatusError;
}

/** A RESTClient for `config`'s current context. */
export function newRESTClient(config: KubeConfig, options: RESTClientOptions = {}): RESTClient {
  const kc = forPlainHTTP(config);
  const server = new URL(kc.getCurrentCluster()?.server ?? "http://localhost:8080");
  const base = server.pathname.replace(/\/$/, "");
  const clock = options.clock ?? realClock;
  const limiter = options.qps === undefined ? undefined : rateLimiterOf(clock, options.qps, options.burst ?? 0);
  const timeoutMs = options.timeoutMs ?? 0;
  const open = async (method: string, path: string, req: RawRequest, kind: ConnectionKind): Promise<{ url: URL; opts: RequestOptions }> => {
    const wait = limiter?.when(null) ?? 0;
    if (wait > 0) await sleep(clock, wait, req.signal);
    const headers: Record<string, string> = { Accept: req.accept ?? "application/json" };
    if (options.userAgent !== undefined) headers["User-Agent"] = options.userAgent;
    if (req.body !== undefined) {
      headers["Content-Type"] = req.contentType ?? "application/json";
      headers["Content-Length"] = String(Buffer.byteLength(req.body));
    }
    const opts: RequestOptions = { method, headers };
    try {
      await kc.applyToHTTPSOptions(opts);
    } catch (err) {
      throw new RESTConfigError(err instanceof Error ? err.message : String(err), { cause: err });
    }
    // applyToHTTPSOptions builds a new agent (a new connection and TLS handshake) per request: the
    // pool of `config` (shared with its typed clients) replaces it.
    opts.agent = pooledAgent(config, opts.agent, kind) ?? opts.agent;
    if (req.signal !== undefined) opts.signal = req.signal;
    const url = new URL(base + path, server);
    if (timeoutMs > 0) url.searchParams.set("timeout", formatGoDuration(timeoutMs));
    return { url, opts };
  };
  const warn = (res: IncomingMessage): void => {
    if (options.onWarning === undefined) return;
    for (const w of warningTexts(res.rawHeaders)) options.onWarning(w);
  };

  const client: RESTClient = {
    server,
    async do(method, path, req = {}) {
      const { url, opts } = await open(method, path, req, "request");
      return send(url, opts, req.body, warn, undefined, timeoutMs);
    },
    async stream(method, path, req, onLine) {
      const { url, opts } = await open(method, path, req, "watch");
      return send(url, opts, req.body, warn, onLine, timeoutMs);
    },
    async request<T>(method: string, path: string, body?: unknown, contentType?: string): Promise<T> {
      const req: RawRequest = body === undefined ? {} : { body: JSON.stringify(body), ...(contentType ? { contentType } : {}) };
      const res = await client.do(method, path, req);
      if (res.status < 200 || res.status > 299) throw statusErrorOf(res);
      return (res.body === "" ? undefined : JSON.parse(res.body)) as T;
    },
  };
  return client;
}

function send(
  url: URL,
  opts: RequestOptions,
  data: string | undefined,
  warn: (res: IncomingMessage) => void,
  onLine: ((line: string) => void) | undefined,
  timeoutMs: number,
): Promise<RawResponse> {
  const doRequest = url.protocol === "https:" ? httpsRequest : httpRequest;
  const aborted = (): boolean => opts.signal?.aborted === true;
  return new Promise((resolve, reject) => {
    let answer: RawResponse | undefined;
    let timer: NodeJS.Timeout | undefined;
    const fail = (err: Error): void => {
      clearTimeout(timer);
      if (aborted()) resolve({ status: answer?.status ?? 0, rawHeaders: answer?.rawHeaders ?? [], body: "", aborted: true });
      else reject(err);
    };
    const req = doRequest(url, opts, (res) => {
      warn(res);
      const status = res.statusCode ?? 0;
      answer = { status, rawHeaders: res.rawHeaders, body: "" };
      const lines = onLine !== undefined && status >= 200 && status <= 299 ? onLine : undefined;
      const chunks: Buffer[] = [];
      let pending = "";
      res.on("data", (c: Buffer) => {
        if (lines === undefined) return void chunks.push(c);
        pending += c.toString("utf8");
        let nl: number;
        while ((nl = pending.indexOf("\n")) >= 0) {
          const line = pending.slice(0, nl).trim();
          pending = pending.slice(nl + 1);
          if (line === "") continue;
          try {
            lines(line);
          } catch (err) {
            req.destroy();
            reject(err instanceof Error ? err : new Error(String(err)));
            return;
          }
        }
      });
      res.on("end", () => {
        clearTimeout(timer);
        resolve({ ...answer!, body: Buffer.concat(chunks).toString("utf8") });
      });
      res.on("error", fail);
    });
    req.on("error", fail);
    // http.Client.Timeout covers the whole exchange, the answer's body included; destroying the
    // request closes its socket, as Go's transport cancels the connection.
    if (timeoutMs > 0) timer = setTimeout(() => req.destroy(new RequestTimeoutError(opts.method ?? "GET", url)), timeoutMs);
    req.end(data);
  });
}
