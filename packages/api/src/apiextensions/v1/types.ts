/**
 * apiextensions.k8s.io/v1 CustomResourceDefinition (k8s.io/apiextensions-apiserver/pkg/apis/
 * apiextensions/v1/types.go), fields in Go struct order. The OpenAPI v3 schema of a version is
 * kept as sent (a JSONSchemaProps tree): structural rules are checked by validation, not by
 * the decoder.
 */
import { z } from "zod";
import { listSchemaOf, ObjectMetaSchema } from "../../meta/v1/object-meta.ts";
import { NullableTimeSchema } from "../../meta/v1/type-meta.ts";

/** JSONSchemaProps: an OpenAPI v3 schema with the `x-kubernetes-*` extensions. */
export const JSONSchemaPropsSchema = z.record(z.string(), z.unknown());
export type JSONSchemaProps = {
  type?: string;
  format?: string;
  description?: string;
  default?: unknown;
  properties?: Record<string, JSONSchemaProps>;
  additionalProperties?: JSONSchemaProps | boolean;
  items?: JSONSchemaProps | JSONSchemaProps[];
  required?: string[];
  enum?: unknown[];
  nullable?: boolean;
  maximum?: number;
  minimum?: number;
  exclusiveMaximum?: boolean;
  exclusiveMinimum?: boolean;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  maxItems?: number;
  minItems?: number;
  uniqueItems?: boolean;
  maxProperties?: number;
  minProperties?: number;
  multipleOf?: number;
  allOf?: JSONSchemaProps[];
  oneOf?: JSONSchemaProps[];
  anyOf?: JSONSchemaProps[];
  not?: JSONSchemaProps;
  $ref?: string;
  id?: string;
  title?: string;
  additionalItems?: unknown;
  patternProperties?: Record<string, JSONSchemaProps>;
  dependencies?: unknown;
  definitions?: Record<string, JSONSchemaProps>;
  "x-kubernetes-preserve-unknown-fields"?: boolean;
  "x-kubernetes-embedded-resource"?: boolean;
  "x-kubernetes-int-or-string"?: boolean;
  "x-kubernetes-list-map-keys"?: string[];
  "x-kubernetes-list-type"?: string;
  "x-kubernetes-map-type"?: string;
  "x-kubernetes-validations"?: unknown[];
};

export const CustomResourceDefinitionNamesSchema = z.object({
  plural: z.string().default(""),
  singular: z.string().optional(),
  shortNames: z.array(z.string()).optional(),
  kind: z.string().default(""),
  listKind: z.string().optional(),
  categories: z.array(z.string()).optional(),
});
export type CustomResourceDefinitionNames = z.infer<typeof CustomResourceDefinitionNamesSchema>;

export const CustomResourceColumnDefinitionSchema = z.object({
  name: z.string().default(""),
  type: z.string().default(""),
  format: z.string().optional(),
  description: z.string().optional(),
  priority: z.number().int().optional(),
  jsonPath: z.string().default(""),
});
export type CustomResourceColumnDefinition = z.infer<typeof CustomResourceColumnDefinitionSchema>;

export const CustomResourceSubresourceScaleSchema = z.object({
  specReplicasPath: z.string().default(""),
  statusReplicasPath: z.string().default(""),
  labelSelectorPath: z.string().optional(),
});
export type CustomResourceSubresourceScale = z.infer<typeof CustomResourceSubresourceScaleSchema>;

export const CustomResourceSubresourcesSchema = z.object({
  status: z.record(z.string(), z.unknown()).optional(),
  scale: CustomResourceSubresourceScaleSchema.optional(),
});
export type CustomResourceSubresources = z.infer<typeof CustomResourceSubresourcesSchema>;

export const SelectableFieldSchema = z.object({ jsonPath: z.string().default("") });
export type SelectableField = z.infer<typeof SelectableFieldSchema>;

export const CustomResourceValidationSchema = z.object({ openAPIV3Schema: JSONSchemaPropsSchema.optional() });

export const CustomResourceDefinitionVersionSchema = z.object({
  name: z.string().default(""),
  served: z.boolean().default(false),
  storage: z.boolean().default(false),
  deprecated: z.boolean().optional(),
  deprecationWarning: z.string().optional(),
  schema: CustomResourceValidationSchema.optional(),
  subresources: CustomResourceSubresourcesSchema.optional(),
  additionalPrinterColumns: z.array(CustomResourceColumnDefinitionSchema).optional(),
  selectableFields: z.array(SelectableFieldSchema).optional(),
});
export type CustomResourceDefinitionVersion = z.infer<typeof CustomResourceDefinitionVersionSchema>;

