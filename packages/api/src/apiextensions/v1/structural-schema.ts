/**
 * The rules a v1 CRD's version schema must meet: the OpenAPI subset apiextensions allows
 * (validation.go ValidateCustomResourceDefinitionOpenAPISchema and specStandardValidatorV3) and
 * the structural-schema invariants (apiextensions-apiserver pkg/apiserver/schema/validation.go
 * validateStructuralInvariants and validateStructuralCompleteness), with upstream's messages.
 */
import { field, keyPath, path, type FieldErrorList } from "../../errors/field-error.ts";
import type { JSONSchemaProps } from "./types.ts";
import { validateValidationRuleFields } from "./validation-rules.ts";

const types = ["array", "boolean", "integer", "number", "object", "string"];

/** The schema of one CRD version, at `at` (`spec.versions[0].schema.openAPIV3Schema`). */
export function validateStructuralSchema(raw: Record<string, unknown>, at: string, statusEnabled: boolean): FieldErrorList {
  const schema = raw as JSONSchemaProps;
  const errs: FieldErrorList = [];
  if (statusEnabled && schema.type !== undefined && schema.type !== "object")
    errs.push(
      field.invalid(
        `${at}.type`,
        schema.type,
        'only "object" is allowed as the type at the root of the schema if the status subresource is enabled',
      ),
    );
  errs.push(...validateNode(schema, at, true));
  const metadata = schema.properties?.["metadata"];
  if (metadata !== undefined) errs.push(...validateMetadata(metadata, keyPath(`${at}.properties`, "metadata")));
  return errs;
}

/** ObjectMeta can only be narrowed on name and generateName (validateStructuralMetadataInvariants). */
function validateMetadata(s: JSONSchemaProps, at: string): FieldErrorList {
  const errs: FieldErrorList = [];
  if (s.type !== undefined && s.type !== "object") errs.push(field.invalid(`${at}.type`, s.type, 'must be empty or be "object"'));
  for (const k of Object.keys(s.properties ?? {}))
    if (k !== "name" && k !== "generateName")
      errs.push(
        field.forbidden(
          keyPath(`${at}.properties`, k),
          "must not specify anything other than name and generateName, but metadata is implicitly specified",
        ),
      );
  return errs;
}

function validateNode(s: JSONSchemaProps, at: string, root: boolean): FieldErrorList {
  const errs: FieldErrorList = [...validateSubset(s, at)];
  const intOrString = s["x-kubernetes-int-or-string"] === true;
  const embedded = s["x-kubernetes-embedded-resource"] === true;
  const preserve = s["x-kubernetes-preserve-unknown-fields"];
  if (s.type === undefined || s.type === "") {
    if (!intOrString && !embedded && !(preserve === true && !root))
      errs.push(field.required(`${at}.type`, root ? "must not be empty at the root" : "must not be empty for specified object fields"));
  } else if (!types.includes(s.type)) {
    errs.push(field.notSupported(`${at}.type`, s.type, types));
  }
  if (root && s.type !== undefined && s.type !== "" && s.type !== "object")
    errs.push(field.invalid(`${at}.type`, s.type, "must be object at the root"));
  if (preserve === false) errs.push(field.invalid(`${at}.x-kubernetes-preserve-unknown-fields`, false, "must be true or undefined"));
  if (intOrString && s.type !== undefined && s.type !== "")
    errs.push(field.invalid(`${at}.type`, s.type, "must be empty if x-kubernetes-int-or-string is true"));
  if (embedded && s.type !== "object") errs.push(field.required(`${at}.type`, "must be object if x-kubernetes-embedded-resource is true"));
  if (s.type === "array" && s.items === undefined) errs.push(field.required(`${at}.items`, "must be specified"));
  if (s.nullable === true && root) errs.push(field.forbidden(`${at}.nullable`, "must be false at the root"));
  if (s.additionalProperties !== undefined) {
    // validateStructuralInvariants: a root (or embedded resource) is an object with metadata, never a map.
    if (root) errs.push(field.forbidden(`${at}.additionalProperties`, "must not be used at the root"));
    if (embedded) errs.push(field.forbidden(`${at}.additionalProperties`, "must not be used if x-kubernetes-embedded-resource is set"));
    if (Object.keys(s.properties ?? {}).length > 0 && (s.additionalProperties === false || typeof s.additionalProperties === "object"))
      errs.push(field.forbidden(`${at}.additionalProperties`, "additionalProperties and properties are mutual exclusive"));
    if (typeof s.additionalProperties === "object") errs.push(...validateNode(s.additionalProperties, `${at}.additionalProperties`, false));
  }
  if (s["x-kubernetes-list-type"] !== undefined) errs.push(...validateListType(s, at));
  errs.push(...validateValidationRuleFields(s, at));
  for (const [k, child] of Object.entries(s.properties ?? {})) errs.push(...validateNode(child, keyPath(`${at}.properties`, k), false));
  if (s.items !== undefined && !Array.isArray(s.items)) errs.push(...validateNode(s.items, `${at}.items`, false));
  for (const k of ["allOf", "anyOf", "oneOf"] as const) (s[k] ?? []).forEach((c, i) => errs.push(...validateSubset(c, path(at, k, i))));
  if (s.not !== undefined) errs.push(...validateSubset(s.not, `${at}.not`));
  return errs;
}

