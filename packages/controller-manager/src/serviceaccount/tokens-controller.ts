/**
 * The tokens controller (pkg/controller/serviceaccount/tokens_controller.go, kube-controller-manager's
 * `serviceaccount-token-controller`): a `kubernetes.io/service-account-token` Secret annotated with
 * a ServiceAccount's name gets a signed legacy token, the namespace and the root CA; a token Secret
 * whose ServiceAccount is gone (or has another uid) is deleted; a deleted token Secret leaves the
 * ServiceAccount's `secrets` list. Since 1.24 nothing creates token Secrets on its own: users do.
 */
import { secretKeys, secretTypes, type Secret, type ServiceAccount } from "@servicenet/api";
import { describeError } from "@servicenet/client/errors";
import type { Informer } from "@servicenet/client/tools/cache";
import { RateLimitingQueue } from "@servicenet/client/util/workqueue";
import { realClock, type Clock } from "@servicenet/component-base/clock";
import { noopLogger, V, type Logger } from "@servicenet/component-base/logs";
import { legacyClaims, type TokenGenerator } from "@servicenet/component-base/serviceaccount";
import { Controller } from "../framework/controller.ts";
import { isServiceAccountToken, retryOnConflict, type TokensClient } from "./tokens-client.ts";

/** The controller's name (names.ServiceAccountTokenController). */
export const tokensControllerName = "serviceaccount-token-controller";

/** NewTokensController's default MaxRetries. */
export const tokensMaxRetries = 10;

export interface TokensControllerDeps {
  serviceAccounts: Informer<ServiceAccount>;
  secrets: Informer<Secret>;
  client: TokensClient;
  /** Signs the legacy tokens (JWTTokenGenerator(LegacyIssuer, --service-account-private-key-file)). */
  token: TokenGenerator;
  /** The CA bundle written as `ca.crt` (--root-ca-file, else the kubeconfig's CA); empty writes none. */
  rootCA: string;
  serviceAccountQueue?: RateLimitingQueue<string>;
  secretQueue?: RateLimitingQueue<string>;
  clock?: Clock;
  logger?: Logger;
}

/** serviceAccountQueueKey. */
interface ServiceAccountKey {
  namespace: string;
  name: string;
  uid: string;
}
/** secretQueueKey: saUID is blank for a Secret without the uid annotation. */
interface SecretKey extends ServiceAccountKey {
  saName: string;
  saUID: string;
}

const b64 = (s: string): string => Buffer.from(s).toString("base64");

/** Thrown by a sync whose failure is worth a rate-limited retry (upstream's `retry = true`). */
class Retry extends Error {}

export class TokensController {
  readonly serviceAccountQueue: RateLimitingQueue<string>;
  readonly secretQueue: RateLimitingQueue<string>;
  readonly #d: TokensControllerDeps;
  readonly #log: Logger;
  readonly #runners: Controller[];

