/**
 * A small keep-alive HTTPS client for the apiserver named by a kubeconfig. The fault suites need
 * what client-node hides: the raw status of every response, network errors told apart from API
 * errors, and a hard per-request timeout (so that a hang is a failure, not a stuck test).
 */
import { Agent as HttpAgent, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { KubeConfig } from "@kubernetes/client-node";

/** A decoded Kubernetes JSON object (the suites read fields ad hoc). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- decoded JSON is read ad hoc; the suites assert on it
export type Json = any;

/** One HTTP answer: the status code and the decoded JSON body (undefined when not JSON). */
export interface ApiResponse {
  status: number;
  body: Json;
  /** The texts of the `Warning: 299 - "..."` headers, in order (absent when there were none). */
  warnings?: string[];
}

/** The quoted texts of every `Warning` header in node's `rawHeaders` (name, value, name, value...). */
export function warningTexts(rawHeaders: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (rawHeaders[i]!.toLowerCase() !== "warning") continue;
    const m = /^\d{3} \S+ (".*")$/.exec(rawHeaders[i + 1]!);
    if (m) out.push(JSON.parse(m[1]!) as string);
  }
  return out;
}

/** A request that got no HTTP answer: `code` is the socket error code or "TIMEOUT". */
export class NetworkError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

/** Client for one apiserver; survives restarts on the same URL (the agent reconnects). */
export interface ApiClient {
  server: string;
  call(method: string, path: string, body?: unknown, timeoutMs?: number): Promise<ApiResponse>;
  close(): void;
}

/** Reads server, CA and credentials (client certificate or token) from the kubeconfig `servicenet up` wrote. */
export function apiClientFromKubeconfig(kubeconfigPath: string, maxSockets = 32): ApiClient {
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfigPath);
  const caData = kc.getCurrentCluster()!.caData;
  const user = kc.getCurrentUser()!;
  const pem = (data: string | undefined): string | undefined => (data ? Buffer.from(data, "base64").toString() : undefined);
  const cert = pem(user.certData);
  const key = pem(user.keyData);
  return apiClient({
    server: kc.getCurrentCluster()!.server,
    token: user.token ?? "",
    maxSockets,
    ...(caData ? { ca: Buffer.from(caData, "base64").toString() } : {}),
    ...(cert && key ? { cert, key } : {}),
  });
}

/** Where and how an {@link apiClient} connects. */
export interface ApiClientOptions {
  /** `https://…` or `http://…`. */
  server: string;
  token: string;
  /** PEM CA bundle for an https server. */
  ca?: string;
  /** PEM client certificate and key (x509 authentication). */
  cert?: string;
  key?: string;
  maxSockets?: number;
}

/**
 * Methods sent again after a reset: GET and HEAD. A PUT or DELETE that had reached the server
 * would answer the second time with 409 or 404, not with what the first attempt did.
 */
const retriable = new Set(["GET", "HEAD"]);

/**
 * True for a request that failed because the keep-alive socket it was written on had been closed
 * by the server while idle (reset or broken pipe on a reused socket): it never ran.
 */
export function isIdleSocketReset(err: { code?: string; reusedSocket?: boolean }): boolean {
  return err.reusedSocket === true && (err.code === "ECONNRESET" || err.code === "EPIPE");
}

/** A keep-alive client for one apiserver. */
export function apiClient(opts: ApiClientOptions): ApiClient {
  const url = new URL(opts.server);
  const tls = url.protocol === "https:";
  const agentOptions = {
    keepAlive: true,
    maxSockets: opts.maxSockets ?? 32,
    ...(opts.ca ? { ca: opts.ca } : {}),
    ...(opts.cert && opts.key ? { cert: opts.cert, key: opts.key } : {}),
  };
  const agent = tls ? new HttpsAgent(agentOptions) : new HttpAgent(agentOptions);
  const send = tls ? httpsRequest : httpRequest;
  const once = (method: string, path: string, data: Buffer | undefined, timeoutMs: number): Promise<ApiResponse> =>
    new Promise((resolve, reject) => {
      const req = send(
        {
          agent,
          host: url.hostname,
          port: url.port,
          method,
          path,
          headers: {
            ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
            accept: "application/json",
            ...(data ? { "content-type": "application/json", "content-length": data.length } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("error", (e) => reject(new NetworkError((e as NodeJS.ErrnoException).code ?? "ERESPONSE", e.message)));
          res.on("end", () => {
            clearTimeout(timer);
            const text = Buffer.concat(chunks).toString();
            let parsed: unknown;
            try {
              parsed = JSON.parse(text);
            } catch {
              parsed = undefined;
            }
            const warnings = warningTexts(res.rawHeaders);
            resolve({ status: res.statusCode ?? 0, body: parsed, ...(warnings.length > 0 ? { warnings } : {}) });
          });
        },
      );
      const timer = setTimeout(() => {
        req.destroy();
        reject(new NetworkError("TIMEOUT", `${method} ${path}: no answer in ${timeoutMs} ms`));
      }, timeoutMs);
      req.on("error", (e) => {
        clearTimeout(timer);
        const code = (e as NodeJS.ErrnoException).code ?? "EREQUEST";
        reject(Object.assign(new NetworkError(code, `${method} ${path}: ${e.message}`), { reusedSocket: req.reusedSocket }));
      });
      req.end(data);
    });
  // A keep-alive socket the server closes as idle can reset the next request written on it
  // (node's documented race; node 20's agent ignores the server's Keep-Alive hint when the agent
  // has no timeout). Like Go's transport, send an idempotent request again, once, on a new socket.
  const call = async (method: string, path: string, body?: unknown, timeoutMs = 30_000): Promise<ApiResponse> => {
    const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    try {
      return await once(method, path, data, timeoutMs);
    } catch (e) {
      if (!(retriable.has(method) && isIdleSocketReset(e as NetworkError & { reusedSocket?: boolean }))) throw e;
      return once(method, path, data, timeoutMs);
    }
  };
  return { server: opts.server, call, close: () => agent.destroy() };
}

/** GET of a list path, all pages (limit 500). */
export async function listAll(c: ApiClient, path: string): Promise<Json[]> {
  const items: Json[] = [];
  let cont = "";
  do {
    const sep = path.includes("?") ? "&" : "?";
    const r = await c.call("GET", `${path}${sep}limit=500${cont ? `&continue=${encodeURIComponent(cont)}` : ""}`);
    if (r.status !== 200) throw new Error(`GET ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    items.push(...(r.body.items ?? []));
    cont = r.body.metadata?.continue ?? "";
  } while (cont);
  return items;
}

/** Runs `fn` over `items` with at most `limit` in flight. */
export async function pool<T>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i]!, i);
      }
    }),
  );
}
