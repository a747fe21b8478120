/**
 * SchemaValidator.Validate (kube-openapi pkg/validation/validate/schema.go) as a recursion over a
 * JSONSchemaProps tree: the type, schema-props (allOf/anyOf/oneOf/not), string, format, number,
 * slice, enum and object validators in upstream's order. With `old`, validation ratchets
 * (apiextensions-apiserver pkg/apiserver/validation/ratcheting.go): errors of a node whose value
 * is unchanged from the correlated old value are dropped (k8s.io/apiserver/pkg/cel/common/equality.go
 * decides what correlates and what is unchanged).
 */
import { semanticEqual } from "@servicenet/api";
import type { JSONSchemaProps } from "@servicenet/api/apiextensions/v1";
import { correlateField, correlateListItem, correlatedDeepEqual, type Correlated } from "../../../apiserver/cel/index.ts";
import {
  inBody,
  jsonType,
  schemaError,
  validateEnum,
  validateFormat,
  validateNumber,
  validateString,
  validateType,
  type SchemaError,
} from "./schema-validator.ts";

/** Validates `data` against `s` at `path` ("" at the root); `old` enables ratcheting. */
export function validateSchema(s: JSONSchemaProps, data: unknown, path = "", old?: Correlated): SchemaError[] {
  const errs = validateNode(s, data, path, old);
  if (errs.length > 0 && old !== undefined && correlatedDeepEqual(s, old.value, data)) return [];
  return errs;
}

function validateNode(s: JSONSchemaProps, data: unknown, path: string, old: Correlated | undefined): SchemaError[] {
  if (data === null || data === undefined) return [...validateType(s, null, path), ...validateEnum(s, null, path)];
  const errs: SchemaError[] = [...validateType(s, data, path), ...validateSchemaProps(s, data, path)];
  const t = jsonType(data);
  if (t === "string") errs.push(...validateString(s, data as string, path), ...validateFormat(s, data as string, path));
  if (t === "integer" || t === "number") errs.push(...validateNumber(s, data as number | bigint, path));
  if (t === "array") errs.push(...validateSlice(s, data as unknown[], path, old));
  errs.push(...validateEnum(s, data, path));
  if (t === "object") errs.push(...validateObject(s, data as Record<string, unknown>, path, old));
  return errs;
}

/** schemaPropsValidator: anyOf, oneOf, allOf and not, reporting the best failing alternative. */
function validateSchemaProps(s: JSONSchemaProps, data: unknown, path: string): SchemaError[] {
  const errs: SchemaError[] = [];
  const q = JSON.stringify(path);
  // Upstream keeps the failure with the highest MatchCount: an alternative whose type matched
  // went further than one that failed on its type.
  const score = (r: SchemaError[]): number => r.length + (r.some((e) => e.code === "InvalidType" && e.name === path) ? 0.5 : 0);
  const best = (results: SchemaError[][]): SchemaError[] =>
    results.reduce<SchemaError[] | undefined>((a, r) => (a === undefined || score(r) < score(a) ? r : a), undefined) ?? [];
  if (s.anyOf !== undefined && s.anyOf.length > 0) {
    const results = s.anyOf.map((sub) => validateSchema(sub, data, path));
    if (!results.some((r) => r.length === 0))
      errs.push({ name: path, message: `${q} must validate at least one schema (anyOf)` }, ...best(results));
  }
  if (s.oneOf !== undefined && s.oneOf.length > 0) {
    const results = s.oneOf.map((sub) => validateSchema(sub, data, path));
    const valid = results.filter((r) => r.length === 0).length;
    if (valid !== 1) {
      const more = valid === 0 ? "Found none valid" : `Found ${valid} valid alternatives`;
      errs.push({ name: path, message: `${q} must validate one and only one schema (oneOf). ${more}` });
      if (valid === 0) errs.push(...best(results));
    }
  }
  if (s.allOf !== undefined && s.allOf.length > 0) {
    const results = s.allOf.map((sub) => validateSchema(sub, data, path));
    const valid = results.filter((r) => r.length === 0).length;
    for (const r of results) errs.push(...r);
    if (valid !== s.allOf.length)
      errs.push({ name: path, message: `${q} must validate all the schemas (allOf)${valid === 0 ? ". None validated" : ""}` });
  }
  if (s.not !== undefined && validateSchema(s.not, data, path).length === 0)
    errs.push({ name: path, message: `${q} must not validate the schema (not)` });
  return errs;
}

