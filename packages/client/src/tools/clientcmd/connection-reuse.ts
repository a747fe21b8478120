/**
 * Keep-alive connections for every client made from one KubeConfig: client-node's typed API
 * clients and `newRESTClient`. client-node 1.4 builds a new http(s).Agent for every request
 * (KubeConfig.applySecurityAuthentication -> createAgent), so every GET/PUT would open a new TCP
 * connection and, on HTTPS, do a full TLS handshake with a fresh SecureContext. client-go keeps
 * one transport per TLS configuration (transport/cache.go `tlsTransportCache`) and, over HTTP/2,
 * multiplexes all of a process's requests on one connection. The apiserver here speaks HTTP/1.1,
 * where a request in flight holds a socket, so the pool is capped instead: at most `maxSockets`
 * sockets per server (further requests wait in the agent's queue for a free one) and at most
 * `maxFreeSockets` idle ones kept (client-go's `idleConnsPerHost`, 25). Both default to 25, so a
 * burst never opens more connections than the pool keeps: no handshake churn.
 *
 * Watches are long-lived and would hold a capped socket each for minutes, starving short requests
 * (on HTTP/2 they are just streams of the shared connection). They get a second agent of the same
 * KubeConfig with no socket cap: one connection per open watch, as client-go has over HTTP/1.1.
 */
import { Agent as HttpAgent } from "node:http";
import { Agent as HttpsAgent, type AgentOptions } from "node:https";
import { createSecureContext } from "node:tls";
import type { KubeConfig } from "@kubernetes/client-node";

/** The socket caps of a KubeConfig's pool (per server). */
export interface ConnectionLimits {
  /** Sockets open at once for short requests; more requests queue for a free one. */
  maxSockets: number;
  /** Idle sockets kept open for reuse (client-go's MaxIdleConnsPerHost). */
  maxFreeSockets: number;
}

/** client-go transport/cache.go `idleConnsPerHost`; also the cap, so the pool never churns. */
export const DefaultMaxFreeSockets = 25;
export const DefaultMaxSockets = 25;

/** Which of a pool's agents a request uses: capped short requests, or uncapped long-lived watches. */
export type ConnectionKind = "request" | "watch";

interface Pool {
  limits: ConnectionLimits;
  agents: Map<string, HttpAgent>;
}

const pools = new WeakMap<KubeConfig, Pool>();
const patched = new WeakSet<KubeConfig>();

function poolOf(kc: KubeConfig): Pool {
  let pool = pools.get(kc);
  if (pool === undefined) {
    pool = { limits: { maxSockets: DefaultMaxSockets, maxFreeSockets: DefaultMaxFreeSockets }, agents: new Map() };
    pools.set(kc, pool);
  }
  return pool;
}

function capOf(limits: ConnectionLimits, kind: ConnectionKind): Pick<AgentOptions, "maxSockets" | "maxFreeSockets"> {
  return { maxSockets: kind === "watch" ? Infinity : limits.maxSockets, maxFreeSockets: limits.maxFreeSockets };
}

/** The socket caps of `kc`'s pool (the defaults until set). */
export function connectionLimitsOf(kc: KubeConfig): ConnectionLimits {
  return { ...poolOf(kc).limits };
}

/**
 * Sets the socket caps of `kc`'s pool, also for agents it has already made (an agent reads its
 * caps at each request). A cap must be a positive integer.
 */
export function setConnectionLimits(kc: KubeConfig, limits: Partial<ConnectionLimits>): void {
  for (const [name, v] of Object.entries(limits)) {
    if (v !== undefined && !(Number.isInteger(v) && v > 0)) throw new RangeError(`${name} must be a positive integer, got ${v}`);
  }
  const pool = poolOf(kc);
  pool.limits = { ...pool.limits, ...Object.fromEntries(Object.entries(limits).filter(([, v]) => v !== undefined)) };
  for (const [key, agent] of pool.agents) Object.assign(agent, capOf(pool.limits, key.startsWith("watch\u0000") ? "watch" : "request"));
}

/**
 * The pooled agent of `kc` for requests of `kind` that client-node just gave the fresh agent
 * `fresh` (its TLS options; destroyed here, it never opened a socket). One agent per kind,
 * current context and server, made on first use. Proxy agents are not pooled: undefined.
 */
export function pooledAgent(kc: KubeConfig, fresh: unknown, kind: ConnectionKind = "request"): HttpAgent | undefined {
  if (!(fresh instanceof HttpAgent) || (fresh.constructor !== HttpsAgent && fresh.constructor !== HttpAgent)) return undefined;
  const pool = poolOf(kc);
  // The agent's TLS options come from the current context only, so that names it.
  const key = `${kind}\u0000${kc.getCurrentContext()}\u0000${kc.getCurrentCluster()?.server ?? ""}`;
  let agent = pool.agents.get(key);
  if (agent === undefined) {
    agent = keepAliveCopy(fresh, capOf(pool.limits, kind));
    pool.agents.set(key, agent);
  }
  fresh.destroy();
  return agent;
}

/**
 * Makes the API clients of `kc` (those from `makeApiClient`, also ones made before this call)
 * use its pool of keep-alive connections, with `limits` if given. Watches through client-node's
 * `Watch` are left alone: each opens its own connection anyway. Idempotent; returns `kc`.
 */
export function reuseConnections(kc: KubeConfig, limits?: Partial<ConnectionLimits>): KubeConfig {
  if (limits !== undefined) setConnectionLimits(kc, limits);
  if (patched.has(kc)) return kc;
  patched.add(kc);
  const original = kc.applySecurityAuthentication.bind(kc);
  kc.applySecurityAuthentication = async (context) => {
    await original(context);
    const agent = pooledAgent(kc, context.getAgent());
    if (agent !== undefined) context.setAgent(agent);
  };
  return kc;
}

/**
 * A keep-alive agent with `fresh`'s options (TLS material included) and `extra`, of the same
 * class. An HTTPS one carries one TLS context built from those options: without it node builds a
 * new one (parsing the CA, certificate and key again) for every connection the pool opens, which
 * a burst of concurrent requests makes many of; client-go builds its tls.Config once per transport.
 */
export function keepAliveCopy(fresh: HttpAgent, extra: AgentOptions = {}): HttpAgent {
  const options: AgentOptions = { ...(fresh as HttpAgent & { options: AgentOptions }).options, ...extra, keepAlive: true };
  if (!(fresh instanceof HttpsAgent)) return new HttpAgent(options);
  options.secureContext ??= createSecureContext(options);
  return new HttpsAgent(options);
}
