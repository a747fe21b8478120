/** The kubeconfig `servicenet up` writes for kubectl and the other components. */
import { writeFileSync } from "node:fs";
import { stringify } from "yaml";

export interface KubeconfigOptions {
  server: string;
  caCert?: string;
  token: string;
  name?: string;
}

/**
 * Kubeconfig YAML text for one cluster, user and context, all named `servicenet`. An `http://`
 * server gets `insecure-skip-tls-verify: true`: @kubernetes/client-node (KubeConfig.createAgent)
 * refuses plain HTTP without it, and kubectl accepts it there. An empty token is left out.
 */
export function kubeconfigText(o: KubeconfigOptions): string {
  const name = o.name ?? "servicenet";
  const cluster: Record<string, unknown> = { server: o.server };
  if (o.caCert) cluster["certificate-authority-data"] = Buffer.from(o.caCert).toString("base64");
  else if (o.server.startsWith("http:")) cluster["insecure-skip-tls-verify"] = true;
  return stringify({
    apiVersion: "v1",
    kind: "Config",
    clusters: [{ name, cluster }],
    users: [{ name, user: o.token ? { token: o.token } : {} }],
    contexts: [{ name, context: { cluster: name, user: name, namespace: "default" } }],
    "current-context": name,
    preferences: {},
  });
}

/** Writes the kubeconfig with owner-only permissions (it holds a token). */
export function writeKubeconfig(path: string, o: KubeconfigOptions): void {
  writeFileSync(path, kubeconfigText(o), { mode: 0o600 });
}
