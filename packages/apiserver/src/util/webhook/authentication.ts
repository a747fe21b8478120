/**
 * Webhook client credentials by server name (staging/src/k8s.io/apiserver/pkg/util/webhook/
 * authentication.go AuthenticationInfoResolver, NewDefaultAuthenticationInfoResolver,
 * restConfigFromKubeconfig): the users of the kubeconfig a WebhookAdmission names are looked up by
 * the webhook's `host:port` (a Service reference's `name.namespace.svc:port`): the exact name,
 * then `*.`-prefixed suffixes, both again without a `:443` port, then the `*` user, then the current
 * context's user; none is an anonymous client.
 */
import { readFileSync } from "node:fs";
import { loadRawKubeConfig, type AuthInfo, type RawKubeConfig } from "@servicenet/client/tools/clientcmd";

/** What a webhook's client presents (the authentication fields of client-go's rest.Config). */
export interface WebhookClientCredentials {
  bearerToken?: string;
  username?: string;
  password?: string;
  /** PEM client certificate and key. */
  cert?: string;
  key?: string;
  impersonateUser?: string;
  impersonateGroups?: string[];
}

/** AuthenticationInfoResolver: credentials for a URL's host:port or a Service reference. */
export interface AuthenticationInfoResolver {
  clientConfigFor(hostPort: string): WebhookClientCredentials;
  clientConfigForService(serviceName: string, serviceNamespace: string, servicePort: number): WebhookClientCredentials;
}

/** net.JoinHostPort: a host with a colon is bracketed. */
export function joinHostPort(host: string, port: string | number): string {
  return host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
}

/** net.SplitHostPort for the resolver's use: the host and port of `host:port`, or undefined. */
function splitHostPort(hostPort: string): [string, string] | undefined {
  const m = /^\[([^\]]*)\]:(\d*)$/.exec(hostPort) ?? /^([^:[\]]*):(\d*)$/.exec(hostPort);
  return m ? [m[1]!, m[2]!] : undefined;
}

/** A file's text, failing as Go's os.ReadFile reports it. */
function readFileGo(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new Error(`open ${path}: ${code === "ENOENT" ? "no such file or directory" : (e as Error).message}`);
  }
}

/** restConfigFromKubeconfig: the credentials of one user, later kinds overwriting none of the earlier. */
export function restConfigFromKubeconfig(a: AuthInfo): WebhookClientCredentials {
  const c: WebhookClientCredentials = {};
  if (a.token) c.bearerToken = a.token;
  else if (a.tokenFile) c.bearerToken = readFileGo(a.tokenFile);
  if (a.as) {
    c.impersonateUser = a.as;
    if (a["as-groups"]?.length) c.impersonateGroups = a["as-groups"];
  }
  const certData = a["client-certificate-data"];
  const keyData = a["client-key-data"];
  if (a["client-certificate"] || certData) {
    c.cert = certData ? Buffer.from(certData, "base64").toString("utf8") : readFileGo(a["client-certificate"]!);
    if (keyData) c.key = Buffer.from(keyData, "base64").toString("utf8");
    else if (a["client-key"]) c.key = readFileGo(a["client-key"]);
  }
  if (a.username || a.password) {
    c.username = a.username ?? "";
    c.password = a.password ?? "";
  }
  if (a.exec) throw new Error("exec credential plugins are not supported for webhook clients here");
  if (a["auth-provider"]) throw new Error("auth provider not supported");
  return c;
}

/** The `*.`-prefixed names of `target`'s suffixes, longest first ("a.b.c" → "*.b.c", "*.c"). */
function starNames(target: string): string[] {
  const steps = target.split(".");
  return steps.slice(1).map((_, i) => `*.${steps.slice(i + 1).join(".")}`);
}

/** NewDefaultAuthenticationInfoResolver: credentials from `kubeconfigFile` ("" for anonymous clients only). */
export function newDefaultAuthenticationInfoResolver(kubeconfigFile: string): AuthenticationInfoResolver {
  const config: RawKubeConfig =
    kubeconfigFile === ""
      ? { clusters: new Map(), authInfos: new Map(), contexts: new Map(), currentContext: "" }
      : loadRawKubeConfig(kubeconfigFile);
  const lookup = (name: string): AuthInfo | undefined => config.authInfos.get(name);
  const currentUser = config.contexts.get(config.currentContext)?.user;
  const clientConfig = (target: string): WebhookClientCredentials => {
    const candidates = [target, ...starNames(target)];
    const hp = splitHostPort(target);
    if (hp !== undefined && hp[1] === "443") candidates.push(hp[0], ...starNames(hp[0]));
    candidates.push("*");
    for (const name of candidates) {
      const a = lookup(name);
      if (a !== undefined) return restConfigFromKubeconfig(a);
    }
    const current = currentUser ? lookup(currentUser) : undefined;
    return current !== undefined ? restConfigFromKubeconfig(current) : {};
  };
  return {
    clientConfigFor: (hostPort) => clientConfig(hostPort),
    clientConfigForService: (name, namespace, port) => clientConfig(joinHostPort(`${name}.${namespace}.svc`, port)),
  };
}
