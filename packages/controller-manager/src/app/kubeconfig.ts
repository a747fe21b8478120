/** Loading the --kubeconfig file with errors a person can act on. */
import { existsSync } from "node:fs";
import { KubeConfig } from "@kubernetes/client-node";
import { reuseConnections } from "../framework/connection-reuse.ts";

export class KubeconfigError extends Error {
  override readonly name = "KubeconfigError";
}

/**
 * Loads and checks a kubeconfig: the file exists, parses, and its current context names a cluster
 * with a valid server URL. Its API clients reuse keep-alive connections (`reuseConnections`).
 */
export function loadKubeConfig(path: string): KubeConfig {
  if (!existsSync(path)) throw new KubeconfigError(`kubeconfig ${path}: no such file`);
  const kc = new KubeConfig();
  try {
    kc.loadFromFile(path);
  } catch (err) {
    throw new KubeconfigError(`kubeconfig ${path}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  const cluster = kc.getCurrentCluster();
  if (cluster === null) {
    const ctx = kc.getCurrentContext();
    throw new KubeconfigError(ctx ? `kubeconfig ${path}: current context "${ctx}" names no cluster` : `kubeconfig ${path}: no current-context set`);
  }
  try {
    const url = new URL(cluster.server);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`unsupported scheme ${url.protocol}`);
  } catch (err) {
    throw new KubeconfigError(`kubeconfig ${path}: cluster "${cluster.name}" has an invalid server "${cluster.server}": ${err instanceof Error ? err.message : String(err)}`);
  }
  return reuseConnections(kc);
}
