/**
 * The OpenAPI schema validator the apiextensions-apiserver validates custom objects with
 * (kube-openapi pkg/validation/validate: schema.go SchemaValidator, type.go, validator.go,
 * object_validator.go, slice_validator.go, schema_props.go, values.go), over JSON values, with
 * the messages of kube-openapi pkg/validation/errors/schema.go. Validation ratchets as
 * apiextensions' ratcheting.go does on update: a node whose value equals the correlated old value
 * keeps no errors.
 */
import { semanticEqual } from "@servicenet/api";
import type { JSONSchemaProps } from "@servicenet/api/apiextensions/v1";
import { formatCheck } from "./formats.ts";
import { goFloat } from "./go-format.ts";

/** kube-openapi's error codes the apiextensions conversion tells apart (errors/schema.go). */
export type SchemaErrorCode =
  | "InvalidType"
  | "Required"
  | "TooLong"
  | "TooShort"
  | "Pattern"
  | "Enum"
  | "MultipleOf"
  | "Max"
  | "Min"
  | "Unique"
  | "MaxItems"
  | "MinItems"
  | "TooFewProperties"
  | "TooManyProperties"
  | "UnallowedProperty";

/** One kube-openapi error: a `*errors.Validation` (with a code) or a composite `apiError` (without). */
export interface SchemaError {
  code?: SchemaErrorCode;
  name: string;
  value?: unknown;
  /** The enum's values (EnumFail). */
  values?: unknown[];
  /** The limit (TooLong, MaxItems, TooManyProperties). */
  valid?: number;
  message: string;
}

const inBody = "body";

function err(code: SchemaErrorCode, name: string, message: string, extra: Partial<SchemaError> = {}): SchemaError {
  return { code, name, message, ...extra };
}

/** errors.InvalidType: `%s in %s must be of type %s: %q` for a string value, without it otherwise. */
function invalidType(name: string, typeName: string, value: unknown): SchemaError {
  const msg =
    typeof value === "string"
      ? `${name} in ${inBody} must be of type ${typeName}: ${JSON.stringify(value)}`
      : `${name} in ${inBody} must be of type ${typeName}`;
  return err("InvalidType", name, msg, { value });
}

/** The JSON type of a decoded value (typeValidator.schemaInfoForType on unstructured data). */
export function jsonType(v: unknown): "null" | "boolean" | "string" | "integer" | "number" | "array" | "object" {
  if (v === null || v === undefined) return "null";
  if (typeof v === "boolean") return "boolean";
  if (typeof v === "string") return "string";
  if (typeof v === "number" || typeof v === "bigint") return typeof v === "bigint" || Number.isInteger(v) ? "integer" : "number";
  return Array.isArray(v) ? "array" : "object";
}

/** The schema's types: `x-kubernetes-int-or-string` is integer or string (ConvertJSONSchemaPropsWithPostProcess). */
function typesOf(s: JSONSchemaProps): string[] {
  if (s["x-kubernetes-int-or-string"] === true) return ["integer", "string"];
  return s.type ? [s.type] : [];
}

/** The format, when a supported one (unsupported formats are stripped from CRD schemas). */
function formatOf(s: JSONSchemaProps): string {
  return s.format !== undefined && formatCheck(s.format) !== undefined ? s.format : "";
}

/** typeValidator.Validate. */
function validateType(s: JSONSchemaProps, data: unknown, path: string): SchemaError[] {
  const types = typesOf(s);
  const format = formatOf(s);
  if (types.length === 0 && format === "") return [];
  if (data === null || data === undefined) {
    if (types.length > 0 && s.nullable !== true) return [invalidType(path, types.join(","), "null")];
    return [];
  }
  const t = jsonType(data);
  const kindStringOrSlice = t === "string" || t === "array";
  const isFloatInt = t === "number" && Number.isInteger(data) && types.includes("integer");
  const isIntFloat = t === "integer" && types.includes("number");
  if (!types.includes("number") && !types.includes("integer") && format !== "" && kindStringOrSlice) return [];
  if (!(types.includes(t) || isFloatInt || isIntFloat)) return [invalidType(path, types.join(","), t)];
  return [];
}

