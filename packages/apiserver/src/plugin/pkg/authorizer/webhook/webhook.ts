/**
 * The webhook authorizer (staging/src/k8s.io/apiserver/plugin/pkg/authorizer/webhook/webhook.go
 * WebhookAuthorizer): each decision is a SubjectAccessReview posted to a remote service, whose
 * `status.allowed`/`denied`/`reason` answer it. Answers are cached by the whole review spec, allowed
 * ones for the authorized TTL and the others for the unauthorized TTL; a failed call (after the
 * retries of its backoff) is the error decision, NoOpinion, with the error, so that the union asks
 * the next authorizer and an error alone is no denial.
 */
import type {
  Attributes,
  AuthorizationResult,
  Authorizer,
  Decision,
  RuleResolver,
  RulesResult,
} from "../../../../authorization/authorizer/interfaces.ts";
import { LRUExpireCache } from "../../../../util/cache/lruexpirecache.ts";
import { defaultRetryBackoffWithInitialDelay, withExponentialBackoff, type Backoff } from "../../../../util/webhook/webhook.ts";
import { subjectAccessReviewBody, subjectAccessReviewSpec, type SubjectAccessReviewStatus } from "./subjectaccessreview.ts";

/** The largest total size of the requester-controlled attributes whose answer is cached (maxControlledAttrCacheSize). */
const maxControlledAttrCacheSize = 10_000;

/** DefaultRetryBackoff: the first retry after 500 ms. */
export const defaultRetryBackoff = (): Backoff => defaultRetryBackoffWithInitialDelay(500);

/** The API version of the reviews sent (`--authorization-webhook-version`). */
export type SubjectAccessReviewVersion = "v1" | "v1beta1";

/** Whatever posts a review and resolves with the webhook's answer (the GenericWebhook, or a test's fake). */
export interface SubjectAccessReviewer {
  post(body: unknown): Promise<unknown>;
}

export interface WebhookAuthorizerOptions {
  version: SubjectAccessReviewVersion;
  /** `--authorization-webhook-cache-authorized-ttl` (default 5m); 0 caches nothing. */
  authorizedTTLMs: number;
  /** `--authorization-webhook-cache-unauthorized-ttl` (default 30s); 0 caches nothing. */
  unauthorizedTTLMs: number;
  retryBackoff?: Backoff;
  /** The AuthorizeWithSelectors feature gate (default on): the attributes' selectors go with the review. */
  authorizeWithSelectors?: boolean;
  /** The clock of the cache (tests). */
  now?: () => number;
}

/** shouldCache: requester-controlled attributes too large to cache may be a denial-of-service attempt. */
function shouldCache(a: Attributes): boolean {
  const size = [a.namespace, a.verb, a.apiGroup, a.apiVersion, a.resource, a.subresource, a.name, a.path].reduce((n, s) => n + s.length, 0);
  return size < maxControlledAttrCacheSize;
}

/** The decision a review's status gives (Authorize's final switch). */
function decide(s: SubjectAccessReviewStatus): AuthorizationResult {
  const reason = s.reason ?? "";
  if (s.denied && s.allowed)
    return { decision: "Deny", reason, error: "webhook subject access review returned both allow and deny response" };
  const decision: Decision = s.denied ? "Deny" : s.allowed ? "Allow" : "NoOpinion";
  return { decision, reason };
}

/** WebhookAuthorizer (New / newWithBackoff). */
export class WebhookAuthorizer implements Authorizer, RuleResolver {
  readonly #reviewer: SubjectAccessReviewer;
  readonly #o: WebhookAuthorizerOptions;
  readonly #cache: LRUExpireCache<SubjectAccessReviewStatus>;
  readonly #decisionOnError: Decision = "NoOpinion";

  constructor(reviewer: SubjectAccessReviewer, o: WebhookAuthorizerOptions) {
    this.#reviewer = reviewer;
    this.#o = o;
    this.#cache = new LRUExpireCache(8192, o.now);
  }

  /**
   * Authorize: a cached answer at once, else a promise of the webhook's. Errors (a bad answer, a
   * webhook that cannot be reached or keeps failing) are NoOpinion with the error.
   */
  authorize(a: Attributes): AuthorizationResult | Promise<AuthorizationResult> {
    const spec = subjectAccessReviewSpec(a, this.#o.authorizeWithSelectors ?? true);
    const key = JSON.stringify(spec);
    const cached = this.#cache.get(key);
    if (cached !== undefined) return decide(cached);
    return this.#review(a, spec, key);
  }

  async #review(a: Attributes, spec: ReturnType<typeof subjectAccessReviewSpec>, key: string): Promise<AuthorizationResult> {
    let status: SubjectAccessReviewStatus;
    try {
      const body = subjectAccessReviewBody(spec, this.#o.version);
      const answer = await withExponentialBackoff(this.#o.retryBackoff ?? defaultRetryBackoff(), () => this.#reviewer.post(body));
      status = (answer as { status?: SubjectAccessReviewStatus } | null)?.status ?? {};
    } catch (e) {
      return { decision: this.#decisionOnError, reason: "", error: e instanceof Error ? e.message : String(e) };
    }
    if (shouldCache(a)) this.#cache.add(key, status, status.allowed ? this.#o.authorizedTTLMs : this.#o.unauthorizedTTLMs);
    return decide(status);
  }

  /** RulesFor: the webhook cannot list a user's rules. */
  rulesFor(): Promise<RulesResult> {
    return Promise.resolve({
      resourceRules: [],
      nonResourceRules: [],
      incomplete: true,
      error: "webhook authorizer does not support user rule resolution",
    });
  }
}
