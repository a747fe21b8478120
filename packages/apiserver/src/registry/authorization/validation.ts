/**
 * pkg/apis/authorization/validation/validation.go: the access reviews' validation, upstream's
 * field paths and messages. Bad values are Go's `%#v` of what upstream passes (pointers to the
 * attribute structs), so kubectl prints what kube-apiserver prints.
 */
import {
  field,
  GoValue,
  path,
  validateFieldSelectorRequirement,
  validateLabelSelectorRequirement,
  type FieldError,
  type FieldSelectorRequirement,
  type LabelSelectorRequirement,
} from "@servicenet/api";

export interface ResourceAttributes {
  namespace?: string;
  verb?: string;
  group?: string;
  version?: string;
  resource?: string;
  subresource?: string;
  name?: string;
  /** AuthorizeWithSelectors: the field selector the access is limited to. */
  fieldSelector?: SelectorAttributes;
  /** AuthorizeWithSelectors: the label selector the access is limited to. */
  labelSelector?: SelectorAttributes;
}
/** FieldSelectorAttributes and LabelSelectorAttributes: a raw selector or its requirements, not both. */
export interface SelectorAttributes {
  rawSelector?: string;
  requirements?: unknown[];
}
export interface NonResourceAttributes {
  path?: string;
  verb?: string;
}
export interface SubjectAccessReviewSpec {
  resourceAttributes?: ResourceAttributes;
  nonResourceAttributes?: NonResourceAttributes;
  user?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
  uid?: string;
}
export interface ReviewMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  [k: string]: unknown;
}

const invalid = (field: string, badValue: unknown, detail: string): FieldError => ({ type: "Invalid", field, badValue, detail });

function goNonResource(a: NonResourceAttributes | undefined): GoValue {
  if (a === undefined) return new GoValue("(*authorization.NonResourceAttributes)(nil)");
  return new GoValue(`&authorization.NonResourceAttributes{Path:${JSON.stringify(a.path ?? "")}, Verb:${JSON.stringify(a.verb ?? "")}}`);
}

/** The checks ValidateSubjectAccessReviewSpec and ValidateSelfSubjectAccessReviewSpec share. */
function validateAttributesChoice(spec: SubjectAccessReviewSpec): FieldError[] {
  const errs: FieldError[] = [];
  if (spec.resourceAttributes !== undefined && spec.nonResourceAttributes !== undefined) {
    errs.push(
      invalid(
        "spec.nonResourceAttributes",
        goNonResource(spec.nonResourceAttributes),
        "cannot be specified in combination with resourceAttributes",
      ),
    );
  }
  if (spec.resourceAttributes === undefined && spec.nonResourceAttributes === undefined) {
    errs.push(
      invalid(
        "spec.resourceAttributes",
        goNonResource(spec.nonResourceAttributes),
        "exactly one of nonResourceAttributes or resourceAttributes must be specified",
      ),
    );
  }
  return errs;
}

/** How one requirement of a selector is validated (metav1validation's, per selector kind). */
type RequirementValidator = (requirement: unknown, fldPath: string) => FieldError[];

// AllowUnknownOperatorInRequirement: a newer client's operator passes validation (and is then
// ignored when the review is evaluated, see selectors.ts), as validation.go sets it for both kinds.
const fieldRequirement: RequirementValidator = (r, fldPath) =>
  validateFieldSelectorRequirement(r as FieldSelectorRequirement, { allowUnknownOperatorInRequirement: true }, fldPath);
const labelRequirement: RequirementValidator = (r, fldPath) =>
  validateLabelSelectorRequirement(r as LabelSelectorRequirement, { allowUnknownOperatorInRequirement: true }, fldPath);

/**
 * validateFieldSelectorAttributes and validateLabelSelectorAttributes: the raw selector and the
 * requirements exclude each other, one of them is needed, and each requirement is validated.
 */
