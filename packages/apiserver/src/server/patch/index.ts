/** Patch support for the REST handlers: JSON patch, merge patch, strategic merge patch and server-side apply. */
export { applyJSONPatch, decodeJSONPatch, maxJSONPatchOperations, type JSONPatchOperation } from "./json-patch.ts";
export { applyMergePatch } from "./merge-patch.ts";
export { applyStrategicMergePatch } from "./strategic-merge-patch.ts";
export { applyServerSideApply, type ApplyOptions, type ApplyResult } from "./server-side-apply.ts";
export { updateManagedFields, type ManagedFieldsEntry } from "./managed-fields.ts";
export {
  applyPatch,
  checkNesting,
  patchTypeOf,
  patchContentTypes,
  type PatchContentType,
  type PatchOptions,
  type PatchResult,
} from "./apply-patch.ts";
export { kindMeta, lookupFieldMeta, type FieldMeta, type KindMeta } from "./patch-meta.ts";
export type { FieldSchema } from "./field-schema.ts";
export { toFieldSet } from "./fieldpath.ts";
export { prepareFieldSets } from "./string-map-fields.ts";
export { pathString, type FieldSet, type FieldPath } from "./fieldpath-path.ts";
export { toFieldsV1, fromFieldsV1 } from "./fieldpath-serialize.ts";
export type { JSONValue, JSONObject } from "./json-value.ts";
export { checkName, checkPatchedObject, type PatchTarget } from "./check-patched.ts";
