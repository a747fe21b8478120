/**
 * What customResourceStrategy.Validate and ValidateUpdate check beyond ObjectMeta
 * (apiextensions-apiserver pkg/registry/customresource/strategy.go and validator.go): the
 * version's OpenAPI schema (ratcheting on update), the scale subresource's paths, embedded resources, and the uniqueness of
 * `x-kubernetes-list-type` set and map lists (on update only when the old object had none), and the
 * `x-kubernetes-validations` CEL rules.
 */
import { field, type FieldErrorList } from "@servicenet/api";
import type { CustomResourceSubresourceScale, JSONSchemaProps } from "@servicenet/api/apiextensions/v1";
import type { KubeObject } from "../../../storage/index.ts";
import { validateCELRules } from "../../apiserver/schema/cel/validation.ts";
import { validateListSetsAndMaps } from "../../apiserver/schema/listtype/validation.ts";
import { validateEmbeddedResources } from "../../apiserver/schema/objectmeta/validation.ts";
import { validateCustomResource, validateCustomResourceUpdate } from "../../apiserver/validation/validation.ts";
import { nestedInt64, nestedString } from "./scale.ts";

const maxInt32 = 2147483647;

/** ValidateScaleSpec / ValidateScaleStatus: the replicas paths hold int32s that are not negative, the selector path a string. */
function validateReplicas(obj: KubeObject, path: string): FieldErrorList {
  let v: number | bigint;
  try {
    v = nestedInt64(obj, path).value;
  } catch (e) {
    return [field.invalid(path, 0, e instanceof Error ? e.message : String(e))];
  }
  if (v < 0) return [field.invalid(path, v, "should be a non-negative integer")];
  if (v > maxInt32) return [field.invalid(path, v, `should be less than or equal to ${maxInt32}`)];
  return [];
}

function validateScale(obj: KubeObject, scale: CustomResourceSubresourceScale | undefined): FieldErrorList {
  if (scale === undefined) return [];
  const errs = [...validateReplicas(obj, scale.specReplicasPath), ...validateReplicas(obj, scale.statusReplicasPath)];
  if (scale.labelSelectorPath)
    try {
      nestedString(obj, scale.labelSelectorPath);
    } catch (e) {
      errs.push(field.invalid(scale.labelSelectorPath, "", e instanceof Error ? e.message : String(e)));
    }
  return errs;
}

/** hasXValidations: whether any node of `s` has x-kubernetes-validations. */
function hasXValidations(s: JSONSchemaProps | undefined): boolean {
  if (s === undefined) return false;
  if ((s["x-kubernetes-validations"] ?? []).length > 0) return true;
  if (s.items !== undefined && !Array.isArray(s.items) && hasXValidations(s.items)) return true;
  if (typeof s.additionalProperties === "object" && hasXValidations(s.additionalProperties)) return true;
  return Object.values(s.properties ?? {}).some(hasXValidations);
}

/** The schema failures that keep the CEL rules from running (strategy.go hasBlockingErr). */
const blockingTypes: ReadonlySet<string> = new Set(["NotSupported", "Required", "TooLong", "TooMany", "TypeInvalid"]);

/**
 * The CEL rules' errors, unless an OpenAPI type, required, enum or size failure came first: then
 * only upstream's note that rules were skipped (strategy.go Validate and hasBlockingErr).
 */
function withCELRules(schema: JSONSchemaProps | undefined, errs: FieldErrorList, rules: () => FieldErrorList): FieldErrorList {
  // NewValidator: no validator, and so no note, for a schema without rules.
  if (!hasXValidations(schema)) return errs;
  if (errs.some((e) => blockingTypes.has(e.type))) {
    return [
      ...errs,
      field.invalid(
        "<nil>",
        null,
        "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
      ),
    ];
  }
  return [...errs, ...rules()];
}

export interface SchemaValidator {
  validate(obj: KubeObject): FieldErrorList;
  /** Ratcheted CEL rule failures go to `warnings`, as upstream's warning.AddWarning. */
  validateUpdate(obj: KubeObject, old: KubeObject, warnings?: string[]): FieldErrorList;
}

/** The schema checks of one CRD version; none without a schema. */
export function newSchemaValidator(schema: JSONSchemaProps | undefined, scale?: CustomResourceSubresourceScale): SchemaValidator {
  const common = (o: KubeObject): FieldErrorList => validateEmbeddedResources("", o, schema);
  return {
    validate: (o) =>
      withCELRules(
        schema,
        [...validateCustomResource(o, schema), ...validateScale(o, scale), ...common(o), ...validateListSetsAndMaps("", schema, o)],
        () => validateCELRules(schema, o),
      ),
    validateUpdate: (o, old, warnings) =>
      withCELRules(
        schema,
        [
          ...validateCustomResourceUpdate(o, old, schema),
          ...validateScale(o, scale),
          ...common(o),
          ...(validateListSetsAndMaps("", schema, old).length === 0 ? validateListSetsAndMaps("", schema, o) : []),
        ],
        () => validateCELRules(schema, o, old, warnings),
      ),
  };
}
