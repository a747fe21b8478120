/**
 * apimachinery pkg/apis/meta/v1/helpers.go LabelSelectorAsSelector, as a matcher: a nil selector
 * matches nothing, an empty one everything; matchLabels are Equals requirements, matchExpressions
 * In / NotIn / Exists / DoesNotExist (pkg/labels selector.go Requirement.Matches).
 */
import type { LabelSelector } from "./label-selector.ts";

/** Tells whether a label set is selected. */
export type LabelMatcher = (labels: Readonly<Record<string, string>> | null | undefined) => boolean;

const nothing: LabelMatcher = () => false;

/** `labels.Everything()`: matches every label set; listers skip reading labels for it. */
export const everything: LabelMatcher = () => true;

function requirement(key: string, operator: string, values: readonly string[]): LabelMatcher {
  const has = (l: Readonly<Record<string, string>>) => Object.prototype.hasOwnProperty.call(l, key);
  switch (operator) {
    case "In":
    case "NotIn": {
      // labels.NewRequirement: set-based operators need at least one value.
      if (values.length === 0) throw new Error(`values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be empty`);
      const set = new Set(values);
      const inSet = (l: Readonly<Record<string, string>>) => has(l) && set.has(l[key]!);
      return operator === "In" ? (l) => inSet(l ?? {}) : (l) => !inSet(l ?? {});
    }
    case "Exists":
    case "DoesNotExist":
      if (values.length !== 0)
        throw new Error(`values: Invalid value: ${goStrings(values)}: values set must be empty for exists and does not exist`);
      return operator === "Exists" ? (l) => has(l ?? {}) : (l) => !has(l ?? {});
    default:
      throw new Error(`"${operator}" is not a valid label selector operator`);
  }
}

/** fmt's %#v of a []string, as NewRequirement's errors print values. */
function goStrings(values: readonly string[]): string {
  return `[]string{${values.map((v) => JSON.stringify(v)).join(", ")}}`;
}

/**
 * LabelSelectorAsSelector: the matcher of a metav1.LabelSelector. Throws for an unknown operator
 * or a values list that does not fit its operator, with labels.NewRequirement's messages.
 */
export function labelSelectorAsSelector(ps: LabelSelector | null | undefined): LabelMatcher {
  if (ps === null || ps === undefined) return nothing;
  const matchLabels = Object.entries(ps.matchLabels ?? {});
  const expressions = ps.matchExpressions ?? [];
  if (matchLabels.length + expressions.length === 0) return everything;
  const reqs: LabelMatcher[] = matchLabels.map(
    ([k, v]) =>
      (l) =>
        l !== null && l !== undefined && l[k] === v && Object.prototype.hasOwnProperty.call(l, k),
  );
  for (const e of expressions) reqs.push(requirement(e.key, e.operator, e.values ?? []));
  return (labels) => reqs.every((r) => r(labels));
}

/**
 * `labels.SelectorFromSet` (`labels.Set(m).AsSelectorPreValidated()`): every pair must be present
 * with its value; a nil or empty set matches everything.
 */
export function selectorFromSet(set: Readonly<Record<string, string>> | null | undefined): LabelMatcher {
  return labelSelectorAsSelector({ matchLabels: { ...set } });
}

/** One requirement as labels.Requirement.String prints it. */
function requirementString(key: string, operator: string, values: readonly string[]): string {
  const sorted = [...values].sort();
  switch (operator) {
    case "In":
      return `${key} in (${sorted.join(",")})`;
    case "NotIn":
      return `${key} notin (${sorted.join(",")})`;
    case "Exists":
      return key;
    case "DoesNotExist":
      return `!${key}`;
    default:
      return `${key}=${sorted.join(",")}`;
  }
}

/**
 * `LabelSelectorAsSelector(ps).String()`: the requirements sorted by key and joined by commas
 * (`app=web,tier notin (db)`); "" for a nil or empty selector.
 */
export function labelSelectorString(ps: LabelSelector | null | undefined): string {
  if (ps === null || ps === undefined) return "";
  const reqs: [string, string][] = Object.entries(ps.matchLabels ?? {}).map(([k, v]) => [k, `${k}=${v}`]);
  for (const e of ps.matchExpressions ?? []) reqs.push([e.key, requirementString(e.key, e.operator, e.values ?? [])]);
  // sort.Sort(ByKey): a stable order by key only.
  return reqs
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map((r) => r[1])
    .join(",");
}
