/**
 * The int64s of a CRD's schema `default`, `enum` and `example`. These are apiextensionsv1.JSON
 * fields (apiextensions-apiserver pkg/apis/apiextensions/v1/types_jsonschema.go): their raw bytes
 * are kept as written and read with util/json (conversion.go Convert_v1_JSON_To_apiextensions_JSON),
 * so a default of 9223372036854775807 defaults custom resources to that exact int64. Every other
 * number of a CRD is a Go int64 or float64 struct field, read as JSON.parse reads it.
 */
const isMap = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** The JSON-valued members of a JSONSchemaProps, whose bigints stay. */
const jsonFields: ReadonlySet<string> = new Set(["default", "enum", "example"]);
/** Members holding one schema (or a bool, or a list of them for `items`). */
const schemaFields: ReadonlySet<string> = new Set(["items", "not", "additionalProperties", "additionalItems"]);
/** Members holding a list of schemas. */
const schemaListFields: ReadonlySet<string> = new Set(["allOf", "oneOf", "anyOf"]);
/** Members holding a map of schemas (`dependencies` maps to a schema or a string list). */
const schemaMapFields: ReadonlySet<string> = new Set(["properties", "patternProperties", "definitions", "dependencies"]);

/** Every bigint in `v` (not a JSON field) as the number JSON.parse gives; `v` itself returned. */
function numbers(v: unknown): unknown {
  if (typeof v === "bigint") return Number(v);
  if (v === null || typeof v !== "object") return v;
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o)) o[k] = numbers(o[k]);
  return v;
}

/** A JSONSchemaProps (or a bool, or a list for `items`): bigints kept only in its JSON fields. */
function schema(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(schema);
  if (!isMap(v)) return numbers(v);
  for (const k of Object.keys(v)) {
    if (jsonFields.has(k)) continue;
    if (schemaFields.has(k)) v[k] = schema(v[k]);
    else if (schemaListFields.has(k) && Array.isArray(v[k])) v[k] = (v[k] as unknown[]).map(schema);
    else if (schemaMapFields.has(k) && isMap(v[k])) for (const [n, s] of Object.entries(v[k])) v[k][n] = schema(s);
    else v[k] = numbers(v[k]);
  }
  return v;
}

/**
 * A CRD parsed with int64s kept (util/json's parseJSON), in place: bigints stay in the schemas'
 * JSON fields and become numbers everywhere else.
 */
export function retypeCRDInts(crd: Record<string, unknown>): void {
  for (const k of Object.keys(crd)) if (k !== "spec") crd[k] = numbers(crd[k]);
  const spec = crd["spec"];
  if (!isMap(spec)) return void numbers(spec);
  for (const k of Object.keys(spec)) if (k !== "versions") spec[k] = numbers(spec[k]);
  const versions = spec["versions"];
  if (!Array.isArray(versions)) return void numbers(versions);
  for (const v of versions) {
    if (!isMap(v)) continue;
    for (const k of Object.keys(v)) {
      const s = v[k];
      if (k === "schema" && isMap(s)) {
        for (const sk of Object.keys(s)) s[sk] = sk === "openAPIV3Schema" ? schema(s[sk]) : numbers(s[sk]);
      } else v[k] = numbers(s);
    }
  }
}
