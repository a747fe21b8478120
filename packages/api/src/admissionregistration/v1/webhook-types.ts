/**
 * ValidatingWebhookConfiguration and MutatingWebhookConfiguration (admissionregistration.k8s.io/v1,
 * k8s.io/api/admissionregistration/v1/types.go). Enum-valued fields are plain strings so that
 * validation, not decoding, reports unsupported values with upstream's messages.
 */
import { z } from "zod";
import { LabelSelectorSchema, ListMetaSchema, ObjectMetaSchema } from "../../meta/v1/index.ts";
import { admissionregistrationV1, MatchConditionSchema, NamedRuleWithOperationsSchema } from "./types.ts";

/** types.go RuleWithOperations (Rule inlined): a NamedRuleWithOperations without resourceNames. */
export const RuleWithOperationsSchema = NamedRuleWithOperationsSchema.omit({ resourceNames: true });
export type RuleWithOperations = z.infer<typeof RuleWithOperationsSchema>;

/** types.go ServiceReference. */
export const ServiceReferenceSchema = z.object({
  namespace: z.string(),
  name: z.string(),
  path: z.string().optional(),
  port: z.number().int().optional(),
});
export type ServiceReference = z.infer<typeof ServiceReferenceSchema>;

/** types.go WebhookClientConfig; `caBundle` is base64 (Go's []byte in JSON). */
export const WebhookClientConfigSchema = z.object({
  url: z.string().optional(),
  service: ServiceReferenceSchema.optional(),
  caBundle: z.string().optional(),
});
export type WebhookClientConfig = z.infer<typeof WebhookClientConfigSchema>;

const webhookFields = {
  name: z.string(),
  clientConfig: WebhookClientConfigSchema,
  rules: z.array(RuleWithOperationsSchema).optional(),
  failurePolicy: z.string().optional(),
  matchPolicy: z.string().optional(),
  namespaceSelector: LabelSelectorSchema.optional(),
  objectSelector: LabelSelectorSchema.optional(),
  sideEffects: z.string().optional(),
  timeoutSeconds: z.number().int().optional(),
  admissionReviewVersions: z.array(z.string()).optional(),
  matchConditions: z.array(MatchConditionSchema).optional(),
};

/** types.go ValidatingWebhook. */
export const ValidatingWebhookSchema = z.object(webhookFields);
export type ValidatingWebhook = z.infer<typeof ValidatingWebhookSchema>;

/** types.go MutatingWebhook: a ValidatingWebhook with a reinvocationPolicy. */
export const MutatingWebhookSchema = z.object({ ...webhookFields, reinvocationPolicy: z.string().optional() });
export type MutatingWebhook = z.infer<typeof MutatingWebhookSchema>;

export const ValidatingWebhookConfigurationSchema = z.object({
  apiVersion: z.literal(admissionregistrationV1).optional(),
  kind: z.literal("ValidatingWebhookConfiguration").optional(),
  metadata: ObjectMetaSchema.default({}),
  webhooks: z.array(ValidatingWebhookSchema).optional(),
});
export type ValidatingWebhookConfiguration = z.infer<typeof ValidatingWebhookConfigurationSchema>;

export const ValidatingWebhookConfigurationListSchema = z.object({
  apiVersion: z.literal(admissionregistrationV1).optional(),
  kind: z.literal("ValidatingWebhookConfigurationList").optional(),
  metadata: ListMetaSchema.default({}),
  items: z.array(ValidatingWebhookConfigurationSchema),
});

export const MutatingWebhookConfigurationSchema = z.object({
  apiVersion: z.literal(admissionregistrationV1).optional(),
  kind: z.literal("MutatingWebhookConfiguration").optional(),
  metadata: ObjectMetaSchema.default({}),
  webhooks: z.array(MutatingWebhookSchema).optional(),
});
export type MutatingWebhookConfiguration = z.infer<typeof MutatingWebhookConfigurationSchema>;

export const MutatingWebhookConfigurationListSchema = z.object({
  apiVersion: z.literal(admissionregistrationV1).optional(),
  kind: z.literal("MutatingWebhookConfigurationList").optional(),
  metadata: ListMetaSchema.default({}),
  items: z.array(MutatingWebhookConfigurationSchema),
});