const ServiceReferenceSchema = z.object({
  namespace: z.string().default(""),
  name: z.string().default(""),
  path: z.string().optional(),
  port: z.number().int().optional(),
});

export const WebhookClientConfigSchema = z.object({
  url: z.string().optional(),
  service: ServiceReferenceSchema.optional(),
  caBundle: z.string().optional(),
});

export const CustomResourceConversionSchema = z.object({
  strategy: z.string().default(""),
  webhook: z
    .object({ clientConfig: WebhookClientConfigSchema.optional(), conversionReviewVersions: z.array(z.string()).default([]) })
    .optional(),
});
export type CustomResourceConversion = z.infer<typeof CustomResourceConversionSchema>;

export const CustomResourceDefinitionSpecSchema = z.object({
  group: z.string().default(""),
  names: CustomResourceDefinitionNamesSchema.default({ plural: "", kind: "" }),
  scope: z.string().default(""),
  versions: z.array(CustomResourceDefinitionVersionSchema).default([]),
  conversion: CustomResourceConversionSchema.optional(),
  preserveUnknownFields: z.boolean().optional(),
});
export type CustomResourceDefinitionSpec = z.infer<typeof CustomResourceDefinitionSpecSchema>;

export const CustomResourceDefinitionConditionSchema = z.object({
  type: z.string(),
  status: z.string(),
  lastTransitionTime: NullableTimeSchema.optional(),
  reason: z.string().optional(),
  message: z.string().optional(),
});
export type CustomResourceDefinitionCondition = z.infer<typeof CustomResourceDefinitionConditionSchema>;

export const CustomResourceDefinitionStatusSchema = z.object({
  conditions: z.array(CustomResourceDefinitionConditionSchema).optional(),
  acceptedNames: CustomResourceDefinitionNamesSchema.optional(),
  storedVersions: z.array(z.string()).optional(),
});
export type CustomResourceDefinitionStatus = z.infer<typeof CustomResourceDefinitionStatusSchema>;

export const CustomResourceDefinitionSchema = z.object({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema.default({}),
  spec: CustomResourceDefinitionSpecSchema.default({ group: "", names: { plural: "", kind: "" }, scope: "", versions: [] }),
  status: CustomResourceDefinitionStatusSchema.optional(),
});
export type CustomResourceDefinition = z.infer<typeof CustomResourceDefinitionSchema>;

export const CustomResourceDefinitionListSchema = listSchemaOf(CustomResourceDefinitionSchema);

/** The condition types (types.go CustomResourceDefinitionConditionType). */
export const crdConditions = {
  established: "Established",
  namesAccepted: "NamesAccepted",
  nonStructuralSchema: "NonStructuralSchema",
  terminating: "Terminating",
  kubernetesAPIApprovalPolicyConformant: "KubernetesAPIApprovalPolicyConformant",
} as const;

/** Finds a CRD condition (apiextensions helpers.go FindCRDCondition). */
export function findCRDCondition(
  crd: Pick<CustomResourceDefinition, "status">,
  type: string,
): CustomResourceDefinitionCondition | undefined {
  return crd.status?.conditions?.find((c) => c.type === type);
}

/** IsCRDConditionTrue. */
export function isCRDConditionTrue(crd: Pick<CustomResourceDefinition, "status">, type: string): boolean {
  return findCRDCondition(crd, type)?.status === "True";
}

/**
 * SetCRDCondition: replaces the condition of that type; lastTransitionTime moves only when the
 * status changes.
 */
export function setCRDCondition(crd: CustomResourceDefinition, next: CustomResourceDefinitionCondition, now: string): void {
  const status = (crd.status ??= {});
  const conditions = (status.conditions ??= []);
  const i = conditions.findIndex((c) => c.type === next.type);
  if (i < 0) {
    conditions.push({ ...next, lastTransitionTime: now });
    return;
  }
  const cur = conditions[i]!;
  conditions[i] = { ...next, lastTransitionTime: cur.status === next.status ? (cur.lastTransitionTime ?? now) : now };
}

/** The storage version's name (apiextensions helpers.go GetCRDStorageVersion). */
export function crdStorageVersion(crd: Pick<CustomResourceDefinition, "spec">): string | undefined {
  return crd.spec.versions.find((v) => v.storage)?.name;
}
