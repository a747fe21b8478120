/**
 * A raw REST client over a KubeConfig: `@kubernetes/client-node` loads the
 * kubeconfig and applies its TLS material and credentials
 * (applyToHTTPSOptions); requests go through node:http/https so the CLI can
 * send kubectl's Accept headers (server-side Tables) and see raw Status bodies.
 */
import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { request as httpsRequest, type RequestOptions } from "node:https";
import { join } from "node:path";
import { KubeConfig } from "@kubernetes/client-node";
import { CLIError, connectionErrorMessage, statusErrorMessage, type Status } from "./errors.ts";

/** Accept header kubectl sends for human-readable `get`. */
export const tableAccept = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";

export interface Client {
  /** GET `path` (with query) and decode JSON; API failures throw CLIError in kubectl's words. */
  get<T>(path: string, accept?: string): Promise<T>;
  /** The kubeconfig context's namespace, or "default". */
  namespace: string;
}

/**
 * Which kubeconfig file to read: --kubeconfig, else the first existing
 * $KUBECONFIG entry, else ~/.kube/config (kubectl merges every $KUBECONFIG
 * file; we read only the first, see README).
 */
export function kubeconfigPath(flag: string | undefined, env: Record<string, string | undefined>): string {
  if (flag !== undefined && flag !== "") return flag;
  const list = (env.KUBECONFIG ?? "").split(":").filter((p) => p !== "");
  if (list.length > 0) return list[0] ?? "";
  return join(env.HOME ?? "", ".kube", "config");
}

/** Loads the kubeconfig, failing like kubectl on a missing or unparsable explicit file. */
export function loadKubeConfig(path: string, explicit: boolean): KubeConfig {
  const kc = new KubeConfig();
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    if (!explicit) return kc; // no config at all: kubectl falls back to localhost:8080
    throw new CLIError(`error: stat ${path}: no such file or directory`);
  }
  try {
    kc.loadFromString(text);
  } catch (err) {
    throw new CLIError(`error: error loading config file "${path}": ${err instanceof Error ? err.message : String(err)}`);
  }
  return kc;
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

/** Builds a Client for the kubeconfig's current context. */
export function newClient(config: KubeConfig): Client {
  const kc = forPlainHTTP(config);
  const cluster = kc.getCurrentCluster();
  const serverURL = new URL(cluster?.server ?? "http://localhost:8080");
  const hostPort = hostPortOf(serverURL);
  const ctx = kc.getContextObject(kc.getCurrentContext());
  const namespace = ctx?.namespace !== undefined && ctx.namespace !== "" ? ctx.namespace : "default";
  const basePath = serverURL.pathname.replace(/\/$/, "");

  const get = async <T>(path: string, accept = "application/json"): Promise<T> => {
    const opts: RequestOptions = { method: "GET", headers: { Accept: accept } };
    try {
      await kc.applyToHTTPSOptions(opts);
    } catch (err) {
      throw new CLIError(`error: ${err instanceof Error ? err.message : String(err)}`);
    }
    const url = new URL(basePath + path, serverURL);
    const { status, body } = await send(url, opts, hostPort);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      parsed = undefined;
    }
    if (status < 200 || status > 299) throw new CLIError(statusErrorMessage(status, parsed as Status | undefined, body));
    if (parsed === undefined) throw new CLIError(`error: the server returned a body that is not JSON (${status})`);
    return parsed as T;
  };
  return { get, namespace };
}

function send(url: URL, opts: RequestOptions, hostPort: string): Promise<{ status: number; body: string }> {
  const req = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const r = req(url, opts, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", (err) => reject(new CLIError(connectionErrorMessage(err, hostPort))));
    });
    r.on("error", (err) => reject(new CLIError(connectionErrorMessage(err, hostPort))));
    r.end();
  });
}
