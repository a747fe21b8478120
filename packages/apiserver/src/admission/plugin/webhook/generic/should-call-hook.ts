/**
 * Whether a webhook is called for a request (admission/plugin/webhook/generic/webhook.go
 * ShouldCallHook with predicates/{rules,namespace,object}, and matchconditions/matcher.go Match):
 * the admission configuration kinds are exempt, then rules, namespaceSelector (a Namespace request
 * by the Namespace's own labels, cluster-scoped objects always), objectSelector (old or new
 * object), then the matchConditions on the request as the matched version sees it.
 */
import type { MatchResources } from "@servicenet/api/admissionregistration/v1";
import { outOfBudgetMessage, runtimeCELCostBudgetMatchConditions, type CostBudget } from "../../../../apiserver/cel/index.ts";
import type { Attributes } from "../../../attributes.ts";
import { StatusError } from "@servicenet/api";
import { versionedAttributes } from "../../../conversion.ts";
import type { EquivalentResourceMapper } from "../../../equivalent-resources.ts";
import { matches, type MatchedResource } from "../../policy/matching/matching.ts";
import { admissionRequest, authorizerFor } from "../../policy/validating/validator.ts";
import type { Authorizer, SynchronousAuthorize } from "../../../../authorization/authorizer/interfaces.ts";
import { CachingAuthorizer } from "../../policy/validating/caching-authorizer.ts";
import type { WebhookAccessor } from "./source.ts";

type Labels = Readonly<Record<string, string>> | undefined;

const exemptResources = new Set([
  "validatingwebhookconfigurations",
  "mutatingwebhookconfigurations",
  "validatingadmissionpolicies",
  "validatingadmissionpolicybindings",
  "mutatingadmissionpolicies",
  "mutatingadmissionpolicybindings",
]);

/** rules.IsExemptAdmissionConfigurationResource. */
export function isExemptAdmissionConfigurationResource(a: Attributes): boolean {
  return a.resource.group === "admissionregistration.k8s.io" && exemptResources.has(a.resource.resource);
}

/** The labels the namespaceSelector is matched against: a Namespace's own, else its namespace's. */
export function namespaceLabels(a: Attributes, lookup: (name: string) => unknown): Labels {
  const labelsOf = (o: unknown): Labels => (o as { metadata?: { labels?: Record<string, string> } } | undefined)?.metadata?.labels;
  if (a.resource.group === "" && a.resource.resource === "namespaces" && a.subresource === "") return labelsOf(a.object ?? a.oldObject);
  return a.namespace !== "" ? labelsOf(lookup(a.namespace)) : undefined;
}

/**
 * Rules and selectors: the resource and kind the webhook is called as (its WebhookInvocation),
 * through an equivalent resource under matchPolicy Equivalent when `mapper` is given.
 */
export function webhookMatches(
  h: WebhookAccessor,
  a: Attributes,
  nsLabels: Labels,
  mapper?: EquivalentResourceMapper,
): MatchedResource | undefined {
  const w = h.webhook;
  if ((w.rules ?? []).length === 0) return undefined;
  const m: MatchResources = {
    namespaceSelector: w.namespaceSelector ?? {},
    objectSelector: w.objectSelector ?? {},
    resourceRules: w.rules ?? [],
    ...(w.matchPolicy !== undefined ? { matchPolicy: w.matchPolicy } : {}),
  };
  return matches(m, a, nsLabels, mapper);
}

/**
 * The attributes the webhook is called with (VersionedAttribute of the invocation's kind); a
 * conversion failure is an internal error, as upstream's ShouldCallHook returns it.
 */
export function invocationAttributes(a: Attributes, m: MatchedResource, mapper?: EquivalentResourceMapper): Attributes {
  try {
    return versionedAttributes(a, m, mapper);
  } catch (e) {
    throw StatusError.internal(e instanceof Error ? e.message : String(e), e);
  }
}

/** The outcome of the matchConditions: match, no match, or the first error (when none is false). */
export type ConditionsResult = { matches: boolean } | { error: string };

/** One condition's evaluation (filter.go ForInput's EvaluationResult): its value, or its error. */
type Evaluation = { value: unknown } | { error: string };

/**
 * matcher.go Match: every condition is evaluated first (filter.go ForInput), each held to the
 * per-call limit and all together to RuntimeCELCostBudgetMatchConditions, whose exhaustion is an
 * error whatever the conditions said; then a false condition wins over errors, and errors fail by
 * the failurePolicy. With `authorize` the conditions have the `authorizer` variable for the
 * requesting user.
 */
export function evaluateMatchConditions(
  h: WebhookAccessor,
  a: Attributes,
  namespaceObject: unknown,
  authorize?: SynchronousAuthorize,
): ConditionsResult {
  if (h.matchConditions.length === 0) return { matches: true };
  let remaining = runtimeCELCostBudgetMatchConditions;
  const vars = {
    object: a.object ?? null,
    oldObject: a.oldObject ?? null,
    request: admissionRequest(a),
    namespaceObject: namespaceObject ?? null,
    ...(authorize ? { authorizer: authorizerFor(a, authorize) } : {}),
  };
  const evaluations: Evaluation[] = [];
  for (const c of h.matchConditions) {
    if (c.program.error) {
      evaluations.push({ error: `compilation error: ${c.program.error.detail}` });
      continue;
    }
    // A meter, not a limit: the call is held to the per-call limit alone, its cost compared after.
    const meter: CostBudget = { remaining: Number.MAX_SAFE_INTEGER };
    let evaluation: Evaluation;
    try {
      evaluation = { value: c.program.program.evaluate(vars, { budget: meter }).value };
    } catch (e) {
      evaluation = { error: `matchCondition '${c.name}' resulted in error: ${e instanceof Error ? e.message : String(e)}` };
    }
    const cost = Number.MAX_SAFE_INTEGER - meter.remaining;
    if (cost > remaining) return { error: outOfBudgetMessage };
    remaining -= cost;
    evaluations.push(evaluation);
  }
  let firstError: string | undefined;
  for (const [i, e] of evaluations.entries()) {
    if ("error" in e) firstError ??= e.error;
    else if (e.value === false) return { matches: false };
    else if (e.value !== true) firstError ??= `matchCondition '${h.matchConditions[i]!.name}' must evaluate to bool`;
  }
  return firstError !== undefined ? { error: firstError } : { matches: true };
}

/**
 * {@link evaluateMatchConditions} with the server's authorizer behind the `authorizer` variable:
 * a decision the authorizer cannot give at once (the webhook authorizer's) is waited for and the
 * conditions evaluated again (see CachingAuthorizer), so the checks are made as upstream's
 * blocking evaluation makes them. A check repeated within one webhook's conditions is asked once.
 */
export async function matchConditionsWithAuthorizer(
  h: WebhookAccessor,
  a: Attributes,
  namespaceObject: unknown,
  authorizer: Authorizer | undefined,
): Promise<ConditionsResult> {
  if (authorizer === undefined || h.matchConditions.length === 0) return evaluateMatchConditions(h, a, namespaceObject);
  const authz = new CachingAuthorizer(authorizer);
  return authz.evaluate(() => evaluateMatchConditions(h, a, namespaceObject, authz.authorize));
}