/** stringValidator: maxLength, minLength, pattern in that order, the first failure only. */
function validateString(s: JSONSchemaProps, data: string, path: string): SchemaError[] {
  const runes = [...data].length;
  if (s.maxLength !== undefined && runes > s.maxLength)
    return [err("TooLong", path, `${path} in ${inBody} should be at most ${s.maxLength} chars long`, { value: data, valid: s.maxLength })];
  if (s.minLength !== undefined && runes < s.minLength)
    return [err("TooShort", path, `${path} in ${inBody} should be at least ${s.minLength} chars long`, { value: data })];
  if (s.pattern !== undefined && s.pattern !== "") {
    const re = compilePattern(s.pattern);
    if (typeof re === "string")
      return [err("Pattern", path, `${path} in ${inBody} should match '${s.pattern}, but pattern is invalid: ${re}'`, { value: data })];
    if (!re.test(data)) return [err("Pattern", path, `${path} in ${inBody} should match '${s.pattern}'`, { value: data })];
  }
  return [];
}

const patterns = new Map<string, RegExp | string>();

/** Go regexp patterns compiled once (RE2 syntax is the common subset here; an unparsable one reports why). */
function compilePattern(p: string): RegExp | string {
  let re = patterns.get(p);
  if (re === undefined) {
    try {
      re = new RegExp(p, "u");
    } catch (e) {
      re = e instanceof Error ? e.message : String(e);
    }
    patterns.set(p, re);
  }
  return re;
}

/** formatValidator: a string in a supported format (FormatOf reports InvalidType with the format's name). */
function validateFormat(s: JSONSchemaProps, data: string, path: string): SchemaError[] {
  const check = formatCheck(s.format);
  return check === undefined || check(data) ? [] : [invalidType(path, s.format!, data)];
}

/**
 * numberValidator: multipleOf, then minimum, then maximum (integers print bounds as integers). An
 * int64 beyond a double (a bigint) is compared exactly, as MinimumNativeType and
 * MaximumNativeType compare an int64 value.
 */
function validateNumber(s: JSONSchemaProps, data: number | bigint, path: string): SchemaError[] {
  const errs: SchemaError[] = [];
  const isInt = typeof data === "bigint" || (Number.isInteger(data) && jsonType(data) === "integer");
  const bound = (b: number): string => (isInt ? String(Math.trunc(b)) : goFloat(b));
  if (s.multipleOf !== undefined && s.multipleOf !== 0 && !isMultipleOf(data, s.multipleOf))
    errs.push(err("MultipleOf", path, `${path} in ${inBody} should be a multiple of ${goFloat(s.multipleOf)}`, { value: data }));
  if (s.minimum !== undefined) {
    const min = isInt ? Math.trunc(s.minimum) : s.minimum;
    const excl = s.exclusiveMinimum === true;
    if ((!excl && data < min) || (excl && data <= min))
      errs.push(
        err("Min", path, `${path} in ${inBody} should be greater than ${excl ? "" : "or equal to "}${bound(s.minimum)}`, { value: data }),
      );
  }
  if (s.maximum !== undefined) {
    const max = isInt ? Math.trunc(s.maximum) : s.maximum;
    const excl = s.exclusiveMaximum === true;
    if ((!excl && data > max) || (excl && data >= max))
      errs.push(
        err("Max", path, `${path} in ${inBody} should be less than ${excl ? "" : "or equal to "}${bound(s.maximum)}`, { value: data }),
      );
  }
  return errs;
}

/** MultipleOfNativeType: an int64 by an integral factor exactly, anything else as float64 division. */
function isMultipleOf(data: number | bigint, factor: number): boolean {
  if (typeof data === "bigint" && Number.isInteger(factor)) return data % BigInt(factor) === 0n;
  const q = Number(data) / factor;
  return Number.isInteger(q) || Math.abs(q - Math.round(q)) <= 1e-9;
}

/** basicCommonValidator: the value is one of the enum's (compared as JSON values). */
function validateEnum(s: JSONSchemaProps, data: unknown, path: string): SchemaError[] {
  if (s.enum === undefined || s.enum.length === 0) return [];
  if (s.enum.some((e) => semanticEqual(e, data ?? null))) return [];
  const list = s.enum.map((e) => (typeof e === "string" ? e : JSON.stringify(e))).join(" ");
  return [err("Enum", path, `${path} in ${inBody} should be one of [${list}]`, { value: data ?? null, values: s.enum })];
}

export { err as schemaError, inBody, invalidType, validateEnum, validateFormat, validateNumber, validateString, validateType };
