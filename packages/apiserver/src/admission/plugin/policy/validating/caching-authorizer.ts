/**
 * One admission request's authorization decisions
 * (staging/src/k8s.io/apiserver/pkg/admission/plugin/policy/validating/caching_authorizer.go, made
 * once per Dispatch in dispatcher.go): a check the policies' `authorizer` variable makes twice is
 * asked of the server's authorizer once, keyed by every attribute (groups and extra values sorted,
 * selectors by their parsed form).
 *
 * CEL evaluates synchronously here while an authorizer may have to wait (a webhook). A check whose
 * decision is not at hand stops its expression: {@link CachingAuthorizer.evaluate} fetches the
 * decisions the pass found missing and evaluates again, when the checks read from the cache.
 * Within one expression only the first missing check is fetched (the later ones may depend on its
 * outcome, as short-circuiting does); the evaluator marks where each top-level expression starts
 * ({@link CachingAuthorizer.beginExpression}), and the expressions after one that waits go on and
 * report their own first missing check, since upstream evaluates each of them whatever the others
 * answered. N independent checks thus cost two passes, not N + 1. The decisions are fetched one
 * after the other in the order the pass met them: the authorizer is asked each check once, in
 * evaluation order across expressions, and never a check that short-circuiting skips.
 */
import type { Attributes, AuthorizationResult, Authorizer, SynchronousAuthorize } from "../../../../authorization/authorizer/interfaces.ts";

/** Thrown into the evaluation when a decision has to be waited for; the pass's result is discarded. */
export class DecisionPending extends Error {
  constructor() {
    super("authorization decision pending");
    this.name = "DecisionPending";
  }
}

const sorted = (xs: readonly string[]) => [...xs].sort();

/** The cache key: Authorize's SerializableAttributes, JSON-encoded. */
export function decisionKey(a: Attributes): string {
  const u = a.user;
  const user =
    u === undefined
      ? undefined
      : {
          name: u.name,
          uid: u.uid,
          groups: sorted(u.groups),
          extra: Object.fromEntries(
            Object.keys(u.extra ?? {})
              .sort()
              .map((k) => [k, sorted(u.extra![k]!)]),
          ),
        };
  return JSON.stringify({
    user,
    verb: a.verb,
    namespace: a.namespace,
    apiGroup: a.apiGroup,
    apiVersion: a.apiVersion,
    resource: a.resource,
    subresource: a.subresource,
    name: a.name,
    resourceRequest: a.resourceRequest,
    path: a.path,
    // A selector that failed to parse is not honoured, so the key leaves it out.
    fieldSelector: a.fieldSelectorParsingErr === undefined ? (a.fieldSelectorRequirements ?? null) : null,
    labelSelector: a.labelSelectorParsingErr === undefined ? (a.labelSelectorRequirements ?? null) : null,
  });
}

/** cachingAuthorizer: decisions by attributes for one request; not for concurrent evaluations. */
export class CachingAuthorizer {
  readonly #inner: Authorizer;
  readonly #decisions = new Map<string, AuthorizationResult>();
  /** The first decision of this pass being fetched, begun when it was met. */
  #inflight: Promise<void> | undefined;
  /** The checks met after it, to fetch in turn; keyed so that each is fetched once. */
  readonly #queued = new Map<string, Attributes>();
  /** The current expression met a missing decision: its later checks are not fetched. */
  #blocked = false;

  constructor(inner: Authorizer) {
    this.#inner = inner;
  }

  /** A top-level expression starts: its checks do not depend on what the ones before it waited for. */
  readonly beginExpression = (): void => {
    this.#blocked = false;
  };

  #record(key: string, r: Promise<AuthorizationResult>): Promise<void> {
    return r.then(
      (res) => void this.#decisions.set(key, res),
      (e: unknown) => void this.#decisions.set(key, { decision: "NoOpinion", reason: "", error: String(e) }),
    );
  }

  /**
   * The decision for `a`: cached, or the authorizer's when it answers at once; otherwise it is
   * fetched (the pass's first) or queued, and the expression is stopped with {@link DecisionPending}.
   */
  readonly authorize: SynchronousAuthorize = (a) => {
    const key = decisionKey(a);
    const hit = this.#decisions.get(key);
    if (hit !== undefined) return hit;
    if (this.#blocked) throw new DecisionPending();
    this.#blocked = true;
    if (this.#inflight === undefined) {
      const r = this.#inner.authorize(a);
      if (!(r instanceof Promise)) {
        this.#decisions.set(key, r);
        this.#blocked = false;
        return r;
      }
      this.#inflight = this.#record(key, r);
    } else if (!this.#queued.has(key)) {
      // Asked only once the fetch before it is answered, so the authorizer sees the checks in order.
      this.#queued.set(key, a);
    }
    throw new DecisionPending();
  };

  /**
   * Runs `fn` (which checks through {@link authorize}) until it completes without waiting for a
   * decision, and returns or throws what that pass did. A pass that waited is discarded, whatever
   * it returned: CEL's error semantics may have absorbed the DecisionPending.
   */
  async evaluate<T>(fn: () => T): Promise<T> {
    for (;;) {
      this.#inflight = undefined;
      this.#queued.clear();
      this.#blocked = false;
      let out: { value: T } | { error: unknown };
      try {
        out = { value: fn() };
      } catch (error) {
        out = { error };
      }
      const inflight = this.#inflight as Promise<void> | undefined;
      if (inflight === undefined) {
        if ("error" in out) throw out.error;
        return out.value;
      }
      await inflight;
      for (const [key, a] of [...this.#queued]) {
        if (this.#decisions.has(key)) continue;
        const r = this.#inner.authorize(a);
        if (r instanceof Promise) await this.#record(key, r);
        else this.#decisions.set(key, r);
      }
    }
  }
}
