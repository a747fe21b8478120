/**
 * networking.k8s.io/v1 NetworkPolicy (k8s.io/api/networking/v1 types.go), fields in Go struct order.
 * There is no status: NetworkPolicyStatus was removed in 1.28 and 1.33 serves none.
 */
import { z } from "zod";
import { IntOrStringSchema } from "../../core/v1/service.ts";
import { LabelSelectorSchema } from "../../meta/v1/label-selector.ts";
import { listSchemaOf, ObjectMetaSchema } from "../../meta/v1/object-meta.ts";

export const NetworkPolicyPortSchema = z.object({
  /** TCP (the default), UDP or SCTP. */
  protocol: z.string().optional(),
  port: IntOrStringSchema.optional(),
  endPort: z.number().int().optional(),
});
export type NetworkPolicyPort = z.infer<typeof NetworkPolicyPortSchema>;

export const IPBlockSchema = z.object({
  cidr: z.string().default(""),
  except: z.array(z.string()).optional(),
});
export type IPBlock = z.infer<typeof IPBlockSchema>;

export const NetworkPolicyPeerSchema = z.object({
  podSelector: LabelSelectorSchema.optional(),
  namespaceSelector: LabelSelectorSchema.optional(),
  ipBlock: IPBlockSchema.optional(),
});
export type NetworkPolicyPeer = z.infer<typeof NetworkPolicyPeerSchema>;

export const NetworkPolicyIngressRuleSchema = z.object({
  ports: z.array(NetworkPolicyPortSchema).optional(),
  from: z.array(NetworkPolicyPeerSchema).optional(),
});
export type NetworkPolicyIngressRule = z.infer<typeof NetworkPolicyIngressRuleSchema>;

export const NetworkPolicyEgressRuleSchema = z.object({
  ports: z.array(NetworkPolicyPortSchema).optional(),
  to: z.array(NetworkPolicyPeerSchema).optional(),
});
export type NetworkPolicyEgressRule = z.infer<typeof NetworkPolicyEgressRuleSchema>;

export const NetworkPolicySpecSchema = z.object({
  podSelector: LabelSelectorSchema.default({}),
  ingress: z.array(NetworkPolicyIngressRuleSchema).optional(),
  egress: z.array(NetworkPolicyEgressRuleSchema).optional(),
  /** Ingress and/or Egress. */
  policyTypes: z.array(z.string()).optional(),
});
export type NetworkPolicySpec = z.infer<typeof NetworkPolicySpecSchema>;

export const NetworkPolicySchema = z.object({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema.default({}),
  spec: NetworkPolicySpecSchema.default({ podSelector: {} }),
});
export type NetworkPolicy = z.infer<typeof NetworkPolicySchema>;
export const NetworkPolicyListSchema = listSchemaOf(NetworkPolicySchema);
export type NetworkPolicyList = z.infer<typeof NetworkPolicyListSchema>;

export const policyTypes = { Ingress: "Ingress", Egress: "Egress" } as const;
