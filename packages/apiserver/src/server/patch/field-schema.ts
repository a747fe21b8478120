/**
 * Which map keys a field set counts as members in their own right. structured-merge-diff's
 * ToFieldSet (typed/tofieldset.go toFieldSetWalker.visitMapItems) inserts every key its map type
 * does not declare as a field: the keys under additionalProperties and everything below
 * x-kubernetes-preserve-unknown-fields (its deduced type). Built-in kinds declare their fields
 * (their maps' keys hold scalars, members anyway), so only custom resources pass a schema.
 */
import type { JSONSchemaProps } from "@servicenet/api/apiextensions/v1";

/** A custom resource version's OpenAPI v3 schema, for its field sets. */
export type FieldSchema = JSONSchemaProps;

/**
 * The schema at a node: a schema, `null` for the deduced type (no declared fields below), or
 * `undefined` for a typed object (every field declared).
 */
export type SchemaNode = FieldSchema | null | undefined;

/** The fields every custom resource's root declares (the CRD's OpenAPI builder adds them). */
const rootFields = new Set(["apiVersion", "kind", "metadata"]);

/** Whether `key` of the map at `s` (at `depth`) is undeclared, and the schema below it. */
export function childSchema(s: SchemaNode, key: string, depth: number): { undeclared: boolean; child: SchemaNode } {
  if (s === undefined || (depth === 0 && rootFields.has(key))) return { undeclared: false, child: undefined };
  if (s === null) return { undeclared: true, child: null };
  const declared = s.properties?.[key];
  if (declared !== undefined) return { undeclared: false, child: declared };
  return { undeclared: true, child: typeof s.additionalProperties === "object" ? s.additionalProperties : null };
}

/** The schema of a list's items. */
export function itemSchema(s: SchemaNode): SchemaNode {
  if (s === undefined || s === null) return s;
  const items = s.items;
  return items !== undefined && !Array.isArray(items) ? items : null;
}
