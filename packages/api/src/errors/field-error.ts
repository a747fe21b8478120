/**
 * Field errors, as k8s.io/apimachinery/pkg/util/validation/field renders them.
 *
 * A validator returns a `FieldErrorList`; only the server edge wraps it into a
 * `StatusError` (reason Invalid, code 422).
 */

/** The error types upstream defines, by their `Type` string. */
export const fieldErrorTypes = {
  NotFound: { label: "Not found", cause: "FieldValueNotFound" },
  Required: { label: "Required value", cause: "FieldValueRequired" },
  Duplicate: { label: "Duplicate value", cause: "FieldValueDuplicate" },
  Invalid: { label: "Invalid value", cause: "FieldValueInvalid" },
  NotSupported: { label: "Unsupported value", cause: "FieldValueNotSupported" },
  Forbidden: { label: "Forbidden", cause: "FieldValueForbidden" },
  TooLong: { label: "Too long", cause: "FieldValueTooLong" },
  TooMany: { label: "Too many", cause: "FieldValueTooMany" },
  Internal: { label: "Internal error", cause: "InternalError" },
  TypeInvalid: { label: "Invalid value", cause: "FieldValueTypeInvalid" },
} as const;

export type FieldErrorType = keyof typeof fieldErrorTypes;

/** Marks a bad value that is not printed (upstream's `omitValue`). */
export const omitValue: unique symbol = Symbol("omitValue");

/**
 * A bad value printed verbatim: Go's `%#v` of a struct (`rbac.RoleRef{APIGroup:"", Kind:"", Name:""}`),
 * which has no JSON equivalent.
 */
export class GoValue {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

/** One problem with one field. `field` is a path such as `spec.clusterIPs[0]`. */
export interface FieldError {
  readonly type: FieldErrorType;
  readonly field: string;
  readonly badValue: unknown;
  readonly detail: string;
}

export type FieldErrorList = FieldError[];

/** Types whose message never prints the bad value. */
const valueless: ReadonlySet<FieldErrorType> = new Set(["Required", "Forbidden", "TooLong", "Internal"]);

/** Renders a bad value the way Go's fmt does for the types validators pass. */
function formatValue(value: unknown): string {
  // ErrorBody: a nil value is the string "null", quoted as every string.
  if (value === null || value === undefined) return '"null"';
  if (value instanceof GoValue) return value.text;
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
  if (Array.isArray(value)) return `[]${goSliceType(value)}{${value.map(formatValue).join(", ")}}`;
  return JSON.stringify(value);
}

function goSliceType(values: unknown[]): string {
  if (values.every((v) => typeof v === "string")) return "string";
  if (values.every((v) => typeof v === "number")) return "int";
  return "interface {}";
}

/** The message of a field error without its path (upstream `ErrorBody`). */
export function fieldErrorBody(e: FieldError): string {
  const label = fieldErrorTypes[e.type].label;
  let s = valueless.has(e.type) || e.badValue === omitValue ? label : `${label}: ${formatValue(e.badValue)}`;
  if (e.detail.length > 0) s += `: ${e.detail}`;
  return s;
}

/** The full message of a field error (upstream `Error`). */
export function fieldErrorString(e: FieldError): string {
  return `${e.field}: ${fieldErrorBody(e)}`;
}

/** Aggregates errors the way utilerrors.NewAggregate prints them: one bare, several in brackets, deduplicated. */
export function aggregateMessage(errs: readonly FieldError[]): string {
  const msgs = [...new Set(errs.map(fieldErrorString))];
  return msgs.length === 1 ? msgs[0]! : `[${msgs.join(", ")}]`;
}

function make(type: FieldErrorType, field: string, badValue: unknown, detail = ""): FieldError {
  return { type, field, badValue, detail };
}

/** Constructors named as upstream's `field.*` helpers. */
export const field = {
  required: (path: string, detail = ""): FieldError => make("Required", path, "", detail),
  invalid: (path: string, value: unknown, detail = ""): FieldError => make("Invalid", path, value, detail),
  /** A value of the wrong type (`field.TypeInvalid`): printed as `Invalid value`, cause `FieldValueTypeInvalid`. */
  typeInvalid: (path: string, value: unknown, detail: string): FieldError => make("TypeInvalid", path, value, detail),
  duplicate: (path: string, value: unknown): FieldError => make("Duplicate", path, value),
  notFound: (path: string, value: unknown): FieldError => make("NotFound", path, value),
  forbidden: (path: string, detail: string): FieldError => make("Forbidden", path, "", detail),
  internal: (path: string, err: string): FieldError => make("Internal", path, null, err),
  notSupported: (path: string, value: unknown, valid: readonly string[]): FieldError =>
    make("NotSupported", path, value, valid.length > 0 ? `supported values: ${valid.map((v) => JSON.stringify(v)).join(", ")}` : ""),
  tooLong: (path: string, value: unknown, maxLength: number): FieldError =>
    make(
      "TooLong",
      path,
      value,
      maxLength >= 0 ? `may not be more than ${maxLength} ${maxLength === 1 ? "byte" : "bytes"}` : "value is too long",
    ),
  tooMany: (path: string, actual: number, max: number): FieldError =>
    make(
      "TooMany",
      path,
      actual >= 0 ? actual : omitValue,
      max >= 0 ? `must have at most ${max} ${max === 1 ? "item" : "items"}` : "has too many items",
    ),
};

/** Joins path segments: `path("spec", "clusterIPs", 0)` is `spec.clusterIPs[0]`. */
export function path(...segments: ReadonlyArray<string | number>): string {
  let out = "";
  for (const s of segments) {
    if (typeof s === "number") out += `[${s}]`;
    else out += out.length === 0 ? s : `.${s}`;
  }
  return out;
}

/** A key index, `spec.selector[app]`, as upstream's `Key()`. */
export function keyPath(base: string, key: string): string {
  return `${base}[${key}]`;
}
