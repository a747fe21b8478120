/** policy/v1 as k8s.io/api/policy/v1/types.go (v1.33) declares it; see types.ts for the notation. */
import type { GoStructs } from "./types.ts";

export const policyV1: GoStructs = {
  Eviction: {
    kind: "string,omitempty",
    apiVersion: "string,omitempty",
    metadata: "meta/v1.ObjectMeta,omitempty",
    deleteOptions: "*meta/v1.DeleteOptions,omitempty",
  },
  PodDisruptionBudget: {
    kind: "string,omitempty",
    apiVersion: "string,omitempty",
    metadata: "meta/v1.ObjectMeta,omitempty",
    spec: "policy/v1.PodDisruptionBudgetSpec,omitempty",
    status: "policy/v1.PodDisruptionBudgetStatus,omitempty",
  },
  PodDisruptionBudgetSpec: {
    minAvailable: "*intstr.IntOrString,omitempty",
    selector: "*meta/v1.LabelSelector,omitempty",
    maxUnavailable: "*intstr.IntOrString,omitempty",
    unhealthyPodEvictionPolicy: "*string,omitempty",
  },
  PodDisruptionBudgetStatus: {
    observedGeneration: "int64,omitempty",
    disruptedPods: "map[string]meta/v1.Time,omitempty",
    disruptionsAllowed: "int32",
    currentHealthy: "int32",
    desiredHealthy: "int32",
    expectedPods: "int32",
    conditions: "[]meta/v1.Condition,omitempty",
  },
};
