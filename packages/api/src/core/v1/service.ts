/** core/v1 Service: every ServiceSpec and ServiceStatus field, with Kubernetes JSON names. */
import { z } from "zod";
import { ConditionSchema } from "../../meta/v1/condition.ts";
import { listSchemaOf, ObjectMetaSchema } from "../../meta/v1/object-meta.ts";

/** `intstr.IntOrString`: a port number or a named container port. */
export const IntOrStringSchema = z.union([z.number().int(), z.string()]);
export type IntOrString = z.infer<typeof IntOrStringSchema>;

// Enumerated fields are plain strings: a bad value must reach validation and
// get upstream's "Unsupported value" message, not a decoding error.
export const ServicePortSchema = z.object({
  name: z.string().optional(),
  protocol: z.string().optional(),
  appProtocol: z.string().optional(),
  port: z.number().int(),
  targetPort: IntOrStringSchema.optional(),
  nodePort: z.number().int().optional(),
});
export type ServicePort = z.infer<typeof ServicePortSchema>;

export const ClientIPConfigSchema = z.object({ timeoutSeconds: z.number().int().optional() });
export const SessionAffinityConfigSchema = z.object({ clientIP: ClientIPConfigSchema.optional() });
export type SessionAffinityConfig = z.infer<typeof SessionAffinityConfigSchema>;

export const ServiceSpecSchema = z.object({
  ports: z.array(ServicePortSchema).optional(),
  selector: z.record(z.string(), z.string()).optional(),
  clusterIP: z.string().optional(),
  clusterIPs: z.array(z.string()).optional(),
  type: z.string().optional(),
  externalIPs: z.array(z.string()).optional(),
  sessionAffinity: z.string().optional(),
  loadBalancerIP: z.string().optional(),
  loadBalancerSourceRanges: z.array(z.string()).optional(),
  externalName: z.string().optional(),
  externalTrafficPolicy: z.string().optional(),
  healthCheckNodePort: z.number().int().optional(),
  publishNotReadyAddresses: z.boolean().optional(),
  sessionAffinityConfig: SessionAffinityConfigSchema.optional(),
  ipFamilies: z.array(z.string()).optional(),
  ipFamilyPolicy: z.string().optional(),
  allocateLoadBalancerNodePorts: z.boolean().optional(),
  loadBalancerClass: z.string().optional(),
  internalTrafficPolicy: z.string().optional(),
  trafficDistribution: z.string().optional(),
});
export type ServiceSpec = z.infer<typeof ServiceSpecSchema>;

export const PortStatusSchema = z.object({
  port: z.number().int(),
  protocol: z.string(),
  error: z.string().optional(),
});
export type PortStatus = z.infer<typeof PortStatusSchema>;

export const LoadBalancerIngressSchema = z.object({
  ip: z.string().optional(),
  hostname: z.string().optional(),
  ipMode: z.string().optional(),
  ports: z.array(PortStatusSchema).optional(),
});
export type LoadBalancerIngress = z.infer<typeof LoadBalancerIngressSchema>;

export const LoadBalancerStatusSchema = z.object({ ingress: z.array(LoadBalancerIngressSchema).optional() });
export type LoadBalancerStatus = z.infer<typeof LoadBalancerStatusSchema>;

export const ServiceStatusSchema = z.object({
  loadBalancer: LoadBalancerStatusSchema.optional(),
  conditions: z.array(ConditionSchema).optional(),
});
export type ServiceStatus = z.infer<typeof ServiceStatusSchema>;

export const ServiceSchema = z.object({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema.default({}),
  spec: ServiceSpecSchema.default({}),
  status: ServiceStatusSchema.optional(),
});
export type Service = z.infer<typeof ServiceSchema>;

export const ServiceListSchema = listSchemaOf(ServiceSchema);
export type ServiceList = z.infer<typeof ServiceListSchema>;
