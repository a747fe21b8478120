/**
 * Per-controller clients (staging/src/k8s.io/controller-manager/pkg/clientbuilder/client_builder.go
 * and client_builder_dynamic.go): with `--use-service-account-credentials` each controller talks
 * to the apiserver as `system:serviceaccount:kube-system:<name>`, so the bootstrap policy's
 * `system:controller:<name>` role is all it may do; without it every controller uses the
 * controller-manager's own credentials (SimpleControllerClientBuilder).
 *
 * The service-account builder is upstream's DynamicControllerClientBuilder: it makes the
 * controller's ServiceAccount in kube-system if it is missing, asks TokenRequest
 * (`serviceaccounts/<name>/token`, an hour) with the controller-manager's own credentials, and
 * sends the token on an otherwise anonymous copy of the kubeconfig, fetching the next one when 20%
 * of its lifetime is left.
 *
 * As upstream's builders make a clientset per controller from one rest.Config, each controller's
 * configuration has its own token bucket of `--kube-api-qps` and `--kube-api-burst`, and its own
 * User-Agent (rest.AddUserAgent with the controller's name, or its service-account user name), so
 * the apiserver records every controller's writes under the field manager `kube-controller-manager`.
 */
import { KubeConfig } from "@kubernetes/client-node";
import {
  CachedTokenSource,
  defaultKubernetesUserAgent,
  setUserAgent,
  withRateLimit,
  withTokenSource,
  type ClientConnectionLimits,
} from "@servicenet/client/rest";
import { noopLogger, type Logger } from "@servicenet/component-base/logs";
import { makeUsername, serviceAccountTokenClient, serviceAccountTokenSource } from "./service-account-tokens.ts";
import { controllerUserAgent } from "../controller/user-agent.ts";

/** ControllerClientBuilder: the client configuration of one controller, by service-account name. */
export interface ControllerClientBuilder {
  configFor(name: string): KubeConfig;
}

const unthrottled: ClientConnectionLimits = { qps: -1, burst: 0 };

// Each name's configuration: a copy with its own User-Agent and a bucket of its own (none without limits).
function perName(limits: ClientConnectionLimits | undefined, configFor: (name: string) => KubeConfig): ControllerClientBuilder {
  const cache = new Map<string, KubeConfig>();
  return {
    configFor(name) {
      let c = cache.get(name);
      if (c === undefined) {
        c = setUserAgent(withRateLimit(configFor(name), limits ?? unthrottled), controllerUserAgent(name));
        cache.set(name, c);
      }
      return c;
    },
  };
}

/** SimpleControllerClientBuilder: everyone gets the main kubeconfig's credentials (throttled per controller with `limits`). */
export function simpleClientBuilder(kc: KubeConfig, limits?: ClientConnectionLimits): ControllerClientBuilder {
  return perName(limits, () => kc);
}

/** DynamicControllerClientBuilder's defaults: hour-long tokens, renewed with 20% of their lifetime left. */
export const defaultExpirationSeconds = 3600;
export const defaultLeewayPercent = 20;

export interface DynamicClientBuilderOptions {
  expirationSeconds?: number;
  leewayPercent?: number;
  now?: () => number;
  /** wait.ExponentialBackoff's sleep between TokenRequest attempts. */
  sleep?: (ms: number) => Promise<void>;
  logger?: Logger;
}

/**
 * NewDynamicClientBuilder(AnonymousClientConfig(kc), kc's CoreV1, namespace): `kc` (the
 * controller-manager's own credentials) provisions the ServiceAccounts and their tokens; each
 * controller's configuration is the cluster alone plus its token (throttled per controller with `limits`).
 */
export function dynamicClientBuilder(
  kc: KubeConfig,
  namespace = "kube-system",
  limits?: ClientConnectionLimits,
  o: DynamicClientBuilderOptions = {},
): ControllerClientBuilder {
  const core = setUserAgent(withRateLimit(kc, limits ?? unthrottled), defaultKubernetesUserAgent("kube-controller-manager"));
  const client = serviceAccountTokenClient(core);
  const cache = new Map<string, KubeConfig>();
  return {
    configFor(name) {
      let c = cache.get(name);
      if (c !== undefined) return c;
      const source = new CachedTokenSource(
        serviceAccountTokenSource(client, namespace, name, {
          expirationSeconds: o.expirationSeconds ?? defaultExpirationSeconds,
          leewayPercent: o.leewayPercent ?? defaultLeewayPercent,
          ...(o.now ? { now: o.now } : {}),
          ...(o.sleep ? { sleep: o.sleep } : {}),
          logger: o.logger ?? noopLogger,
        }),
        o.now,
      );
      // constructClient: rest.AddUserAgent with the service account's user name.
      c = setUserAgent(
        withTokenSource(withRateLimit(anonymousConfig(kc, makeUsername(namespace, name)), limits ?? unthrottled), source),
        controllerUserAgent(makeUsername(namespace, name)),
      );
      cache.set(name, c);
      return c;
    },
  };
}

/** rest.AnonymousClientConfig: the current cluster (server and TLS) under a user without credentials. */
function anonymousConfig(kc: KubeConfig, userName: string): KubeConfig {
  const cluster = kc.getCurrentCluster();
  const c = new KubeConfig();
  if (cluster === null) throw new Error("the kubeconfig has no current cluster");
  c.loadFromOptions({
    clusters: [cluster],
    users: [{ name: userName }],
    contexts: [{ name: userName, cluster: cluster.name, user: userName, namespace: "default" }],
    currentContext: userName,
  });
  return c;
}
