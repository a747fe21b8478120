/**
 * Keep-alive connections for client-node's typed API clients. client-node 1.4 builds a new
 * http(s).Agent for every request (KubeConfig.applySecurityAuthentication -> createAgent), so
 * every GET/PUT opens a new TCP connection and, on HTTPS, does a full TLS handshake with a fresh
 * SecureContext. That cost dominated the controller-manager's CPU profile; client-go keeps one
 * pooled transport per rest config, and so does this.
 */
import { Agent as HttpAgent } from "node:http";
import { Agent as HttpsAgent, type AgentOptions } from "node:https";
import { createSecureContext } from "node:tls";
import type { KubeConfig } from "@kubernetes/client-node";

const patched = new WeakSet<KubeConfig>();

/**
 * Makes the API clients of `kc` (those from `makeApiClient`, also ones made before this call)
 * share one keep-alive agent per current context and server. Watches (client-node's `Watch`) are
 * left alone: each holds its own long-lived connection anyway. Proxy agents are not pooled.
 * Idempotent; returns `kc`.
 */
export function reuseConnections(kc: KubeConfig): KubeConfig {
  if (patched.has(kc)) return kc;
  patched.add(kc);
  const agents = new Map<string, HttpAgent>();
  const original = kc.applySecurityAuthentication.bind(kc);
  kc.applySecurityAuthentication = async (context) => {
    await original(context);
    const fresh = context.getAgent();
    if (fresh === undefined || (fresh.constructor !== HttpsAgent && fresh.constructor !== HttpAgent)) return;
    // The agent's TLS options come from the current context only, so that names it.
    const key = `${kc.getCurrentContext()}\u0000${kc.getCurrentCluster()?.server ?? ""}`;
    let agent = agents.get(key);
    if (agent === undefined) {
      agent = keepAliveCopy(fresh);
      agents.set(key, agent);
    }
    fresh.destroy(); // never used: no sockets, but keep nothing around
    context.setAgent(agent);
  };
  return kc;
}

/**
 * A keep-alive agent with `fresh`'s options (TLS material included), of the same class. An HTTPS
 * one carries one TLS context built from those options: without it node builds a new one (parsing
 * the CA, certificate and key again) for every connection the pool opens, which a burst of
 * concurrent requests makes many of; client-go builds its tls.Config once per transport.
 */
export function keepAliveCopy(fresh: HttpAgent): HttpAgent {
  const options: AgentOptions = { ...(fresh as HttpAgent & { options: AgentOptions }).options, keepAlive: true };
  if (!(fresh instanceof HttpsAgent)) return new HttpAgent(options);
  options.secureContext ??= createSecureContext(options);
  return new HttpsAgent(options);
}
