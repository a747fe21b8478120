/** coordination.k8s.io/v1 Lease REST strategy: metadata rules only (leader election needs nothing more). */
import { field, validateObjectMeta, validateObjectMetaUpdate, type FieldError, type ObjectMeta } from "@servicenet/api";
import type { KubeObject } from "../../../storage/index.ts";
import type { RESTStrategy } from "../../generic/strategy.ts";

const meta = (o: KubeObject): ObjectMeta => o.metadata;

function validateSpec(o: KubeObject): FieldError[] {
  const spec = (o["spec"] ?? {}) as Record<string, unknown>;
  const d = spec["leaseDurationSeconds"];
  if (typeof d === "number" && d <= 0) return [field.invalid("spec.leaseDurationSeconds", d, "must be greater than 0")];
  return [];
}

export const leaseStrategy: RESTStrategy = {
  group: "coordination.k8s.io",
  kind: "Lease",
  namespaced: true,
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: true,
  prepareForCreate: () => {},
  prepareForUpdate: () => {},
  validate: (o) => [...validateObjectMeta(meta(o), { namespaced: true }), ...validateSpec(o)],
  validateUpdate: (o, old) => [...validateObjectMetaUpdate(meta(o), meta(old)), ...validateSpec(o)],
};
