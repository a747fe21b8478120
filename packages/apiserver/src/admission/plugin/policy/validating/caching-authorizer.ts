/**
 * One admission request's authorization decisions
 * (staging/src/k8s.io/apiserver/pkg/admission/plugin/policy/validating/caching_authorizer.go, made
 * once per Dispatch in dispatcher.go): a check the policies' `authorizer` variable makes twice is
 * asked of the server's authorizer once, keyed by every attribute (groups and extra values sorted,
 * selectors by their parsed form).
 *
 * CEL evaluates synchronously here while an authorizer may have to wait (a webhook). A check whose
 * decision is not at hand stops the evaluation: {@link CachingAuthorizer.evaluate} waits for that
 * one decision and evaluates again, when the check reads from the cache. Expressions are
 * deterministic given the decisions, so each pass reaches the first unknown check of the one before
 * and goes further: the authorizer is asked the same checks, in the same order, as upstream's
 * blocking evaluation asks them, and checks that short-circuiting skips are never made.
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
  #pending: Promise<void> | undefined;

  constructor(inner: Authorizer) {
    this.#inner = inner;
  }

  /**
   * The decision for `a`: cached, or the authorizer's when it answers at once; otherwise the wait
   * for it starts and the evaluation is stopped with {@link DecisionPending}.
   */
  readonly authorize: SynchronousAuthorize = (a) => {
    const key = decisionKey(a);
    const hit = this.#decisions.get(key);
    if (hit !== undefined) return hit;
    // One decision is waited for at a time: the ones after it may depend on its outcome.
    if (this.#pending !== undefined) throw new DecisionPending();
    const r = this.#inner.authorize(a);
    if (!(r instanceof Promise)) {
      this.#decisions.set(key, r);
      return r;
    }
    this.#pending = r.then(
      (res) => void this.#decisions.set(key, res),
      (e: unknown) => void this.#decisions.set(key, { decision: "NoOpinion", reason: "", error: String(e) }),
    );
    throw new DecisionPending();
  };

  /**
   * Runs `fn` (which checks through {@link authorize}) until it completes without waiting for a
   * decision, and returns or throws what that pass did. A pass that waited is discarded, whatever
   * it returned: CEL's error semantics may have absorbed the DecisionPending.
   */
  async evaluate<T>(fn: () => T): Promise<T> {
    for (;;) {
      this.#pending = undefined;
      let out: { value: T } | { error: unknown };
      try {
        out = { value: fn() };
      } catch (error) {
        out = { error };
      }
      const pending = this.#pending as Promise<void> | undefined;
      if (pending === undefined) {
        if ("error" in out) throw out.error;
        return out.value;
      }
      await pending;
    }
  }
}
