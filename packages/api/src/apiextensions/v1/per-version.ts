/**
 * Which per-version fields of a v1 CRD the apiserver validates as top-level ones. kube-apiserver
 * validates the internal CRD, and the v1 to internal conversion
 * (apiextensions-apiserver pkg/apis/apiextensions/v1/conversion.go
 * Convert_v1_CustomResourceDefinitionSpec_To_apiextensions_CustomResourceDefinitionSpec) moves
 * `versions[*].schema`, `subresources` and `additionalPrinterColumns` to `spec.validation`,
 * `spec.subresources` and `spec.additionalPrinterColumns` when every version has the same value:
 * their errors are then reported at those top-level paths, once, and at `spec.versions[i]` only
 * when the versions differ.
 */
import { semanticEqual } from "../../meta/v1/validation/immutable.ts";
import type { CustomResourceDefinitionVersion } from "./types.ts";

/** The per-version fields the conversion may promote. */
export interface PromotedFields {
  schema: boolean;
  subresources: boolean;
  additionalPrinterColumns: boolean;
  /** Moved with the schema only. */
  selectableFields: boolean;
}

// Go's Semantic.DeepEqual of two pointers: both nil, or both set and equal.
const same = (a: unknown, b: unknown): boolean => (a === undefined || b === undefined ? a === b : semanticEqual(a, b));

function identical(versions: readonly CustomResourceDefinitionVersion[], get: (v: CustomResourceDefinitionVersion) => unknown): boolean {
  return versions.length > 0 && versions.every((v) => same(get(v), get(versions[0]!)));
}

/** The fields whose value all versions share (and that are so validated at the top level). */
export function promotedFields(versions: readonly CustomResourceDefinitionVersion[]): PromotedFields {
  const schema = identical(versions, (v) => v.schema);
  const nilIfEmpty = (l: readonly unknown[] | undefined) => ((l ?? []).length === 0 ? undefined : l);
  return {
    schema,
    selectableFields: schema && identical(versions, (v) => nilIfEmpty(v.selectableFields)),
    subresources: identical(versions, (v) => v.subresources),
    // A nil and an empty column list are the same slice to DeepEqual.
    additionalPrinterColumns: identical(versions, (v) => nilIfEmpty(v.additionalPrinterColumns)),
  };
}
