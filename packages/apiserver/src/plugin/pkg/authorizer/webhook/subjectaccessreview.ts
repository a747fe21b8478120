/**
 * The SubjectAccessReview a webhook authorizer sends (webhook.go Authorize, resourceAttributesFrom,
 * fieldSelectorToAuthorizationAPI, labelSelectorToAuthorizationAPI and the v1beta1 client's
 * v1SpecToV1beta1Spec): the user, and the resource or non-resource attributes of the request, in
 * authorization.k8s.io/v1 or v1beta1 (where the groups are `group`), encoded as Go encodes the
 * object: empty fields left out, `metadata.creationTimestamp` null and `status.allowed` false.
 */
import type { Attributes } from "../../../../authorization/authorizer/interfaces.ts";
import type { FieldSelector } from "../../../../registry/generic/selection/fields.ts";
import type { LabelSelector } from "../../../../registry/generic/selection/labels.ts";
import type { ResourceAttributes, SubjectAccessReviewSpec } from "../../../../registry/authorization/validation.ts";

/** SubjectAccessReviewStatus as a webhook answers it. */
export interface SubjectAccessReviewStatus {
  allowed?: boolean;
  denied?: boolean;
  reason?: string;
  evaluationError?: string;
}

interface SelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

/** fieldSelectorToAuthorizationAPI: `=` and `==` as In, `!=` as NotIn, each of one value. */
function fieldRequirements(sel: FieldSelector | undefined): SelectorRequirement[] {
  return (sel ?? []).map((r) => ({ key: r.field, operator: r.operator === "!=" ? "NotIn" : "In", values: [r.value] }));
}

const labelOperators: Readonly<Record<string, string>> = {
  "=": "In",
  in: "In",
  "!=": "NotIn",
  notin: "NotIn",
  exists: "Exists",
  "!": "DoesNotExist",
};

/**
 * labelSelectorToAuthorizationAPI: the requirements the API can say; Gt and Lt are dropped, which
 * only broadens the check since requirements are ANDed.
 */
function labelRequirements(sel: LabelSelector | undefined): SelectorRequirement[] {
  const out: SelectorRequirement[] = [];
  for (const r of sel ?? []) {
    const operator = labelOperators[r.operator];
    if (operator === undefined) continue;
    out.push({ key: r.key, operator, ...(r.values.length > 0 ? { values: [...r.values] } : {}) });
  }
  return out;
}

/** Go's omitempty for the string fields of a struct: only the non-empty ones. */
function nonEmpty<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== "" && v !== undefined)) as Partial<T>;
}

/** resourceAttributesFrom: with AuthorizeWithSelectors, the selectors that have requirements left. */
function resourceAttributes(a: Attributes, withSelectors: boolean): ResourceAttributes {
  const out: ResourceAttributes = nonEmpty({
    namespace: a.namespace,
    verb: a.verb,
    group: a.apiGroup,
    version: a.apiVersion,
    resource: a.resource,
    subresource: a.subresource,
    name: a.name,
  });
  if (!withSelectors) return out;
  // Requirements are used even when the selector partly failed to parse: they only narrow.
  const fields = fieldRequirements(a.fieldSelectorRequirements);
  if (fields.length > 0) out.fieldSelector = { requirements: fields };
  const labels = labelRequirements(a.labelSelectorRequirements);
  if (labels.length > 0) out.labelSelector = { requirements: labels };
  return out;
}

/** The review's spec (v1), in Go's field order: it is also the decision cache's key. */
export function subjectAccessReviewSpec(a: Attributes, withSelectors: boolean): SubjectAccessReviewSpec {
  const spec: SubjectAccessReviewSpec = {};
  if (a.resourceRequest) spec.resourceAttributes = resourceAttributes(a, withSelectors);
  else spec.nonResourceAttributes = nonEmpty({ path: a.path, verb: a.verb });
  const u = a.user;
  if (u !== undefined) {
    if (u.name !== "") spec.user = u.name;
    if (u.groups.length > 0) spec.groups = [...u.groups];
    const extra = u.extra ?? {};
    const keys = Object.keys(extra).sort();
    // convertToSARExtra keeps an empty map (it is not nil), but omitempty drops it.
    if (keys.length > 0) spec.extra = Object.fromEntries(keys.map((k) => [k, [...extra[k]!]]));
    if (u.uid !== "") spec.uid = u.uid;
  }
  return spec;
}

/** The review posted to the webhook in `version` (v1beta1 names the groups `group`). */
export function subjectAccessReviewBody(spec: SubjectAccessReviewSpec, version: "v1" | "v1beta1"): Record<string, unknown> {
  const wire = Object.fromEntries(Object.entries(spec).map(([k, v]) => [version === "v1beta1" && k === "groups" ? "group" : k, v]));
  return {
    kind: "SubjectAccessReview",
    apiVersion: `authorization.k8s.io/${version}`,
    metadata: { creationTimestamp: null },
    spec: wire,
    status: { allowed: false },
  };
}
