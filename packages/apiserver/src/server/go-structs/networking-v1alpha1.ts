/** networking/v1alpha1 as k8s.io/api/networking/v1alpha1/types.go (v1.33) declares it; see types.ts for the notation. */
import type { GoStructs } from "./types.ts";

export const networkingV1alpha1: GoStructs = {
  IPAddress: {
    kind: "string,omitempty",
    apiVersion: "string,omitempty",
    metadata: "meta/v1.ObjectMeta,omitempty",
    spec: "networking/v1alpha1.IPAddressSpec,omitempty",
  },
  IPAddressSpec: { parentRef: "*networking/v1alpha1.ParentReference,omitempty" },
  ParentReference: { group: "string,omitempty", resource: "string,omitempty", namespace: "string,omitempty", name: "string,omitempty" },
  ServiceCIDR: {
    kind: "string,omitempty",
    apiVersion: "string,omitempty",
    metadata: "meta/v1.ObjectMeta,omitempty",
    spec: "networking/v1alpha1.ServiceCIDRSpec,omitempty",
    status: "networking/v1alpha1.ServiceCIDRStatus,omitempty",
  },
  ServiceCIDRSpec: { cidrs: "[]string,omitempty" },
  ServiceCIDRStatus: { conditions: "[]meta/v1.Condition,omitempty" },
};
