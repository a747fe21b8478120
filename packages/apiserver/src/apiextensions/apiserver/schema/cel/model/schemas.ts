/**
 * The CEL types of a structural schema (apiextensions-apiserver pkg/apiserver/schema/cel/model/
 * schemas.go SchemaDeclType): objects with properties become object types with one field per
 * property, maps (additionalProperties) `map<string, V>`, arrays `list<E>`, and the scalars
 * `string`, `int`, `double` and `bool`; int-or-string and values without a schema are `dyn`.
 */
import type { JSONSchemaProps } from "@servicenet/api/apiextensions/v1";

/** The object types one schema declares, by name, with their fields' types. */
export type ObjectTypes = Record<string, Record<string, string>>;

const identifier = /^[_a-zA-Z][_a-zA-Z0-9]*$/;
// CEL's reserved words cannot name a field in a selection (`self.in`); upstream escapes them.
const reserved = new Set([
  ...["as", "break", "const", "continue", "else", "false", "for", "function", "if", "import", "in", "let"],
  ...["loop", "package", "namespace", "null", "return", "true", "var", "void", "while"],
]);
// Strings of these formats are timestamps, durations or bytes in cel-go; here they stay as the
// JSON strings the rules read at run time, so they are left unchecked. Built-in kinds' IntOrString
// is `type: string, format: int-or-string` in OpenAPI, which cel-go reads as int-or-string too.
const convertedFormats = new Set(["byte", "date", "date-time", "duration", "int-or-string"]);

/** Declares the types of `schema` (and below) into `types`; returns the CEL type of `schema`. */
export function schemaDeclType(schema: JSONSchemaProps | undefined, types: ObjectTypes, name = "Object"): string {
  if (schema === undefined || schema["x-kubernetes-int-or-string"] === true) return "dyn";
  switch (schema.type) {
    case "string":
      return convertedFormats.has(schema.format ?? "") ? "dyn" : "string";
    case "integer":
      return "int";
    case "number":
      return "double";
    case "boolean":
      return "bool";
    case "array":
      return `list<${Array.isArray(schema.items) ? "dyn" : schemaDeclType(schema.items, types, `${name}Item`)}>`;
    case "object":
      return objectDeclType(schema, types, name);
    default:
      return "dyn";
  }
}

function objectDeclType(schema: JSONSchemaProps, types: ObjectTypes, name: string): string {
  const ap = schema.additionalProperties;
  if (typeof ap === "object") return `map<string, ${schemaDeclType(ap, types, `${name}Value`)}>`;
  if (ap === true) return "map<string, dyn>";
  const props = Object.entries(schema.properties ?? {});
  // Unknown fields are not typed; names that are no CEL identifier need upstream's escaping,
  // which the rules' run time does not read: such objects stay dynamic.
  if (schema["x-kubernetes-preserve-unknown-fields"] === true && props.length === 0) return "dyn";
  if (schema["x-kubernetes-embedded-resource"] === true) return "dyn";
  if (props.some(([k]) => !identifier.test(k) || reserved.has(k))) return "dyn";
  let typeName = name;
  for (let i = 2; typeName in types; i++) typeName = `${name}${i}`;
  const fields: Record<string, string> = {};
  types[typeName] = fields;
  for (const [k, prop] of props) fields[k] = schemaDeclType(prop, types, `${typeName}_${k}`);
  return typeName;
}
