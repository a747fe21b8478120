/**
 * The controllers' ServiceAccount tokens of DynamicControllerClientBuilder
 * (staging/src/k8s.io/controller-manager/pkg/clientbuilder/client_builder_dynamic.go):
 * getOrCreateServiceAccount and tokenSourceImpl.Token, a TokenRequest with exponential backoff.
 */
import { CoreV1Api, type KubeConfig } from "@kubernetes/client-node";
import { isAlreadyExists, isNotFound, describeError } from "@servicenet/client/errors";
import type { Token, TokenSource } from "@servicenet/client/rest";
import type { Logger } from "@servicenet/component-base/logs";

/** serviceaccount.MakeUsername. */
export const makeUsername = (namespace: string, name: string): string => `system:serviceaccount:${namespace}:${name}`;

/** The calls the builder makes with the controller-manager's own client. */
export interface ServiceAccountTokenClient {
  /** Whether the ServiceAccount exists (a NotFound is false, other failures throw). */
  serviceAccountExists(namespace: string, name: string): Promise<boolean>;
  namespaceExists(name: string): Promise<boolean>;
  createNamespace(name: string): Promise<void>;
  createServiceAccount(namespace: string, name: string): Promise<void>;
  /** ServiceAccounts(ns).CreateToken: the token and its expirationTimestamp (ms). */
  createToken(namespace: string, name: string, expirationSeconds: number): Promise<{ token: string; expiration: number }>;
}

/** The client over client-node's CoreV1Api. */
export function serviceAccountTokenClient(kc: KubeConfig): ServiceAccountTokenClient {
  const api = kc.makeApiClient(CoreV1Api);
  const exists = async (read: () => Promise<unknown>): Promise<boolean> => {
    try {
      await read();
      return true;
    } catch (e) {
      if (isNotFound(e)) return false;
      throw e;
    }
  };
  return {
    serviceAccountExists: (namespace, name) => exists(() => api.readNamespacedServiceAccount({ namespace, name })),
    namespaceExists: (name) => exists(() => api.readNamespace({ name })),
    createNamespace: async (name) => void (await api.createNamespace({ body: { metadata: { name } } })),
    createServiceAccount: async (namespace, name) =>
      void (await api.createNamespacedServiceAccount({ namespace, body: { metadata: { namespace, name } } })),
    async createToken(namespace, name, expirationSeconds) {
      const tr = await api.createNamespacedServiceAccountToken({
        namespace,
        name,
        body: { apiVersion: "authentication.k8s.io/v1", kind: "TokenRequest", spec: { audiences: [], expirationSeconds } },
      });
      return { token: tr.status?.token ?? "", expiration: new Date(tr.status?.expirationTimestamp ?? 0).getTime() };
    },
  };
}

/** getOrCreateServiceAccount: the namespace too when it is missing (its failure tolerated). */
export async function getOrCreateServiceAccount(c: ServiceAccountTokenClient, namespace: string, name: string, log: Logger): Promise<void> {
  if (await c.serviceAccountExists(namespace, name)) return;
  try {
    if (!(await c.namespaceExists(namespace))) await c.createNamespace(namespace);
  } catch (e) {
    if (!isAlreadyExists(e)) log.info("create non-exist namespace failed", { namespace, err: describeError(e) });
  }
  try {
    await c.createServiceAccount(namespace, name);
  } catch (e) {
    // Someone else made it first.
    if (!isAlreadyExists(e)) throw e;
  }
}

export interface TokenSourceOptions {
  expirationSeconds: number;
  leewayPercent: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  logger: Logger;
}

/** The minimum lifetime a token is given when its expiration looks too near (clock skew). */
const minLifetimeMs = 10 * 60_000;

/** tokenSourceImpl: TokenRequests, retried with backoff 500 ms ×2 for 4 steps; expires leewayPercent early. */
export function serviceAccountTokenSource(
  c: ServiceAccountTokenClient,
  namespace: string,
  name: string,
  o: TokenSourceOptions,
): TokenSource {
  const now = o.now ?? Date.now;
  const sleep = o.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  return {
    async token(): Promise<Token> {
      let wait = 500;
      let last: unknown;
      for (let step = 0; step < 4; step++) {
        if (step > 0) {
          await sleep(wait);
          wait *= 2;
        }
        try {
          await getOrCreateServiceAccount(c, namespace, name, o.logger);
        } catch (e) {
          last = e;
          o.logger.info("get or create service account failed", { err: describeError(e) });
          continue;
        }
        try {
          const tr = await c.createToken(namespace, name, o.expirationSeconds);
          let lifetime = tr.expiration - now();
          // Possible clock skew: pin to the minimum token lifetime.
          if (lifetime < minLifetimeMs) lifetime = minLifetimeMs;
          const leeway = Math.floor((lifetime * o.leewayPercent) / 100);
          return { accessToken: tr.token, expiry: now() + lifetime - leeway };
        } catch (e) {
          last = e;
          o.logger.info("get token failed", { err: describeError(e) });
        }
      }
      throw new Error(`failed to get token for ${namespace}/${name}: timed out waiting for the condition`, { cause: last });
    },
  };
}
