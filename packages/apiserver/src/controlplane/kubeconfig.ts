/** The kubeconfigs `servicenet up` writes for kubectl and the other components. */
import { writeFileSync } from "node:fs";
import { stringify } from "yaml";

/** One kubeconfig user: a client certificate and key (PEM) or a bearer token. */
export interface KubeconfigUser {
  name?: string;
  token?: string;
  clientCert?: string;
  clientKey?: string;
}

export interface KubeconfigOptions extends KubeconfigUser {
  server: string;
  caCert?: string;
  /** Cluster, context and (default) user name; default `servicenet`. */
  name?: string;
}

function userEntry(u: KubeconfigUser): Record<string, string> {
  if (u.clientCert && u.clientKey)
    return {
      "client-certificate-data": Buffer.from(u.clientCert).toString("base64"),
      "client-key-data": Buffer.from(u.clientKey).toString("base64"),
    };
  return u.token ? { token: u.token } : {};
}

/**
 * Kubeconfig YAML text for one cluster and context, both named `servicenet` (or `name`), whose
 * user holds a client certificate (as kubeadm's admin.conf) or a token. An `http://` server gets
 * `insecure-skip-tls-verify: true`: @kubernetes/client-node (KubeConfig.createAgent) refuses
 * plain HTTP without it, and kubectl accepts it there. An empty token is left out.
 */
export function kubeconfigText(o: KubeconfigOptions): string {
  const name = o.name ?? "servicenet";
  const cluster: Record<string, unknown> = { server: o.server };
  if (o.caCert) cluster["certificate-authority-data"] = Buffer.from(o.caCert).toString("base64");
  else if (o.server.startsWith("http:")) cluster["insecure-skip-tls-verify"] = true;
  const user = o.name ?? name;
  return stringify({
    apiVersion: "v1",
    kind: "Config",
    clusters: [{ name, cluster }],
    users: [{ name: user, user: userEntry(o) }],
    contexts: [{ name, context: { cluster: name, user, namespace: "default" } }],
    "current-context": name,
    preferences: {},
  });
}

/** Writes a kubeconfig with owner-only permissions (it holds credentials). */
export function writeKubeconfig(path: string, o: KubeconfigOptions): void {
  writeFileSync(path, kubeconfigText(o), { mode: 0o600 });
}
