/**
 * rest.Config.UserAgent for every client made from one KubeConfig: client-node's typed API clients
 * and its `Watch` send no User-Agent of their own, so node-fetch's `node-fetch` goes on the wire
 * and the apiserver records their writes under the field manager `node-fetch`. client-go puts the
 * config's UserAgent on every request of every clientset made from it (rest/config.go
 * RESTClientFor, transport/round_trippers.go userAgentRoundTripper, which leaves a User-Agent the
 * request already has alone).
 */
import type { KubeConfig } from "@kubernetes/client-node";

const agents = new WeakMap<KubeConfig, string>();

/** The User-Agent `kc`'s clients send (set by `setUserAgent`), if any. */
export function userAgentOf(kc: KubeConfig): string | undefined {
  return agents.get(kc);
}

/**
 * Makes every request of a client made from `kc` (also ones made before this call: typed API
 * clients, watches, `newRESTClient` without a `userAgent` of its own) carry `userAgent`, as
 * client-go's rest.Config.UserAgent. Setting it again replaces it; returns `kc`.
 */
export function setUserAgent(kc: KubeConfig, userAgent: string): KubeConfig {
  const patched = agents.has(kc);
  agents.set(kc, userAgent);
  if (patched) return kc;
  // Watches and newRESTClient build their options here (Watch through applyToFetchOptions).
  const https = kc.applyToHTTPSOptions.bind(kc);
  kc.applyToHTTPSOptions = async (opts) => {
    await https(opts);
    const headers = (opts.headers ??= {}) as Record<string, string | number | string[] | undefined>;
    if (!Object.keys(headers).some((h) => h.toLowerCase() === "user-agent")) headers["User-Agent"] = agents.get(kc)!;
  };
  // The typed API clients apply the config to each request's context here.
  const security = kc.applySecurityAuthentication.bind(kc);
  kc.applySecurityAuthentication = async (context) => {
    await security(context);
    if (context.getHeaders()["User-Agent"] === undefined) context.setHeaderParam("User-Agent", agents.get(kc)!);
  };
  return kc;
}