function validateSelectorAttributes(
  selector: SelectorAttributes | undefined,
  fldPath: string,
  requirement: RequirementValidator,
): FieldError[] {
  if (selector === undefined || selector === null) return [];
  const raw = selector.rawSelector ?? "";
  const requirements = selector.requirements ?? [];
  const errs: FieldError[] = [];
  if (raw.length > 0 && requirements.length > 0)
    errs.push(invalid(`${fldPath}.rawSelector`, raw, "may not specified at the same time as requirements"));
  if (raw.length === 0 && requirements.length === 0)
    errs.push(field.required(`${fldPath}.requirements`, `when ${fldPath} is specified, requirements or rawSelector is required`));
  requirements.forEach((r, i) => errs.push(...requirement(r, path(fldPath, "requirements", i))));
  return errs;
}

/** validateResourceAttributes: the selectors of the resource attributes. */
function validateResourceAttributes(a: ResourceAttributes | undefined): FieldError[] {
  if (a === undefined) return [];
  const base = "spec.resourceAttributes";
  return [
    ...validateSelectorAttributes(a.fieldSelector, `${base}.fieldSelector`, fieldRequirement),
    ...validateSelectorAttributes(a.labelSelector, `${base}.labelSelector`, labelRequirement),
  ];
}

/** ValidateSubjectAccessReviewSpec. */
export function validateSubjectAccessReviewSpec(spec: SubjectAccessReviewSpec): FieldError[] {
  const errs = validateAttributesChoice(spec);
  if ((spec.user ?? "") === "" && (spec.groups ?? []).length === 0)
    errs.push(invalid("spec.user", spec.user ?? "", "at least one of user or group must be specified"));
  errs.push(...validateResourceAttributes(spec.resourceAttributes));
  return errs;
}

/** ValidateSelfSubjectAccessReviewSpec. */
function validateSelfSubjectAccessReviewSpec(spec: SubjectAccessReviewSpec): FieldError[] {
  return [...validateAttributesChoice(spec), ...validateResourceAttributes(spec.resourceAttributes)];
}

/** Whether ObjectMeta is empty (managedFields aside, and namespace aside when `exceptNamespace`). */
function metaEmpty(meta: ReviewMeta | undefined, exceptNamespace: boolean): boolean {
  return Object.entries(meta ?? {}).every(([k, v]) => {
    if (k === "managedFields" || (exceptNamespace && k === "namespace")) return true;
    // A zero metav1.Time: null in JSON, the epoch in protobuf.
    if (k === "creationTimestamp") return v === null || v === undefined || v === "1970-01-01T00:00:00Z";
    return v === undefined || v === "" || (typeof v === "object" && v !== null && Object.keys(v).length === 0);
  });
}

/** ValidateSubjectAccessReview and ValidateSelfSubjectAccessReview: the spec, and metadata must be empty. */
export function validateAccessReview(meta: ReviewMeta | undefined, spec: SubjectAccessReviewSpec, self: boolean): FieldError[] {
  const errs = self ? validateSelfSubjectAccessReviewSpec(spec) : validateSubjectAccessReviewSpec(spec);
  if (!metaEmpty(meta, false)) errs.push(invalid("metadata", new GoValue("v1.ObjectMeta{...}"), "must be empty"));
  return errs;
}

/** ValidateLocalSubjectAccessReview. */
export function validateLocalSubjectAccessReview(meta: ReviewMeta | undefined, spec: SubjectAccessReviewSpec): FieldError[] {
  const errs = validateSubjectAccessReviewSpec(spec);
  if (!metaEmpty(meta, true)) errs.push(invalid("metadata", new GoValue("v1.ObjectMeta{...}"), "must be empty except for namespace"));
  if (spec.resourceAttributes !== undefined && (spec.resourceAttributes.namespace ?? "") !== (meta?.namespace ?? "")) {
    errs.push(invalid("spec.resourceAttributes.namespace", spec.resourceAttributes.namespace ?? "", "must match metadata.namespace"));
  }
  if (spec.nonResourceAttributes !== undefined)
    errs.push(invalid("spec.nonResourceAttributes", goNonResource(spec.nonResourceAttributes), "disallowed on this kind of request"));
  return errs;
}