  constructor(deps: TokensControllerDeps) {
    this.#d = deps;
    this.#log = deps.logger ?? noopLogger;
    const clock = deps.clock ?? realClock;
    this.serviceAccountQueue = deps.serviceAccountQueue ?? new RateLimitingQueue<string>("serviceaccount_tokens_service", clock);
    this.secretQueue = deps.secretQueue ?? new RateLimitingQueue<string>("serviceaccount_tokens_secret", clock);
    const saKey = (sa: ServiceAccount): string =>
      JSON.stringify({ namespace: sa.metadata.namespace ?? "", name: sa.metadata.name ?? "", uid: sa.metadata.uid ?? "" });
    const enqueueSA = (sa: ServiceAccount) => this.serviceAccountQueue.add(saKey(sa));
    deps.serviceAccounts.addEventHandler({ onAdd: enqueueSA, onUpdate: (_o, sa) => enqueueSA(sa), onDelete: enqueueSA });
    const enqueueSecret = (s: Secret) => {
      // The FilteringResourceEventHandler: token Secrets only.
      if (s.type !== secretTypes.ServiceAccountToken) return;
      const a = s.metadata.annotations ?? {};
      const key: SecretKey = {
        namespace: s.metadata.namespace ?? "",
        name: s.metadata.name ?? "",
        uid: s.metadata.uid ?? "",
        saName: a[secretKeys.serviceAccountName] ?? "",
        saUID: a[secretKeys.serviceAccountUID] ?? "",
      };
      this.secretQueue.add(JSON.stringify(key));
    };
    deps.secrets.addEventHandler({ onAdd: enqueueSecret, onUpdate: (_o, s) => enqueueSecret(s), onDelete: enqueueSecret });
    const informers = [deps.serviceAccounts, deps.secrets];
    const runner = (name: string, queue: RateLimitingQueue<string>, sync: (k: string) => Promise<void>, logger: Logger) =>
      new Controller({ name, queue, sync, informers, maxRetries: tokensMaxRetries, logger });
    // One controller with two queues: upstream's Run logs its cache sync once, so the second
    // queue's start and stop lines are debug output.
    this.#runners = [
      runner(tokensControllerName, this.serviceAccountQueue, (k) => this.#retrying(() => this.syncServiceAccount(k)), this.#log),
      runner(`${tokensControllerName}-secrets`, this.secretQueue, (k) => this.#retrying(() => this.syncSecret(k)), V(this.#log, 4)),
    ];
  }

  /** Run: `workers` workers on each queue until `signal` aborts. */
  async run(signal: AbortSignal, workers: number): Promise<void> {
    await Promise.all(this.#runners.map((r) => r.run(signal, workers)));
  }

  /** retryOrForget: only a Retry requeues; any other failure is logged and the key forgotten. */
  async #retrying(sync: () => Promise<void>): Promise<void> {
    try {
      await sync();
    } catch (err) {
      if (err instanceof Retry) throw err.cause instanceof Error ? err.cause : err;
      this.#log.error("Syncing service account tokens", { err: describeError(err) });
    }
  }

  /** syncServiceAccount: a ServiceAccount that is gone (or recreated) takes its token Secrets with it. */
  async syncServiceAccount(rawKey: string): Promise<void> {
    const k = JSON.parse(rawKey) as ServiceAccountKey;
    if (k.namespace === "" || k.name === "" || k.uid === "") throw new Error(`invalid serviceaccount key: ${rawKey}`);
    const sa = await this.#serviceAccount(k.namespace, k.name, k.uid, false);
    if (sa !== undefined) return;
    V(this.#log, 4).info("Service account deleted, removing tokens", { namespace: k.namespace, serviceaccount: k.name });
    const tokens = this.#d.secrets
      .list()
      .filter((s) => s.metadata.namespace === k.namespace && isServiceAccountToken(s, { name: k.name, uid: k.uid }));
    let retry = false;
    const errs: unknown[] = [];
    for (const t of tokens) {
      const r = await this.#deleteToken(t.metadata.namespace ?? "", t.metadata.name ?? "", t.metadata.uid ?? "").catch((e: unknown) => {
        errs.push(e);
        return e instanceof Retry;
      });
      retry ||= r;
    }
    if (errs.length > 0) {
      const err = new Error(errs.map(describeError).join(", "));
      throw retry ? new Retry(err.message, { cause: err }) : err;
    }
  }

  /** syncSecret: populate a live token Secret, delete an orphaned one, unreference a deleted one. */
  async syncSecret(rawKey: string): Promise<void> {
    const k = JSON.parse(rawKey) as SecretKey;
    if (k.namespace === "" || k.name === "" || k.uid === "" || k.saName === "") throw new Error(`invalid secret key: ${rawKey}`);
    const secret = this.#cachedSecret(k.namespace, k.name, k.uid);
    if (secret === undefined) {
      // The Secret is gone: drop it from its ServiceAccount's list, if the account still lives.
      const sa = await this.#serviceAccount(k.namespace, k.saName, k.saUID, false).catch(() => undefined);
      if (sa !== undefined)
        await retryOnConflict(() => this.#removeSecretReference(k.namespace, k.saName, k.saUID, k.name)).catch((e: unknown) =>
          this.#log.error("Removing secret reference", { err: describeError(e) }),
        );
      return;
    }
    let sa: ServiceAccount | undefined;
    try {
      sa = await this.#serviceAccount(k.namespace, k.saName, k.saUID, true);
    } catch (e) {
      throw new Retry(describeError(e), { cause: e });
    }
    if (sa === undefined) {
      V(this.#log, 4).info("Service account does not exist, deleting token", { secret: `${k.namespace}/${k.name}` });
      await this.#deleteToken(k.namespace, k.name, k.uid);
      return;
    }
    await this.generateTokenIfNeeded(sa, secret);
  }

  /** secretUpdateNeeded: [needsCA, needsNamespace, needsToken]. */
  #updateNeeded(s: Secret): [boolean, boolean, boolean] {
    const data = s.data ?? {};
    const needsCA = this.#d.rootCA !== "" && (data[secretKeys.serviceAccountRootCA] ?? "") !== b64(this.#d.rootCA);
    return [needsCA, (data[secretKeys.serviceAccountNamespace] ?? "") === "", (data[secretKeys.serviceAccountToken] ?? "") === ""];
  }

