/**
 * `ValidateImmutableField` and `ValidateObjectMetaUpdate`, local until
 * src/meta/v1 provides them. Equality follows apimachinery's Semantic.DeepEqual
 * on decoded JSON: an absent field equals its zero value ("" / 0 / false / []),
 * because Go decodes both to the same struct. Not exported from the package entry.
 */
import { field, type FieldErrorList } from "../../errors/index.ts";
import type { LocalObjectMeta } from "./meta-local.ts";
import { validateLabels } from "./name.ts";

export const fieldImmutableErrorMsg = "field is immutable";

function isZero(v: unknown): boolean {
  return v === undefined || v === null || v === "" || v === 0 || v === false || (Array.isArray(v) && v.length === 0);
}

/** Deep equality where, inside objects, a missing key equals a zero value. */
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

/** `ValidateObjectMetaUpdate(new, old, "metadata")`, without the managedFields and ownerReferences parts. */
export function validateObjectMetaUpdateLocal(newMeta: LocalObjectMeta, oldMeta: LocalObjectMeta): FieldErrorList {
  const errs: FieldErrorList = [];
  if (oldMeta.deletionTimestamp) {
    const old = new Set(oldMeta.finalizers ?? []);
    const extra = [...new Set((newMeta.finalizers ?? []).filter((f) => !old.has(f)))].sort();
    if (extra.length > 0) {
      const list = `[]string{${extra.map((f) => JSON.stringify(f)).join(", ")}}`;
      errs.push(field.forbidden("metadata.finalizers", `no new finalizers can be added if the object is being deleted, found new finalizers ${list}`));
    }
  }
  if (!newMeta.resourceVersion) errs.push(field.invalid("metadata.resourceVersion", newMeta.resourceVersion ?? "", "must be specified for an update"));
  if ((newMeta.generation ?? 0) < (oldMeta.generation ?? 0)) errs.push(field.invalid("metadata.generation", newMeta.generation ?? 0, "must not be decremented"));
  for (const k of ["name", "namespace", "uid", "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds"] as const) {
    errs.push(...validateImmutableField(newMeta[k], oldMeta[k], `metadata.${k}`));
  }
  errs.push(...validateLabels(newMeta.labels, "metadata.labels"));
  return errs;
}
