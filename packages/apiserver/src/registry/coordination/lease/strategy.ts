/** coordination.k8s.io/v1 Lease REST strategy (pkg/registry/coordination/lease/strategy.go). */
import { validateLease, validateLeaseUpdate } from "@servicenet/api";
import type { KubeObject } from "../../../storage/index.ts";
import type { RESTStrategy } from "../../generic/strategy.ts";

/**
 * spec.strategy and spec.preferredHolder need the CoordinatedLeaderElection gate, off in 1.33 and
 * not offered here: dropped on create, and on update unless the stored Lease already has them.
 */
function dropDisabledFields(o: KubeObject, old?: KubeObject): void {
  const spec = o["spec"] as Record<string, unknown> | undefined;
  if (!spec) return;
  const oldSpec = old?.["spec"] as Record<string, unknown> | undefined;
  for (const f of ["strategy", "preferredHolder"]) if (oldSpec?.[f] === undefined) delete spec[f];
}

export const leaseStrategy: RESTStrategy = {
  group: "coordination.k8s.io",
  kind: "Lease",
  namespaced: true,
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: false,
  prepareForCreate: (o) => dropDisabledFields(o),
  prepareForUpdate: (o, old) => dropDisabledFields(o, old),
  validate: (o) => validateLease(o),
  validateUpdate: (o, old) => validateLeaseUpdate(o, old),
};