  /** generateTokenIfNeeded: writes token, namespace and ca.crt into a fresh copy of the Secret. */
  async generateTokenIfNeeded(sa: ServiceAccount, cached: Secret): Promise<void> {
    if (!this.#updateNeeded(cached).some(Boolean)) return;
    const { namespace = "", name = "" } = cached.metadata;
    let live: Secret | undefined;
    try {
      live = await this.#d.client.getSecret(namespace, name);
    } catch (e) {
      throw new Retry(describeError(e), { cause: e });
    }
    if (live === undefined) return;
    if (live.metadata.resourceVersion !== cached.metadata.resourceVersion) {
      // Our view is behind: the update event will bring us back.
      V(this.#log, 2).info("Secret is not up to date, skipping token population", { secret: `${namespace}/${name}` });
      return;
    }
    const [needsCA, needsNamespace, needsToken] = this.#updateNeeded(live);
    if (!needsCA && !needsNamespace && !needsToken) return;
    const data = { ...live.data };
    if (needsCA) data[secretKeys.serviceAccountRootCA] = b64(this.#d.rootCA);
    if (needsNamespace) data[secretKeys.serviceAccountNamespace] = b64(namespace);
    if (needsToken) {
      const c = legacyClaims(
        { namespace: sa.metadata.namespace ?? "", name: sa.metadata.name ?? "", uid: sa.metadata.uid ?? "" },
        live.metadata.name ?? "",
      );
      data[secretKeys.serviceAccountToken] = b64(this.#d.token.generateToken(c.public, c.private));
    }
    const annotations = {
      ...live.metadata.annotations,
      [secretKeys.serviceAccountName]: sa.metadata.name ?? "",
      [secretKeys.serviceAccountUID]: sa.metadata.uid ?? "",
    };
    const updated = await this.#d.client.updateSecret({ ...live, metadata: { ...live.metadata, annotations }, data });
    // A Conflict or NotFound is answered later by the Secret's own event; other failures retry.
    if (updated instanceof Error) throw new Retry(updated.message, { cause: updated });
  }

  /** deleteToken: with a uid precondition; NotFound and Conflict need no retry. */
  async #deleteToken(namespace: string, name: string, uid: string): Promise<boolean> {
    const err = await this.#d.client.deleteSecret(namespace, name, uid);
    if (err === undefined) return false;
    throw new Retry(err.message, { cause: err });
  }

  /** removeSecretReference: a fresh copy of the ServiceAccount without `secretName` in `secrets`. */
  async #removeSecretReference(namespace: string, saName: string, saUID: string, secretName: string): Promise<void> {
    const sa = await this.#d.client.getServiceAccount(namespace, saName);
    if (sa === undefined || (saUID !== "" && saUID !== sa.metadata.uid)) return;
    const refs = sa.secrets ?? [];
    if (!refs.some((r) => r.name === secretName)) return;
    await this.#d.client.updateServiceAccount({ ...sa, secrets: refs.filter((r) => r.name !== secretName) });
  }

  /** getServiceAccount: the cached one of that uid, else (fetchOnCacheMiss) the live one of that uid. */
  async #serviceAccount(namespace: string, name: string, uid: string, fetch: boolean): Promise<ServiceAccount | undefined> {
    const cached = this.#d.serviceAccounts.get(`${namespace}/${name}`);
    if (cached !== undefined && (uid === "" || uid === cached.metadata.uid)) return cached;
    if (!fetch) return undefined;
    const live = await this.#d.client.getServiceAccount(namespace, name);
    return live !== undefined && (uid === "" || uid === live.metadata.uid) ? live : undefined;
  }

  /** getSecret from the cache (never fetched on a miss here: syncSecret passes false). */
  #cachedSecret(namespace: string, name: string, uid: string): Secret | undefined {
    const s = this.#d.secrets.get(`${namespace}/${name}`);
    return s !== undefined && (uid === "" || uid === s.metadata.uid) ? s : undefined;
  }
}
