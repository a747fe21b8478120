/** autoscaling validation (pkg/apis/autoscaling/validation/validation.go ValidateScale). */
import { field, type FieldErrorList } from "../../errors/index.ts";
import { validateObjectMeta } from "../../meta/v1/validation/object-meta.ts";
import type { Scale } from "./scale.ts";

/** `ValidateScale`: the metadata, and spec.replicas not negative. */
export function validateScale(scale: Scale): FieldErrorList {
  const errs = validateObjectMeta(scale.metadata, { namespaced: true });
  const replicas = scale.spec.replicas ?? 0;
  if (replicas < 0) errs.push(field.invalid("spec.replicas", replicas, "must be greater than or equal to 0"));
  return errs;
}
