/**
 * The garbage collector's client for any resource (upstream uses client-go's metadata client and
 * dynamic discovery): plain JSON GET, DELETE with DeleteOptions and PATCH on API paths, with the
 * kubeconfig's credentials and TLS (client-node's applyToHTTPSOptions). A non-2xx answer throws
 * an HTTPError that @servicenet/client/errors reads as the server's Status.
 */
import { Agent as HttpAgent, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest, type RequestOptions } from "node:https";
import { KubeConfig } from "@kubernetes/client-node";

/** A non-2xx answer: `code` and the raw `body` (a Status), as client-node's ApiException carries them. */
export class HTTPError extends Error {
  override readonly name = "HTTPError";
  readonly code: number;
  readonly body: string;
  constructor(code: number, body: string) {
    super(`HTTP ${code}: ${body.slice(0, 200)}`);
    this.code = code;
    this.body = body;
  }
}

export interface RawClient {
  /** Any verb on `path` (with query); the JSON answer. */
  request<T>(method: string, path: string, body?: unknown, contentType?: string): Promise<T>;
}

// client-node refuses to build TLS options for an http:// server unless skip-tls-verify is set,
// which means nothing there; a copy with the flag set serves plain-HTTP test apiservers.
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

/** A RawClient for the kubeconfig's current context. */
export function rawClient(config: KubeConfig): RawClient {
  const kc = forPlainHTTP(config);
  const server = new URL(kc.getCurrentCluster()?.server ?? "http://localhost:8080");
  const base = server.pathname.replace(/\/$/, "");
  // applyToHTTPSOptions builds a new agent (a new connection and TLS handshake) per request; one
  // keep-alive copy of it is kept instead, as client-go keeps one transport per rest config.
  let agent: HttpAgent | undefined;
  const pooled = (fresh: unknown): HttpAgent | undefined => {
    if (!(fresh instanceof HttpAgent)) return undefined;
    if (agent === undefined) {
      const options = { ...(fresh as HttpAgent & { options: object }).options, keepAlive: true };
      agent = fresh instanceof HttpsAgent ? new HttpsAgent(options) : new HttpAgent(options);
    }
    fresh.destroy();
    return agent;
  };
  return {
    async request<T>(method: string, path: string, body?: unknown, contentType = "application/json"): Promise<T> {
      const data = body === undefined ? undefined : JSON.stringify(body);
      const headers: Record<string, string> = {
        Accept: "application/json",
        "User-Agent": "servicenet-controller-manager/garbage-collector",
      };
      if (data !== undefined) {
        headers["Content-Type"] = contentType;
        headers["Content-Length"] = String(Buffer.byteLength(data));
      }
      const opts: RequestOptions = { method, headers };
      await kc.applyToHTTPSOptions(opts);
      opts.agent = pooled(opts.agent) ?? opts.agent;
      const { status, text } = await send(new URL(base + path, server), opts, data);
      if (status < 200 || status > 299) throw new HTTPError(status, text);
      return JSON.parse(text) as T;
    },
  };
}

function send(url: URL, opts: RequestOptions, data: string | undefined): Promise<{ status: number; text: string }> {
  const req = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const r = req(url, opts, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    r.on("error", reject);
    r.end(data);
  });
}
