/**
 * networking.k8s.io/v1 Ingress and IngressClass (k8s.io/api/networking/v1 types.go), fields in Go
 * struct order. Enumerated fields (pathType, scope) are plain strings so a bad value reaches
 * validation and gets upstream's "Unsupported value" message.
 */
import { z } from "zod";
import { TypedLocalObjectReferenceSchema } from "../../core/v1/object-reference.ts";
import { listSchemaOf, ObjectMetaSchema } from "../../meta/v1/object-meta.ts";

/** ServiceBackendPort: a port name or a number, never both. */
export const ServiceBackendPortSchema = z.object({
  name: z.string().optional(),
  number: z.number().int().optional(),
});
export type ServiceBackendPort = z.infer<typeof ServiceBackendPortSchema>;

export const IngressServiceBackendSchema = z.object({
  name: z.string().default(""),
  port: ServiceBackendPortSchema.optional(),
});
export type IngressServiceBackend = z.infer<typeof IngressServiceBackendSchema>;

/** IngressBackend: a Service or a resource (mutually exclusive). */
export const IngressBackendSchema = z.object({
  service: IngressServiceBackendSchema.optional(),
  resource: TypedLocalObjectReferenceSchema.optional(),
});
export type IngressBackend = z.infer<typeof IngressBackendSchema>;

export const HTTPIngressPathSchema = z.object({
  path: z.string().optional(),
  /** Exact, Prefix or ImplementationSpecific; required in v1 (no defaulting). */
  pathType: z.string().optional(),
  backend: IngressBackendSchema.default({}),
});
export type HTTPIngressPath = z.infer<typeof HTTPIngressPathSchema>;

export const HTTPIngressRuleValueSchema = z.object({
  paths: z.array(HTTPIngressPathSchema).nullable().optional(),
});
export type HTTPIngressRuleValue = z.infer<typeof HTTPIngressRuleValueSchema>;

/** IngressRule; IngressRuleValue is inlined in Go, so `http` sits beside `host`. */
export const IngressRuleSchema = z.object({
  host: z.string().optional(),
  http: HTTPIngressRuleValueSchema.optional(),
});
export type IngressRule = z.infer<typeof IngressRuleSchema>;

export const IngressTLSSchema = z.object({
  hosts: z.array(z.string()).optional(),
  secretName: z.string().optional(),
});
export type IngressTLS = z.infer<typeof IngressTLSSchema>;

export const IngressSpecSchema = z.object({
  ingressClassName: z.string().optional(),
  defaultBackend: IngressBackendSchema.optional(),
  tls: z.array(IngressTLSSchema).optional(),
  rules: z.array(IngressRuleSchema).optional(),
});
export type IngressSpec = z.infer<typeof IngressSpecSchema>;

export const IngressPortStatusSchema = z.object({
  port: z.number().int().default(0),
  protocol: z.string().default(""),
  error: z.string().optional(),
});
export type IngressPortStatus = z.infer<typeof IngressPortStatusSchema>;

export const IngressLoadBalancerIngressSchema = z.object({
  ip: z.string().optional(),
  hostname: z.string().optional(),
  ports: z.array(IngressPortStatusSchema).optional(),
});
export type IngressLoadBalancerIngress = z.infer<typeof IngressLoadBalancerIngressSchema>;

export const IngressStatusSchema = z.object({
  loadBalancer: z.object({ ingress: z.array(IngressLoadBalancerIngressSchema).optional() }).optional(),
});
export type IngressStatus = z.infer<typeof IngressStatusSchema>;

export const IngressSchema = z.object({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema.default({}),
  spec: IngressSpecSchema.default({}),
  status: IngressStatusSchema.optional(),
});
export type Ingress = z.infer<typeof IngressSchema>;
export const IngressListSchema = listSchemaOf(IngressSchema);
export type IngressList = z.infer<typeof IngressListSchema>;

/** IngressClassParametersReference: a cluster- or namespace-scoped object (scope defaults to Cluster). */
export const IngressClassParametersReferenceSchema = z.object({
  apiGroup: z.string().optional(),
  kind: z.string().default(""),
  name: z.string().default(""),
  scope: z.string().optional(),
  namespace: z.string().optional(),
});
export type IngressClassParametersReference = z.infer<typeof IngressClassParametersReferenceSchema>;

export const IngressClassSpecSchema = z.object({
  controller: z.string().optional(),
  parameters: IngressClassParametersReferenceSchema.optional(),
});
export type IngressClassSpec = z.infer<typeof IngressClassSpecSchema>;

export const IngressClassSchema = z.object({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema.default({}),
  spec: IngressClassSpecSchema.default({}),
});
export type IngressClass = z.infer<typeof IngressClassSchema>;
export const IngressClassListSchema = listSchemaOf(IngressClassSchema);
export type IngressClassList = z.infer<typeof IngressClassListSchema>;

/** `kubernetes.io/ingress.class`: the deprecated class annotation (networking/v1beta1 AnnotationIngressClass). */
export const annotationIngressClass = "kubernetes.io/ingress.class";
/** `ingressclass.kubernetes.io/is-default-class` (networking/v1 AnnotationIsDefaultIngressClass). */
export const annotationIsDefaultIngressClass = "ingressclass.kubernetes.io/is-default-class";
export const pathTypes = { Exact: "Exact", Prefix: "Prefix", ImplementationSpecific: "ImplementationSpecific" } as const;
export const ingressClassParametersReferenceScopes = { Namespace: "Namespace", Cluster: "Cluster" } as const;
