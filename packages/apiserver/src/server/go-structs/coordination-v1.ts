/** coordination/v1 as k8s.io/api/coordination/v1/types.go (v1.33) declares it; see types.ts for the notation. */
import type { GoStructs } from "./types.ts";

export const coordinationV1: GoStructs = {
  Lease: {
    kind: "string,omitempty",
    apiVersion: "string,omitempty",
    metadata: "meta/v1.ObjectMeta,omitempty",
    spec: "coordination/v1.LeaseSpec,omitempty",
  },
  LeaseSpec: {
    holderIdentity: "*string,omitempty",
    leaseDurationSeconds: "*int32,omitempty",
    acquireTime: "*meta/v1.MicroTime,omitempty",
    renewTime: "*meta/v1.MicroTime,omitempty",
    leaseTransitions: "*int32,omitempty",
    strategy: "*string,omitempty",
    preferredHolder: "*string,omitempty",
  },
};
