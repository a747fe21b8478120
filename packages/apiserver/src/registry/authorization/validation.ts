/**
 * pkg/apis/authorization/validation/validation.go: the access reviews' validation, upstream's
 * field paths and messages. Bad values are Go's `%#v` of what upstream passes (pointers to the
 * attribute structs), so kubectl prints what kube-apiserver prints.
 */
import { GoValue, type FieldError } from "@servicenet/api";

export interface ResourceAttributes {
  namespace?: string;
  verb?: string;
  group?: string;
  version?: string;
  resource?: string;
  subresource?: string;
  name?: string;
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

/** ValidateSubjectAccessReviewSpec. */
export function validateSubjectAccessReviewSpec(spec: SubjectAccessReviewSpec): FieldError[] {
  const errs = validateAttributesChoice(spec);
  if ((spec.user ?? "") === "" && (spec.groups ?? []).length === 0)
    errs.push(invalid("spec.user", spec.user ?? "", "at least one of user or group must be specified"));
  return errs;
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
  const errs = self ? validateAttributesChoice(spec) : validateSubjectAccessReviewSpec(spec);
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
