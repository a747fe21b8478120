/**
 * Whether a policy's matchConstraints or a binding's matchResources cover a request
 * (k8s.io/apiserver/pkg/admission/plugin/policy/matching/matching.go Matcher.Matches and
 * matchesResourceRules): the namespace and object selectors, then the excluded rules, then the
 * rules; under matchPolicy Equivalent a rule naming an equivalent resource matches too, and the
 * request is then seen as that resource and kind.
 */
import { labelSelectorAsSelector } from "@servicenet/api";
import type { MatchResources, NamedRuleWithOperations } from "@servicenet/api/admissionregistration/v1";
import type { KubeObject } from "../../../../storage/index.ts";
import type { Attributes, GroupVersionKind, GroupVersionResource } from "../../../attributes.ts";
import type { EquivalentResourceMapper } from "../../../equivalent-resources.ts";
import { namedRuleMatches, ruleMatches } from "./rules.ts";

type Labels = Readonly<Record<string, string>> | undefined;

/** The resource and kind a matched request is seen as: its own, or the equivalent one a rule named. */
export interface MatchedResource {
  resource: GroupVersionResource;
  kind: GroupVersionKind;
}

const labelsOf = (o: KubeObject): Labels => o.metadata["labels"] as Labels;

const sameResource = (a: GroupVersionResource, b: GroupVersionResource): boolean =>
  a.group === b.group && a.version === b.version && a.resource === b.resource;

/**
 * matchesResourceRules: the first rule covering the request itself; else, with matchPolicy
 * Equivalent and a mapper, the first rule (in rule order) covering one of its equivalent resources.
 * As upstream, the equivalent pass does not look at resourceNames.
 */
export function matchesResourceRules(
  rules: readonly NamedRuleWithOperations[],
  matchPolicy: string | undefined,
  a: Attributes,
  mapper?: EquivalentResourceMapper,
): MatchedResource | undefined {
  if (rules.some((r) => namedRuleMatches(r, a))) return { resource: a.resource, kind: a.kind };
  if (matchPolicy !== "Equivalent" || mapper === undefined) return undefined;
  const equivalents = mapper.equivalentResourcesFor(a.resource, a.subresource).filter((e) => !sameResource(e, a.resource));
  for (const r of rules) {
    for (const resource of equivalents) {
      if (!ruleMatches(r, { ...a, resource })) continue;
      const kind = mapper.kindFor(resource, a.subresource);
      return kind && { resource, kind };
    }
  }
  return undefined;
}

/**
 * Matches `a` against `m`. `namespaceLabels` gives the labels of the request's namespace (for a
 * Namespace itself, its own). An absent `m` matches nothing, as an empty matchConstraints does.
 * `mapper` finds equivalent resources for matchPolicy Equivalent; without it only exact rules match.
 */
export function matches(
  m: MatchResources | undefined,
  a: Attributes,
  namespaceLabels: Labels,
  mapper?: EquivalentResourceMapper,
): MatchedResource | undefined {
  if (m === undefined) return undefined;
  // namespace/matcher.go: a cluster-scoped object other than a Namespace is in no namespace: it matches.
  const inNamespace = a.namespace !== "" || (a.resource.group === "" && a.resource.resource === "namespaces");
  if (inNamespace && !labelSelectorAsSelector(m.namespaceSelector ?? {})(namespaceLabels ?? {})) return undefined;
  // object/matcher.go: either the new or the old object may match.
  const objectSelector = labelSelectorAsSelector(m.objectSelector ?? {});
  const objs = [a.object, a.oldObject].filter((o) => o !== undefined);
  if (!objs.some((o) => objectSelector(labelsOf(o) ?? {}))) return undefined;
  if (matchesResourceRules(m.excludeResourceRules ?? [], m.matchPolicy, a, mapper)) return undefined;
  // matching.go Matches: a binding's matchResources without resourceRules leaves resources to the policy.
  const rules = m.resourceRules ?? [];
  return rules.length === 0 ? { resource: a.resource, kind: a.kind } : matchesResourceRules(rules, m.matchPolicy, a, mapper);
}
