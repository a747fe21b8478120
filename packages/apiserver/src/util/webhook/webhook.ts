/**
 * A webhook named by a kubeconfig file (staging/src/k8s.io/apiserver/pkg/util/webhook/webhook.go):
 * LoadKubeconfig reads the current context's cluster (the remote service: server URL, CA, TLS
 * name) and user (the credentials this apiserver presents), GenericWebhook posts to that URL with
 * the admission webhooks' client, and WithExponentialBackoff retries what DefaultShouldRetry calls
 * transient. The authorization webhook is its user here.
 */
import { readFileSync } from "node:fs";
import { Agent as HttpAgent } from "node:http";
import { loadRawKubeConfig } from "@servicenet/client/tools/clientcmd";
import { newWebhookAgent, postWebhook, type PostWebhookOptions } from "../../admission/plugin/webhook/client.ts";
import { restConfigFromKubeconfig, type AuthenticationInfoResolver } from "./authentication.ts";

/** webhook.go defaultRequestTimeout: kubeconfigs cannot set one, so requests to webhooks do not hang forever. */
export const defaultRequestTimeoutMs = 30_000;

/** wait.Backoff: `steps` attempts, the first wait `durationMs`, each next one `factor` times longer, plus up to `jitter` of it. */
export interface Backoff {
  durationMs: number;
  factor: number;
  jitter: number;
  steps: number;
}

/** DefaultRetryBackoffWithInitialDelay: five attempts, 1.5 times longer waits, 20% jitter. */
export function defaultRetryBackoffWithInitialDelay(initialDelayMs: number): Backoff {
  return { durationMs: initialDelayMs, factor: 1.5, jitter: 0.2, steps: 5 };
}

/** A failed webhook call: the client's message, and the HTTP status when the webhook answered. */
export type WebhookError = Error & { statusCode?: number };

/**
 * DefaultShouldRetry: transient failures, a connection reset, or an answer the rest client reads
 * as InternalError (500), Timeout (504) or TooManyRequests (429).
 */
export function defaultShouldRetry(err: WebhookError | undefined): boolean {
  if (err === undefined) return false;
  if (err.message.includes("connection reset by peer")) return true;
  return err.statusCode === 500 || err.statusCode === 504 || err.statusCode === 429;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * WithExponentialBackoff: calls `fn` until it succeeds, fails in a way `shouldRetry` does not
 * retry, or the backoff's steps run out; the last call's error is the one returned.
 */
export async function withExponentialBackoff<T>(
  backoff: Backoff,
  fn: () => Promise<T>,
  shouldRetry: (e: WebhookError | undefined) => boolean = defaultShouldRetry,
): Promise<T> {
  let wait = backoff.durationMs;
  for (let step = 1; ; step++) {
    try {
      return await fn();
    } catch (e) {
      const err = e as WebhookError;
      if (!shouldRetry(err) || step >= backoff.steps) throw err;
    }
    await sleep(wait + (backoff.jitter > 0 ? Math.random() * backoff.jitter * wait : 0));
    wait *= backoff.factor;
  }
}

/** LoadKubeconfig's result: where the remote service is and how it is reached. */
export interface WebhookKubeconfig {
  server: string;
  /** PEM CA bundle of the server, base64 (the admission client's `caBundle`); the system roots without it. */
  caBundle?: string;
  tlsServerName?: string;
  insecureSkipTLSVerify?: boolean;
  /** The current context's user's credentials, whatever host the server names. */
  auth: AuthenticationInfoResolver;
}

const noConfig = "invalid configuration: no configuration has been provided, try setting KUBERNETES_MASTER environment variable";

/** LoadKubeconfig: the current context of `path` as a client of its cluster's server. */
export function loadKubeconfig(path: string): WebhookKubeconfig {
  const raw = loadRawKubeConfig(path);
  const ctx = raw.contexts.get(raw.currentContext);
  const cluster = ctx?.cluster !== undefined ? raw.clusters.get(ctx.cluster) : undefined;
  if (cluster?.server === undefined || cluster.server === "") throw new Error(noConfig);
  const ca = cluster["certificate-authority-data"] ?? readCA(cluster["certificate-authority"]);
  const user = ctx?.user !== undefined ? raw.authInfos.get(ctx.user) : undefined;
  const credentials = user !== undefined ? restConfigFromKubeconfig(user) : {};
  // The current context's user, whatever host the server names (no lookup by server name here).
  const auth: AuthenticationInfoResolver = { clientConfigFor: () => credentials, clientConfigForService: () => credentials };
  return {
    server: cluster.server,
    ...(ca !== undefined ? { caBundle: ca } : {}),
    ...(cluster["tls-server-name"] ? { tlsServerName: cluster["tls-server-name"] } : {}),
    ...(cluster["insecure-skip-tls-verify"] ? { insecureSkipTLSVerify: true } : {}),
    auth,
  };
}

function readCA(path: string | undefined): string | undefined {
  if (path === undefined || path === "") return undefined;
  try {
    return readFileSync(path).toString("base64");
  } catch (e) {
    throw new Error(`unable to read certificate-authority ${path}: ${(e as Error).message}`);
  }
}

/** NewGenericWebhook: POSTs bodies to a kubeconfig's server, over one keep-alive connection pool. */
export class GenericWebhook {
  readonly config: WebhookKubeconfig;
  readonly timeoutMs: number;
  readonly #options: PostWebhookOptions;

  constructor(config: WebhookKubeconfig, timeoutMs: number = defaultRequestTimeoutMs) {
    this.config = config;
    this.timeoutMs = timeoutMs;
    const plain = new URL(config.server).protocol === "http:";
    this.#options = {
      agent: plain ? new HttpAgent({ keepAlive: true, maxFreeSockets: 25, timeout: 90_000 }) : newWebhookAgent(),
      auth: config.auth,
      tlsServerName: config.tlsServerName,
      insecureSkipTLSVerify: config.insecureSkipTLSVerify,
    };
  }

  /** Posts `body` once; rejects with the Go client's message (and `statusCode` when the webhook answered). */
  post(body: unknown): Promise<unknown> {
    const cc = { url: this.config.server, ...(this.config.caBundle !== undefined ? { caBundle: this.config.caBundle } : {}) };
    return postWebhook(cc, body, this.timeoutMs, this.#options);
  }

  /** Closes the kept-alive connections. */
  close(): void {
    this.#options.agent?.destroy();
  }
}
