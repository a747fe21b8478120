/** scheduling/v1 as k8s.io/api/scheduling/v1/types.go (v1.33) declares it; see types.ts for the notation. */
import type { GoStructs } from "./types.ts";

export const schedulingV1: GoStructs = {
  PriorityClass: {
    kind: "string,omitempty",
    apiVersion: "string,omitempty",
    metadata: "meta/v1.ObjectMeta,omitempty",
    value: "int32",
    globalDefault: "bool,omitempty",
    description: "string,omitempty",
    preemptionPolicy: "*string,omitempty",
  },
};
