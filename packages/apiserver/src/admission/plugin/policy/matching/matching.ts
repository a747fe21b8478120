/**
 * Whether a policy's matchConstraints or a binding's matchResources cover a request
 * (k8s.io/apiserver/pkg/admission/plugin/policy/matching/matching.go Matcher.Matches): the
 * namespace and object selectors, then the excluded rules, then the rules.
 */
import { labelSelectorAsSelector } from "@servicenet/api";
import type { MatchResources } from "@servicenet/api/admissionregistration/v1";
import type { KubeObject } from "../../../../storage/index.ts";
import type { Attributes } from "../../../attributes.ts";
import { namedRuleMatches } from "./rules.ts";

type Labels = Readonly<Record<string, string>> | undefined;

const labelsOf = (o: KubeObject): Labels => o.metadata["labels"] as Labels;

/**
 * Matches `a` against `m`. `namespaceLabels` gives the labels of the request's namespace (for a
 * Namespace itself, its own). An absent `m` matches nothing, as an empty matchConstraints does.
 */
export function matches(m: MatchResources | undefined, a: Attributes, namespaceLabels: Labels): boolean {
  if (m === undefined) return false;
  // namespace/matcher.go: a cluster-scoped object other than a Namespace is in no namespace: it matches.
  const inNamespace = a.namespace !== "" || (a.resource.group === "" && a.resource.resource === "namespaces");
  if (inNamespace && !labelSelectorAsSelector(m.namespaceSelector ?? {})(namespaceLabels ?? {})) return false;
  // object/matcher.go: either the new or the old object may match.
  const objectSelector = labelSelectorAsSelector(m.objectSelector ?? {});
  const objs = [a.object, a.oldObject].filter((o) => o !== undefined);
  if (!objs.some((o) => objectSelector(labelsOf(o) ?? {}))) return false;
  if ((m.excludeResourceRules ?? []).some((r) => namedRuleMatches(r, a))) return false;
  // matching.go Matches: a binding's matchResources without resourceRules leaves resources to the policy.
  const rules = m.resourceRules ?? [];
  return rules.length === 0 || rules.some((r) => namedRuleMatches(r, a));
}
