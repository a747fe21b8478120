/**
 * `kubernetes.default.svc` is this apiserver (kube-apiserver's buildServiceResolver with
 * kube-aggregator/pkg/apiserver/resolvers.go NewLoopbackServiceResolver, and
 * util/webhook/authentication.go NewDefaultAuthenticationInfoResolverWrapper): a webhook referencing
 * Service default/kubernetes port 443 is dialled at this server's own address, and a call to
 * `kubernetes.default.svc:443` (URL or Service) presents the loopback client's credentials.
 */
import type { ResolvedAddress } from "../proxy/proxy.ts";
import type { AuthenticationInfoResolver, WebhookClientCredentials } from "./authentication.ts";
import type { ServiceResolver } from "./serviceresolver.ts";

/** This server as its own client sees it: where it listens and its loopback token; unset before it listens. */
export interface Loopback {
  address?: ResolvedAddress;
  /** The loopback bearer token (system:apiserver in system:masters); none when authentication is off. */
  token?: string;
}

const isKubernetesService = (namespace: string, name: string, port: number): boolean =>
  namespace === "default" && name === "kubernetes" && port === 443;

/** loopbackResolver: default/kubernetes:443 resolves to this server, everything else to `delegate`. */
export function newLoopbackServiceResolver(delegate: ServiceResolver, loopback: Loopback): ServiceResolver {
  return {
    resolveEndpoint(namespace, name, port) {
      if (isKubernetesService(namespace, name, port) && loopback.address !== undefined) return Promise.resolve(loopback.address);
      return delegate.resolveEndpoint(namespace, name, port);
    },
    stop: () => delegate.stop(),
  };
}

/** The wrapper's loopback case: kube-apiserver's own client configuration for itself. */
function loopbackCredentials(loopback: Loopback): WebhookClientCredentials {
  return loopback.token !== undefined ? { bearerToken: loopback.token } : {};
}

/** NewDefaultAuthenticationInfoResolverWrapper: the loopback credentials for `kubernetes.default.svc:443`, else `delegate`'s. */
export function withLoopbackAuthentication(delegate: AuthenticationInfoResolver, loopback: Loopback): AuthenticationInfoResolver {
  return {
    clientConfigFor: (hostPort) =>
      hostPort === "kubernetes.default.svc:443" ? loopbackCredentials(loopback) : delegate.clientConfigFor(hostPort),
    clientConfigForService: (name, namespace, port) =>
      isKubernetesService(namespace, name, port) ? loopbackCredentials(loopback) : delegate.clientConfigForService(name, namespace, port),
  };
}

/** The address the loopback client dials for a bind address: loopback in place of an unspecified one (0.0.0.0, ::). */
export function loopbackHost(bindAddress: string): string {
  if (bindAddress === "0.0.0.0" || bindAddress === "") return "127.0.0.1";
  if (bindAddress === "::") return "::1";
  return bindAddress;
}
