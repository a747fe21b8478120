/** networking/v1beta1 as k8s.io/api/networking/v1beta1/types.go (v1.33) declares it; see types.ts for the notation. */
import type { GoStructs } from "./types.ts";

export const networkingV1beta1: GoStructs = {
  IPAddress: {
    kind: "string,omitempty",
    apiVersion: "string,omitempty",
    metadata: "meta/v1.ObjectMeta,omitempty",
    spec: "networking/v1beta1.IPAddressSpec,omitempty",
  },
  IPAddressSpec: { parentRef: "*networking/v1beta1.ParentReference,omitempty" },
  ParentReference: { group: "string,omitempty", resource: "string,omitempty", namespace: "string,omitempty", name: "string,omitempty" },
  ServiceCIDR: {
    kind: "string,omitempty",
    apiVersion: "string,omitempty",
    metadata: "meta/v1.ObjectMeta,omitempty",
    spec: "networking/v1beta1.ServiceCIDRSpec,omitempty",
    status: "networking/v1beta1.ServiceCIDRStatus,omitempty",
  },
  ServiceCIDRSpec: { cidrs: "[]string,omitempty" },
  ServiceCIDRStatus: { conditions: "[]meta/v1.Condition,omitempty" },
};
