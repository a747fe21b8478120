/**
 * rest.Config's QPS and Burst (client-go rest/config.go, `RESTClientFor`): a component's requests
 * wait for a token of one bucket refilled at QPS a second, Burst at most. client-go keeps that
 * bucket with the clientset made from the config; here it goes with the KubeConfig object, so the
 * typed client-node APIs, watches and `newRESTClient` made from one throttled KubeConfig share it,
 * and a copy (`withRateLimit` again) is a new clientset with its own bucket, as the
 * controller-manager's client builder and the kubelet's heartbeat client have upstream.
 */
import { KubeConfig } from "@kubernetes/client-node";
import { realClock, sleep, type Clock } from "@servicenet/component-base/clock";
import { connectionLimitsOf, reuseConnections } from "../tools/clientcmd/connection-reuse.ts";
import { setUserAgent, userAgentOf } from "./config-user-agent.ts";
import { BucketRateLimiter } from "../util/workqueue/default-rate-limiters.ts";

/** client-go rest's DefaultQPS and DefaultBurst: what a rest.Config with QPS or Burst 0 gets. */
export const DefaultQPS = 5;
export const DefaultBurst = 10;

/** ClientConnectionConfiguration's qps and burst. */
export interface ClientConnectionLimits {
  qps: number;
  burst: number;
}

type Wait = (signal?: AbortSignal) => Promise<void>;

const waits = new WeakMap<KubeConfig, Wait>();

/**
 * The token bucket of `RESTClientFor`: 0 stands for DefaultQPS and DefaultBurst; only a positive QPS
 * makes a bucket (a negative one: no client-side limit). Undefined without a limit.
 */
export function rateLimiterOf(clock: Clock, qps: number, burst: number): BucketRateLimiter<null> | undefined {
  const q = qps === 0 ? DefaultQPS : qps;
  if (!(q > 0)) return undefined;
  return new BucketRateLimiter<null>(clock, q, Math.max(1, burst === 0 ? DefaultBurst : burst));
}

function waiter(clock: Clock, limiter: BucketRateLimiter<null>): Wait {
  return async (signal) => {
    const ms = limiter.when(null);
    if (ms > 0) await sleep(clock, ms, signal);
  };
}

// Every request of client-node goes through one of these two (applyToFetchOptions, used by Watch,
// calls applyToHTTPSOptions on the instance): waiting there throttles each request once.
function attach(kc: KubeConfig, wait: Wait): void {
  waits.set(kc, wait);
  const https = kc.applyToHTTPSOptions.bind(kc);
  kc.applyToHTTPSOptions = async (opts) => {
    await wait((opts as { signal?: AbortSignal }).signal ?? undefined);
    await https(opts);
  };
  const security = kc.applySecurityAuthentication.bind(kc);
  kc.applySecurityAuthentication = async (context) => {
    await wait();
    await security(context);
  };
}

/**
 * A copy of `kc` (clusters, users, contexts, current context, and its User-Agent, as copying a
 * rest.Config copies UserAgent) without its other instance patches.
 */
export function copyKubeConfig(kc: KubeConfig): KubeConfig {
  const copy = new KubeConfig();
  copy.loadFromOptions({
    clusters: kc.getClusters(),
    users: kc.getUsers(),
    contexts: kc.getContexts(),
    currentContext: kc.getCurrentContext(),
  });
  const userAgent = userAgentOf(kc);
  if (userAgent !== undefined) setUserAgent(copy, userAgent);
  return copy;
}

/**
 * A copy of `kc` whose requests (every client made from it) share one token bucket of
 * `limits`, as the clientset of a rest.Config with that QPS and Burst, over one pool of keep-alive
 * connections (`reuseConnections`, a pool of its own with `kc`'s socket caps). With a QPS that makes no bucket (negative), the copy is not
 * throttled: upstream's heartbeat client (QPS -1).
 */
export function withRateLimit(kc: KubeConfig, limits: ClientConnectionLimits, clock: Clock = realClock): KubeConfig {
  const copy = reuseConnections(copyKubeConfig(kc), connectionLimitsOf(kc));
  const limiter = rateLimiterOf(clock, limits.qps, limits.burst);
  if (limiter !== undefined) attach(copy, waiter(clock, limiter));
  return copy;
}

/** Gives `to` (a copy of `from` made for another reason) the bucket of `from`, if it has one. */
export function shareRateLimit(from: KubeConfig, to: KubeConfig): void {
  const wait = waits.get(from);
  if (wait !== undefined && to !== from) attach(to, wait);
}
