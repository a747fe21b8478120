/**
 * Bearer tokens that change (staging/src/k8s.io/client-go/transport/token_source.go):
 * NewCachedTokenSource keeps a token until it expires and fetches the next one once, however many
 * requests wait; ResettableTokenSourceWrapTransport puts the token on every request of a
 * configuration that carries no Authorization of its own. Unlike upstream's transport, a 401
 * answer does not reset the cache (client-node's request options have no response hook): the
 * token is refreshed at its expiry only.
 */
import type { KubeConfig } from "@kubernetes/client-node";

/** oauth2.Token: the bearer and when it expires (Date.now() milliseconds). */
export interface Token {
  accessToken: string;
  expiry: number;
}

/** oauth2.TokenSource. */
export interface TokenSource {
  token(): Promise<Token>;
}

/** oauth2's expiryDelta: a token this close to its expiry is no longer used. */
const expiryDeltaMs = 10_000;

/** NewCachedTokenSource: ResettableTokenSource over `source`. */
export class CachedTokenSource implements TokenSource {
  readonly #source: TokenSource;
  readonly #now: () => number;
  #token: Token | undefined;
  #pending: Promise<Token> | undefined;

  constructor(source: TokenSource, now: () => number = Date.now) {
    this.#source = source;
    this.#now = now;
  }

  /** The cached token while valid, else one fetch shared by every caller. */
  token(): Promise<Token> {
    const t = this.#token;
    if (t !== undefined && t.accessToken !== "" && this.#now() < t.expiry - expiryDeltaMs) return Promise.resolve(t);
    this.#pending ??= this.#source.token().then(
      (next) => {
        this.#token = next;
        this.#pending = undefined;
        return next;
      },
      (err: unknown) => {
        this.#pending = undefined;
        throw err;
      },
    );
    return this.#pending;
  }

  /** ResetTokenOlderThan: the token the server refused is fetched anew. */
  reset(): void {
    this.#token = undefined;
  }
}

/**
 * ResettableTokenSourceWrapTransport: `kc`'s requests (typed API clients, watches, the REST
 * client) carry `Authorization: Bearer <token>` unless they have one already.
 */
export function withTokenSource(kc: KubeConfig, source: TokenSource): KubeConfig {
  const https = kc.applyToHTTPSOptions.bind(kc);
  kc.applyToHTTPSOptions = async (opts) => {
    await https(opts);
    const headers = (opts.headers ??= {}) as Record<string, string | number | string[] | undefined>;
    if (!Object.keys(headers).some((h) => h.toLowerCase() === "authorization"))
      headers["Authorization"] = `Bearer ${(await source.token()).accessToken}`;
  };
  const security = kc.applySecurityAuthentication.bind(kc);
  kc.applySecurityAuthentication = async (context) => {
    await security(context);
    if (context.getHeaders()["Authorization"] === undefined)
      context.setHeaderParam("Authorization", `Bearer ${(await source.token()).accessToken}`);
  };
  return kc;
}
