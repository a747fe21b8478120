/**
 * The tokens controller's API calls over client-node's CoreV1Api (the controller's clientset), and
 * apiserverserviceaccount.IsServiceAccountToken.
 */
import { CoreV1Api, type KubeConfig, type V1Secret, type V1ServiceAccount } from "@kubernetes/client-node";
import { secretKeys, secretTypes, type Secret, type ServiceAccount } from "@servicenet/api";
import { isConflict, isNotFound, toStatusError } from "@servicenet/client/errors";
import { toPlain } from "@servicenet/client/rest";
import { retryOnConflict as retry, type Backoff } from "@servicenet/client/util/retry";

/** The tokens controller's reads and writes. */
export interface TokensClient {
  /** The live Secret, undefined when NotFound. */
  getSecret(namespace: string, name: string): Promise<Secret | undefined>;
  /** Update; a Conflict or NotFound is returned as nothing to do (undefined), any other failure as the Error. */
  updateSecret(secret: Secret): Promise<Error | undefined>;
  /** Delete with a uid precondition; NotFound and Conflict are success (undefined), other failures the Error. */
  deleteSecret(namespace: string, name: string, uid: string): Promise<Error | undefined>;
  /** The live ServiceAccount, undefined when NotFound. */
  getServiceAccount(namespace: string, name: string): Promise<ServiceAccount | undefined>;
  /** Update; NotFound is nothing to do, other failures throw (a Conflict is retried by the caller). */
  updateServiceAccount(sa: ServiceAccount): Promise<void>;
}

/** RemoveTokenBackoff: the retry of a reference removal on Conflict. */
export const removeTokenBackoff: Backoff = { steps: 10, durationMs: 100, jitter: 1.0 };

/** RetryOnConflict(RemoveTokenBackoff, fn). */
export const retryOnConflict = (fn: () => Promise<void>): Promise<void> => retry(removeTokenBackoff, fn);

/** IsServiceAccountToken: a token Secret naming the account (and its uid, when the Secret records one). */
export function isServiceAccountToken(secret: Secret, sa: { name: string; uid: string }): boolean {
  if (secret.type !== secretTypes.ServiceAccountToken) return false;
  const a = secret.metadata.annotations ?? {};
  if ((a[secretKeys.serviceAccountName] ?? "") !== sa.name) return false;
  const uid = a[secretKeys.serviceAccountUID] ?? "";
  return uid === "" || uid === sa.uid;
}

/** The failure as a StatusError when it carries an HTTP status, else as it is. */
const asError = (e: unknown): Error => toStatusError(e) ?? (e instanceof Error ? e : new Error(String(e)));

const orUndefined = async <T>(p: Promise<T>): Promise<T | undefined> => {
  try {
    return await p;
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw asError(e);
  }
};

/** The client over a kubeconfig (the controller-manager's own credentials: the "tokens-controller" client). */
export function tokensClient(kubeConfig: KubeConfig): TokensClient {
  const api = kubeConfig.makeApiClient(CoreV1Api);
  return {
    getSecret: async (namespace, name) => {
      const s = await orUndefined(api.readNamespacedSecret({ namespace, name }));
      return s === undefined ? undefined : toPlain<Secret>(s, "V1Secret");
    },
    async updateSecret(secret) {
      const { namespace = "", name = "" } = secret.metadata;
      try {
        await api.replaceNamespacedSecret({ namespace, name, body: secret as V1Secret });
        return undefined;
      } catch (e) {
        return isConflict(e) || isNotFound(e) ? undefined : asError(e);
      }
    },
    async deleteSecret(namespace, name, uid) {
      try {
        await api.deleteNamespacedSecret({ namespace, name, ...(uid !== "" ? { body: { preconditions: { uid } } } : {}) });
        return undefined;
      } catch (e) {
        return isConflict(e) || isNotFound(e) ? undefined : asError(e);
      }
    },
    getServiceAccount: async (namespace, name) => {
      const sa = await orUndefined(api.readNamespacedServiceAccount({ namespace, name }));
      return sa === undefined ? undefined : toPlain<ServiceAccount>(sa, "V1ServiceAccount");
    },
    async updateServiceAccount(sa) {
      const { namespace = "", name = "" } = sa.metadata;
      await orUndefined(api.replaceNamespacedServiceAccount({ namespace, name, body: sa as V1ServiceAccount }));
    },
  };
}