/** specStandardValidatorV3 and the OpenAPI features the apiextensions subset forbids. */
function validateSubset(s: JSONSchemaProps, at: string): FieldErrorList {
  const errs: FieldErrorList = [];
  if (s.id !== undefined && s.id !== "") errs.push(field.forbidden(`${at}.id`, "id is not supported"));
  if (s.additionalItems !== undefined) errs.push(field.forbidden(`${at}.additionalItems`, "additionalItems is not supported"));
  if (Object.keys(s.patternProperties ?? {}).length > 0)
    errs.push(field.forbidden(`${at}.patternProperties`, "patternProperties is not supported"));
  if (Object.keys(s.definitions ?? {}).length > 0) errs.push(field.forbidden(`${at}.definitions`, "definitions is not supported"));
  if (s.dependencies !== undefined) errs.push(field.forbidden(`${at}.dependencies`, "dependencies is not supported"));
  if (s.$ref !== undefined) errs.push(field.forbidden(`${at}.$ref`, "$ref is not supported"));
  if (s.type === "null") errs.push(field.forbidden(`${at}.type`, "type cannot be set to null"));
  if (Array.isArray(s.items)) errs.push(field.forbidden(`${at}.items`, "items must be a schema object and not an array"));
  if (s.uniqueItems === true)
    errs.push(field.forbidden(`${at}.uniqueItems`, "uniqueItems cannot be set to true since the runtime complexity becomes quadratic"));
  return errs;
}

/** x-kubernetes-list-type and x-kubernetes-list-map-keys. */
function validateListType(s: JSONSchemaProps, at: string): FieldErrorList {
  const t = s["x-kubernetes-list-type"]!;
  const errs: FieldErrorList = [];
  if (s.type !== "array") errs.push(field.invalid(`${at}.x-kubernetes-list-type`, t, "must only be used on type=array"));
  if (!["atomic", "set", "map"].includes(t)) errs.push(field.notSupported(`${at}.x-kubernetes-list-type`, t, ["atomic", "set", "map"]));
  const keys = s["x-kubernetes-list-map-keys"] ?? [];
  if (t === "map" && keys.length === 0)
    errs.push(field.required(`${at}.x-kubernetes-list-map-keys`, "must not be empty if x-kubernetes-list-type is map"));
  if (t !== "map" && keys.length > 0)
    errs.push(field.forbidden(`${at}.x-kubernetes-list-map-keys`, "may only be used with x-kubernetes-list-type=map"));
  return errs;
}
