/**
 * The checks of k8s.io/apimachinery/pkg/util/managedfields/internal/managedfields.go
 * (DecodeManagedFields) that make a managedFields list unusable: the field manager then ignores a
 * client's list for the stored one, and mutating admission's result is reset to what it was
 * before (k8s.io/apiserver/pkg/endpoints/handlers/fieldmanager/admission.go).
 */
import { isObject, type JSONValue } from "./json-value.ts";

/** fieldmanager.InvalidManagedFieldsAfterMutatingAdmissionWarningFormat without its `%v`. */
export const invalidManagedFieldsAfterMutatingAdmission =
  ".metadata.managedFields was in an invalid state after admission; this could be caused by an outdated mutating admission controller; please fix your requests: ";

/** DecodeManagedFields' error for `list` (absent means none), or undefined when it decodes. */
export function managedFieldsError(list: JSONValue | undefined): string | undefined {
  if (list === undefined || list === null) return undefined;
  if (!Array.isArray(list)) return "managedFields must be a list";
  for (const [i, e] of list.entries()) {
    const entry = isObject(e) ? e : {};
    if (entry.operation !== "Apply" && entry.operation !== "Update") return "operation must be `Apply` or `Update`";
    if (typeof entry.apiVersion !== "string" || entry.apiVersion === "") return "apiVersion must not be empty";
    const fieldsType = entry.fieldsType ?? "";
    if (fieldsType === "") return `missing fieldsType in managed fields entry ${i}`;
    if (fieldsType !== "FieldsV1") return `invalid fieldsType ${JSON.stringify(fieldsType)} in managed fields entry ${i}`;
    if (entry.fieldsV1 !== undefined && entry.fieldsV1 !== null && !isObject(entry.fieldsV1))
      return `error decoding versioned set from ${JSON.stringify(e)}: error decoding set: invalid fieldsV1`;
  }
  return undefined;
}
