/**
 * An access review's `resourceAttributes.fieldSelector`/`labelSelector` as authorizer attributes
 * (pkg/registry/authorization/util/helpers.go ResourceAttributesFrom, labelSelectorAsSelector,
 * fieldSelectorAsSelector, BuildEvaluationError). Requirements that cannot be used are dropped
 * and reported as the parse error: requirements are ANDed, so dropping one only broadens the check.
 */
import type { Attributes } from "../../authorization/authorizer/interfaces.ts";
import { selectorAttributes } from "../../authorization/authorizer/selectors.ts";
import type { FieldRequirement } from "../../registry/generic/selection/fields.ts";
import type { LabelRequirement } from "../../registry/generic/selection/labels.ts";
import type { ResourceAttributes } from "./validation.ts";

interface Requirement {
  key?: string;
  operator?: string;
  values?: string[];
}

const labelOps: Readonly<Record<string, LabelRequirement["operator"]>> = { In: "in", NotIn: "notin", Exists: "exists", DoesNotExist: "!" };

/** labelSelectorAsSelector: the known operators' requirements, and the errors of the others. */
function labelRequirements(reqs: readonly Requirement[]): { reqs: LabelRequirement[]; errs: string[] } {
  const out: LabelRequirement[] = [];
  const errs: string[] = [];
  for (const r of reqs) {
    const op = labelOps[r.operator ?? ""];
    if (op === undefined) errs.push(`${JSON.stringify(r.operator ?? "")} is not a valid label selector operator`);
    else out.push({ key: r.key ?? "", operator: op, values: [...(r.values ?? [])] });
  }
  return { reqs: out, errs };
}

/** fieldSelectorAsSelector: In and NotIn of one value as `=` and `!=`; anything else is an error. */
function fieldRequirements(reqs: readonly Requirement[]): { reqs: FieldRequirement[]; errs: string[] } {
  const out: FieldRequirement[] = [];
  const errs: string[] = [];
  for (const r of reqs) {
    const values = r.values ?? [];
    if (values.length > 1) errs.push("fieldSelectors do not yet support multiple values");
    else if (r.operator === "In" || r.operator === "NotIn") {
      if (values.length !== 1) errs.push(`fieldSelectors ${r.operator === "In" ? "in" : "not in"} must have one value`);
      else out.push({ field: r.key ?? "", operator: r.operator === "In" ? "=" : "!=", value: values[0]! });
    } else if (r.operator === "Exists" || r.operator === "DoesNotExist") errs.push(`fieldSelectors do not yet support ${r.operator}`);
    else errs.push(`${JSON.stringify(r.operator ?? "")} is not a valid field selector operator`);
  }
  return { reqs: out, errs };
}

/** utilerrors.NewAggregate's message: one error as is, several in brackets. */
const aggregate = (errs: readonly string[]): string => (errs.length === 1 ? errs[0]! : `[${errs.join(", ")}]`);

/** The selector attributes of the review's resource attributes (requirements win over a raw selector). */
export function reviewSelectorAttributes(a: ResourceAttributes): Partial<Attributes> {
  const out: Partial<Attributes> = selectorAttributes(a.fieldSelector?.rawSelector, a.labelSelector?.rawSelector);
  const labels = a.labelSelector?.requirements as Requirement[] | undefined;
  if (labels && labels.length > 0) {
    const r = labelRequirements(labels);
    delete out.labelSelectorParsingErr;
    out.labelSelectorRequirements = r.reqs;
    if (r.errs.length > 0) out.labelSelectorParsingErr = aggregate(r.errs);
  }
  const fields = a.fieldSelector?.requirements as Requirement[] | undefined;
  if (fields && fields.length > 0) {
    const r = fieldRequirements(fields);
    delete out.fieldSelectorParsingErr;
    out.fieldSelectorRequirements = r.reqs;
    if (r.errs.length > 0) out.fieldSelectorParsingErr = aggregate(r.errs);
  }
  return out;
}

/** BuildEvaluationError: the authorizer's error and which selectors were (partly) ignored. */
export function buildEvaluationError(error: string | undefined, a: Attributes): string {
  const out: string[] = error !== undefined && error !== "" ? [error] : [];
  const ignored = (name: string, reqs: readonly unknown[] | undefined) =>
    `spec.resourceAttributes.${name} ${reqs && reqs.length > 0 ? "partially ignored" : "ignored"} due to parse error`;
  if (a.fieldSelectorParsingErr !== undefined) out.push(ignored("fieldSelector", a.fieldSelectorRequirements));
  if (a.labelSelectorParsingErr !== undefined) out.push(ignored("labelSelector", a.labelSelectorRequirements));
  return out.join("; ");
}