/** schemaSliceValidator: items, then minItems, maxItems and uniqueItems. */
function validateSlice(s: JSONSchemaProps, data: unknown[], path: string, old: Correlated | undefined): SchemaError[] {
  const errs: SchemaError[] = [];
  const items = s.items !== undefined && !Array.isArray(s.items) ? s.items : undefined;
  if (items !== undefined) {
    data.forEach((v, i) => errs.push(...validateSchema(items, v, `${path}[${i}]`, correlateListItem(s, v, old?.value))));
  }
  if (s.minItems !== undefined && data.length < s.minItems)
    errs.push(schemaError("MinItems", path, `${path} in ${inBody} should have at least ${s.minItems} items`, { value: data.length }));
  if (s.maxItems !== undefined && data.length > s.maxItems)
    errs.push(
      schemaError("MaxItems", path, `${path} in ${inBody} should have at most ${s.maxItems} items`, {
        value: data.length,
        valid: s.maxItems,
      }),
    );
  if (s.uniqueItems === true && data.some((v, i) => data.slice(0, i).some((u) => semanticEqual(u, v))))
    errs.push(schemaError("Unique", path, `${path} in ${inBody} shouldn't contain duplicates`));
  return errs;
}

/** objectValidator: min/maxProperties, additionalProperties, properties, then required. */
function validateObject(s: JSONSchemaProps, data: Record<string, unknown>, path: string, old: Correlated | undefined): SchemaError[] {
  const errs: SchemaError[] = [];
  const n = Object.keys(data).length;
  const props = s.properties ?? {};
  // ratchetingValueValidator.SubPropertyValidator: the root's apiVersion and kind never ratchet,
  // old and new having been converted to the same version.
  const child = (k: string): Correlated | undefined =>
    path === "" && (k === "apiVersion" || k === "kind") ? undefined : correlateField(s, k, old?.value, data);
  const sub = (k: string): string => (path === "" ? k : `${path}.${k}`);
  if (s.minProperties !== undefined && n < s.minProperties)
    errs.push(
      schemaError("TooFewProperties", path, `${path} in ${inBody} should have at least ${s.minProperties} properties`, { value: n }),
    );
  if (s.maxProperties !== undefined && n > s.maxProperties)
    errs.push(
      schemaError("TooManyProperties", path, `${path} in ${inBody} should have at most ${s.maxProperties} properties`, {
        value: n,
        valid: s.maxProperties,
      }),
    );
  const ap = s.additionalProperties;
  if (ap === false) {
    for (const k of Object.keys(data))
      if (!Object.hasOwn(props, k))
        errs.push(schemaError("UnallowedProperty", path, `${path}.${k} in ${inBody} is a forbidden property`, { value: k }));
  } else if (ap !== undefined && ap !== true) {
    for (const [k, v] of Object.entries(data)) if (!Object.hasOwn(props, k)) errs.push(...validateSchema(ap, v, `${path}.${k}`, child(k)));
  }
  for (const [k, ps] of Object.entries(props)) if (Object.hasOwn(data, k)) errs.push(...validateSchema(ps, data[k], sub(k), child(k)));
  for (const k of s.required ?? [])
    if (!Object.hasOwn(data, k)) errs.push(schemaError("Required", `${path}.${k}`, `${path}.${k} in ${inBody} is required`));
  return errs;
}
