/**
 * NewStructural followed by ToKubeOpenAPI (apiextensions-apiserver pkg/apiserver/schema/
 * convert.go, kubeopenapi.go): the structural schema of a CRD version as kube-openapi publishes
 * it. What a structural schema does not carry (`example`, `id`, `$schema`, `definitions`, ...) is
 * dropped, false flags are left out; everything else is kept as written.
 */
import type { JSONSchemaProps } from "@servicenet/api/apiextensions/v1";

/** Generic, Extensions, ValidationExtensions and ValueValidation fields (Structural's members). */
const scalarKeys = new Set([
  "type",
  "nullable",
  "description",
  "title",
  "default",
  "externalDocs",
  "x-kubernetes-preserve-unknown-fields",
  "x-kubernetes-embedded-resource",
  "x-kubernetes-int-or-string",
  "x-kubernetes-list-map-keys",
  "x-kubernetes-list-type",
  "x-kubernetes-map-type",
  "x-kubernetes-validations",
  "format",
  "maximum",
  "exclusiveMaximum",
  "minimum",
  "exclusiveMinimum",
  "maxLength",
  "minLength",
  "pattern",
  "maxItems",
  "minItems",
  "uniqueItems",
  "multipleOf",
  "enum",
  "maxProperties",
  "minProperties",
  "required",
]);

/** Go booleans with `omitempty`: false is not written. */
const flags = new Set([
  "nullable",
  "exclusiveMaximum",
  "exclusiveMinimum",
  "uniqueItems",
  "x-kubernetes-preserve-unknown-fields",
  "x-kubernetes-embedded-resource",
  "x-kubernetes-int-or-string",
]);

const junctors = ["allOf", "anyOf", "oneOf"] as const;

/** A deep copy of `s` with only the members a structural schema has. */
export function toKubeOpenAPI(s: JSONSchemaProps): JSONSchemaProps {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s)) {
    if (!scalarKeys.has(k) || v === undefined || (flags.has(k) && v === false)) continue;
    out[k] = structuredClone(v);
  }
  if (s.properties !== undefined) out.properties = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, toKubeOpenAPI(v)]));
  if (s.items !== undefined && !Array.isArray(s.items)) out.items = toKubeOpenAPI(s.items);
  if (s.additionalProperties !== undefined)
    out.additionalProperties = typeof s.additionalProperties === "boolean" ? s.additionalProperties : toKubeOpenAPI(s.additionalProperties);
  for (const j of junctors) if (s[j] !== undefined) out[j] = s[j].map(toKubeOpenAPI);
  if (s.not !== undefined) out.not = toKubeOpenAPI(s.not);
  return out;
}

/** Calls `f` on `s` and then on every structural child (properties, items, additionalProperties), as schema.Visitor does. */
export function visitStructural(s: JSONSchemaProps, f: (s: JSONSchemaProps) => void): void {
  f(s);
  for (const p of Object.values(s.properties ?? {})) visitStructural(p, f);
  if (s.items !== undefined && !Array.isArray(s.items)) visitStructural(s.items, f);
  if (typeof s.additionalProperties === "object") visitStructural(s.additionalProperties, f);
}
