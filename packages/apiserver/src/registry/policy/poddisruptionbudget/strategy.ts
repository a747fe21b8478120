/**
 * policy/v1 PodDisruptionBudget REST strategy (pkg/registry/policy/poddisruptionbudget/strategy.go):
 * create starts with the zero status at generation 1; a spec change bumps the generation; the
 * status subresource keeps the stored spec and validates the counts and conditions.
 */
import {
  validatePodDisruptionBudgetCreate,
  validatePodDisruptionBudgetStatusUpdate,
  validatePodDisruptionBudgetUpdate,
  zeroPodDisruptionBudgetStatus,
  type PodDisruptionBudget,
} from "@servicenet/api/policy/v1";
import { specAndStatusStrategy } from "../../generic/spec-status-strategy.ts";
import type { RESTStrategy } from "../../generic/strategy.ts";

export const podDisruptionBudgetStrategy: RESTStrategy<PodDisruptionBudget> = {
  ...specAndStatusStrategy<PodDisruptionBudget>({
    group: "policy",
    kind: "PodDisruptionBudget",
    namespaced: true,
    // pkg/apis/policy/v1/defaults.go has nothing left to default in 1.33.
    defaults: () => {},
    zeroStatus: () => zeroPodDisruptionBudgetStatus(),
    validate: validatePodDisruptionBudgetCreate,
    validateUpdate: validatePodDisruptionBudgetUpdate,
    // podDisruptionBudgetStatusStrategy.PrepareForUpdate: only the spec is the stored one.
    prepareForStatusUpdate: (o, old) => {
      o.spec = structuredClone(old.spec);
    },
    validateStatusUpdate: (o, old) => validatePodDisruptionBudgetStatusUpdate(o.status, old.status),
  }),
  // AllowUnconditionalUpdate is false: a PUT must carry the resourceVersion it read.
  allowUnconditionalUpdate: false,
};
