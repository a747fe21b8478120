/**
 * A small keep-alive HTTPS client for the apiserver named by a kubeconfig. The fault suites need
 * what client-node hides: the raw status of every response, network errors told apart from API
 * errors, and a hard per-request timeout (so that a hang is a failure, not a stuck test).
 */
import { Agent, request } from "node:https";
import { KubeConfig } from "@kubernetes/client-node";

/** A decoded Kubernetes JSON object (the suites read fields ad hoc). */
export type Json = any;

/** One HTTP answer: the status code and the decoded JSON body (undefined when not JSON). */
export interface ApiResponse {
  status: number;
  body: Json;
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

/** Reads server, CA and token from the kubeconfig `servicenet up` wrote. */
export function apiClientFromKubeconfig(kubeconfigPath: string, maxSockets = 32): ApiClient {
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfigPath);
  const server = kc.getCurrentCluster()!.server;
  const caData = kc.getCurrentCluster()!.caData;
  const token = kc.getCurrentUser()!.token ?? "";
  const agent = new Agent({ keepAlive: true, maxSockets, ...(caData ? { ca: Buffer.from(caData, "base64").toString() } : {}) });
  const url = new URL(server);
  const call = (method: string, path: string, body?: unknown, timeoutMs = 30_000): Promise<ApiResponse> =>
    new Promise((resolve, reject) => {
      const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      const req = request(
        {
          agent,
          host: url.hostname,
          port: url.port,
          method,
          path,
          headers: { authorization: `Bearer ${token}`, accept: "application/json", ...(data ? { "content-type": "application/json", "content-length": data.length } : {}) },
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
            resolve({ status: res.statusCode ?? 0, body: parsed });
          });
        },
      );
      const timer = setTimeout(() => {
        req.destroy();
        reject(new NetworkError("TIMEOUT", `${method} ${path}: no answer in ${timeoutMs} ms`));
      }, timeoutMs);
      req.on("error", (e) => {
        clearTimeout(timer);
        reject(new NetworkError((e as NodeJS.ErrnoException).code ?? "EREQUEST", `${method} ${path}: ${e.message}`));
      });
      req.end(data);
    });
  return { server, call, close: () => agent.destroy() };
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
