/**
 * `ValidateImmutableField` (apimachinery pkg/api/validation) and the equality
 * it relies on. Go compares with `Semantic.DeepEqual` on decoded structs, where
 * an absent field and its zero value ("" / 0 / false / nil slice) are the same
 * thing; `semanticEqual` reproduces that on decoded JSON objects.
 */
import { field, type FieldErrorList } from "../../../errors/index.ts";

/** "field is immutable" (upstream `FieldImmutableErrorMsg`). */
export const fieldImmutableErrorMsg = "field is immutable";

/**
 * Go's zero values as JSON shows them; an empty object is a struct field's zero value (a Container's
 * `resources: {}` that the encoder writes and a client sends back equals the stored absent field).
 */
function isZero(v: unknown): boolean {
  if (v === undefined || v === null || v === "" || v === 0 || v === false) return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === "object" && Object.keys(v).length === 0;
}

/** Deep equality where, inside objects, a missing key equals a zero value, and nil equals an empty slice. */
export function semanticEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => semanticEqual(x, b[i]));
  if (Array.isArray(a) || Array.isArray(b)) return isZero(a) && isZero(b); // nil and empty slices are equal
  if (typeof a === "object" && typeof b === "object" && a !== null && b !== null) {
    const ao = a as Record<string, unknown>;
    const bo = b as Record<string, unknown>;
    for (const k of new Set([...Object.keys(ao), ...Object.keys(bo)])) {
      const x = ao[k];
      const y = bo[k];
      if (isZero(x) && isZero(y)) continue;
      if (!semanticEqual(x, y)) return false;
    }
    return true;
  }
  return false;
}

/** `ValidateImmutableField(new, old, path)`: Invalid with the new value and "field is immutable". */
export function validateImmutableField(newVal: unknown, oldVal: unknown, path: string): FieldErrorList {
  return semanticEqual(newVal, oldVal) ? [] : [field.invalid(path, newVal, fieldImmutableErrorMsg)];
}
