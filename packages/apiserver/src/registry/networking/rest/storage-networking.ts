/**
 * networking.k8s.io/v1's Ingress, IngressClass and NetworkPolicy (pkg/registry/networking/rest/
 * storage_settings.go v1Storage: networkpolicies, ingresses + ingresses/status, ingressclasses),
 * stored under upstream's keys. ServiceCIDRs and IPAddresses are defined with their other versions.
 */
import { IngressClassSchema, IngressSchema, NetworkPolicySchema } from "@servicenet/api";
import { ingressClassHandler, ingressHandler, networkPolicyHandler } from "@servicenet/printers";
import type { ResourceDef } from "../../../server/resource-def.ts";
import { ingressStrategy } from "../ingress/strategy.ts";
import { ingressClassStrategy } from "../ingressclass/strategy.ts";
import { networkPolicyStrategy } from "../networkpolicy/strategy.ts";

const common = {
  group: "networking.k8s.io",
  version: "v1",
  categories: [],
  verbs: ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"],
} as const;

/** The three resources, in discovery order (sorted, as the installer sorts its paths). */
export function networkingV1Ingress(): ResourceDef[] {
  return [
    {
      ...common,
      resource: "ingressclasses",
      kind: "IngressClass",
      singular: "ingressclass",
      namespaced: false,
      shortNames: [],
      subresources: [],
      storagePath: "ingressclasses",
      strategy: ingressClassStrategy,
      schema: IngressClassSchema,
      printer: ingressClassHandler,
    },
    {
      ...common,
      resource: "ingresses",
      kind: "Ingress",
      singular: "ingress",
      namespaced: true,
      shortNames: ["ing"],
      subresources: ["status"],
      // Upstream's key is /registry/ingress (the extensions/v1beta1 era's), not the plural.
      storagePath: "ingress",
      strategy: ingressStrategy,
      schema: IngressSchema,
      printer: ingressHandler,
    },
    {
      ...common,
      resource: "networkpolicies",
      kind: "NetworkPolicy",
      singular: "networkpolicy",
      namespaced: true,
      shortNames: ["netpol"],
      subresources: [],
      storagePath: "networkpolicies",
      strategy: networkPolicyStrategy,
      schema: NetworkPolicySchema,
      printer: networkPolicyHandler,
    },
  ];
}
