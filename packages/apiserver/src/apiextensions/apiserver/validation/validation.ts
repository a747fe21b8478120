/**
 * ValidateCustomResource and ValidateCustomResourceUpdate (apiextensions-apiserver
 * pkg/apiserver/validation/validation.go): a custom object against its version's OpenAPI
 * schema, kube-openapi's errors turned into field errors by kubeOpenAPIResultToFieldErrors.
 */
import { field, type FieldErrorList } from "@servicenet/api";
import type { JSONSchemaProps } from "@servicenet/api/apiextensions/v1";
import type { SchemaError } from "./schema-validator.ts";
import { validateSchema } from "./validate.ts";

/** A nil *field.Path prints as `<nil>` (errors at the root, composite errors). */
const nilPath = "<nil>";

/** kubeOpenAPIResultToFieldErrors. */
export function schemaErrorsToFieldErrors(errs: readonly SchemaError[]): FieldErrorList {
  return errs.map((e) => {
    if (e.code === undefined) return field.invalid(nilPath, "", e.message);
    const name = e.name.replace(/^\./, "");
    const at = name === "" ? nilPath : name;
    const value = e.value ?? "";
    switch (e.code) {
      case "Required":
        return field.required(at, "");
      case "Enum":
        return field.notSupported(
          at,
          e.value ?? null,
          (e.values ?? []).map((v) => (typeof v === "string" ? v : JSON.stringify(v))),
        );
      case "TooLong":
        return field.tooLong(at, value, e.valid ?? -1);
      case "MaxItems":
      case "TooManyProperties":
        return field.tooMany(at, typeof e.value === "number" ? e.value : -1, e.valid ?? -1);
      case "InvalidType":
        return field.typeInvalid(at, value, e.message);
      default:
        return field.invalid(at, value, e.message);
    }
  });
}

/** ValidateCustomResource: `obj` against `schema`; nothing to check without a schema. */
export function validateCustomResource(obj: unknown, schema: JSONSchemaProps | undefined): FieldErrorList {
  if (schema === undefined) return [];
  return schemaErrorsToFieldErrors(validateSchema(schema, obj));
}

/** ValidateCustomResourceUpdate: as ValidateCustomResource, ratcheting what `old` already had (CRDValidationRatcheting, on since 1.30). */
export function validateCustomResourceUpdate(obj: unknown, old: unknown, schema: JSONSchemaProps | undefined): FieldErrorList {
  if (schema === undefined) return [];
  return schemaErrorsToFieldErrors(validateSchema(schema, obj, "", { value: old }));
}
