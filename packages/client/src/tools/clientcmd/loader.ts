/**
 * The one kubeconfig loader (client-go tools/clientcmd loader.go and validation.go): which file
 * (ClientConfigLoadingRules precedence), reading it with paths resolved against its directory,
 * validating the current context, and API clients that reuse keep-alive connections.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import { KubeConfig } from "@kubernetes/client-node";
import { reuseConnections } from "./connection-reuse.ts";

/** Why a kubeconfig could not be used. */
export type KubeconfigErrorReason = "NotFound" | "Invalid" | "NoCurrentContext" | "NoCluster" | "InvalidServer";

export class KubeconfigError extends Error {
  override readonly name = "KubeconfigError";
  readonly reason: KubeconfigErrorReason;
  readonly path: string;

  constructor(reason: KubeconfigErrorReason, path: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.reason = reason;
    this.path = path;
  }
}

/**
 * Which kubeconfig file to read: the explicit flag, else the first $KUBECONFIG entry, else
 * ~/.kube/config (ClientConfigLoadingRules; kubectl merges every $KUBECONFIG file, this reads
 * only the first).
 */
export function kubeconfigPath(flag: string | undefined, env: Readonly<Record<string, string | undefined>>): string {
  if (flag !== undefined && flag !== "") return flag;
  const list = (env["KUBECONFIG"] ?? "").split(":").filter((p) => p !== "");
  if (list.length > 0) return list[0] ?? "";
  return join(env["HOME"] ?? "", ".kube", "config");
}

export interface LoadKubeConfigOptions {
  /** Require a current context whose cluster has an http(s) server URL (default true). */
  validate?: boolean;
  /** Share one keep-alive agent among the API clients (default true; see reuseConnections). */
  reuseConnections?: boolean;
}

/**
 * Loads a kubeconfig file. Relative certificate and key paths resolve against the file's
 * directory, as clientcmd's ResolveLocalPaths does. Throws KubeconfigError with a reason.
 */
export function loadKubeConfig(path: string, options: LoadKubeConfigOptions = {}): KubeConfig {
  try {
    statSync(path);
  } catch (err) {
    throw new KubeconfigError("NotFound", path, `kubeconfig ${path}: no such file`, { cause: err });
  }
  const kc = new KubeConfig();
  try {
    kc.loadFromFile(path);
  } catch (err) {
    throw new KubeconfigError("Invalid", path, `kubeconfig ${path}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  if (options.validate ?? true) validateCurrentContext(kc, path);
  return (options.reuseConnections ?? true) ? reuseConnections(kc) : kc;
}

/** The checks of clientcmd's validation.go that a component needs before it can connect. */
export function validateCurrentContext(kc: KubeConfig, path: string): void {
  const cluster = kc.getCurrentCluster();
  if (cluster === null) {
    const ctx = kc.getCurrentContext();
    if (!ctx) throw new KubeconfigError("NoCurrentContext", path, `kubeconfig ${path}: no current-context set`);
    throw new KubeconfigError("NoCluster", path, `kubeconfig ${path}: current context "${ctx}" names no cluster`);
  }
  try {
    const url = new URL(cluster.server);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`unsupported scheme ${url.protocol}`);
  } catch (err) {
    throw new KubeconfigError(
      "InvalidServer",
      path,
      `kubeconfig ${path}: cluster "${cluster.name}" has an invalid server "${cluster.server}": ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}
