/** autoscaling/v1's Scale as k8s.io/api/autoscaling/v1/types.go (v1.33) declares it; see types.ts for the notation. */
import type { GoStructs } from "./types.ts";

export const autoscalingV1: GoStructs = {
  Scale: {
    kind: "string,omitempty",
    apiVersion: "string,omitempty",
    metadata: "meta/v1.ObjectMeta,omitempty",
    spec: "autoscaling/v1.ScaleSpec,omitempty",
    status: "autoscaling/v1.ScaleStatus,omitempty",
  },
  ScaleSpec: { replicas: "int32,omitempty" },
  ScaleStatus: { replicas: "int32", selector: "string,omitempty" },
};
