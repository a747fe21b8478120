/**
 * ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding (admissionregistration.k8s.io/v1,
 * k8s.io/api/admissionregistration/v1/types.go). JSON field names are Kubernetes'; enum-valued
 * fields are plain strings here so that validation, not decoding, reports unsupported values with
 * upstream's messages.
 */
import { z } from "zod";
import { ConditionSchema, LabelSelectorSchema, ListMetaSchema, ObjectMetaSchema } from "../../meta/v1/index.ts";

export const admissionregistrationV1 = "admissionregistration.k8s.io/v1";

/** Rule with operations and resource names (types.go NamedRuleWithOperations). */
export const NamedRuleWithOperationsSchema = z.object({
  resourceNames: z.array(z.string()).optional(),
  operations: z.array(z.string()).optional(),
  apiGroups: z.array(z.string()).optional(),
  apiVersions: z.array(z.string()).optional(),
  resources: z.array(z.string()).optional(),
  scope: z.string().optional(),
});
export type NamedRuleWithOperations = z.infer<typeof NamedRuleWithOperationsSchema>;

/** Which requests a policy or binding applies to (types.go MatchResources). */
export const MatchResourcesSchema = z.object({
  namespaceSelector: LabelSelectorSchema.optional(),
  objectSelector: LabelSelectorSchema.optional(),
  resourceRules: z.array(NamedRuleWithOperationsSchema).optional(),
  excludeResourceRules: z.array(NamedRuleWithOperationsSchema).optional(),
  matchPolicy: z.string().optional(),
});
export type MatchResources = z.infer<typeof MatchResourcesSchema>;

export const ParamKindSchema = z.object({ apiVersion: z.string().optional(), kind: z.string().optional() });
export type ParamKind = z.infer<typeof ParamKindSchema>;

export const ValidationSchema = z.object({
  expression: z.string(),
  message: z.string().optional(),
  reason: z.string().optional(),
  messageExpression: z.string().optional(),
});
export type Validation = z.infer<typeof ValidationSchema>;

export const AuditAnnotationSchema = z.object({ key: z.string(), valueExpression: z.string() });
export type AuditAnnotation = z.infer<typeof AuditAnnotationSchema>;

// Go's MatchCondition has plain string fields: an absent one decodes as "" and validation says Required.
export const MatchConditionSchema = z.object({ name: z.string().default(""), expression: z.string().default("") });
export type MatchCondition = z.infer<typeof MatchConditionSchema>;

export const VariableSchema = z.object({ name: z.string(), expression: z.string() });
export type Variable = z.infer<typeof VariableSchema>;

export const ValidatingAdmissionPolicySpecSchema = z.object({
  paramKind: ParamKindSchema.optional(),
  matchConstraints: MatchResourcesSchema.optional(),
  validations: z.array(ValidationSchema).optional(),
  failurePolicy: z.string().optional(),
  auditAnnotations: z.array(AuditAnnotationSchema).optional(),
  matchConditions: z.array(MatchConditionSchema).optional(),
  variables: z.array(VariableSchema).optional(),
});
export type ValidatingAdmissionPolicySpec = z.infer<typeof ValidatingAdmissionPolicySpecSchema>;

export const ExpressionWarningSchema = z.object({ fieldRef: z.string(), warning: z.string() });
export type ExpressionWarning = z.infer<typeof ExpressionWarningSchema>;
export const TypeCheckingSchema = z.object({ expressionWarnings: z.array(ExpressionWarningSchema).optional() });

export const ValidatingAdmissionPolicyStatusSchema = z.object({
  observedGeneration: z.number().int().optional(),
  typeChecking: TypeCheckingSchema.optional(),
  conditions: z.array(ConditionSchema).optional(),
});

export const ValidatingAdmissionPolicySchema = z.object({
  apiVersion: z.literal(admissionregistrationV1).optional(),
  kind: z.literal("ValidatingAdmissionPolicy").optional(),
  metadata: ObjectMetaSchema.default({}),
  spec: ValidatingAdmissionPolicySpecSchema.default({}),
  status: ValidatingAdmissionPolicyStatusSchema.optional(),
});
export type ValidatingAdmissionPolicy = z.infer<typeof ValidatingAdmissionPolicySchema>;

export const ValidatingAdmissionPolicyListSchema = z.object({
  apiVersion: z.literal(admissionregistrationV1).optional(),
  kind: z.literal("ValidatingAdmissionPolicyList").optional(),
  metadata: ListMetaSchema.default({}),
  items: z.array(ValidatingAdmissionPolicySchema),
});

export const ParamRefSchema = z.object({
  name: z.string().optional(),
  namespace: z.string().optional(),
  selector: LabelSelectorSchema.optional(),
  parameterNotFoundAction: z.string().optional(),
});
export type ParamRef = z.infer<typeof ParamRefSchema>;

export const ValidatingAdmissionPolicyBindingSpecSchema = z.object({
  policyName: z.string().optional(),
  paramRef: ParamRefSchema.optional(),
  matchResources: MatchResourcesSchema.optional(),
  validationActions: z.array(z.string()).optional(),
});

export const ValidatingAdmissionPolicyBindingSchema = z.object({
  apiVersion: z.literal(admissionregistrationV1).optional(),
  kind: z.literal("ValidatingAdmissionPolicyBinding").optional(),
  metadata: ObjectMetaSchema.default({}),
  spec: ValidatingAdmissionPolicyBindingSpecSchema.default({}),
});
export type ValidatingAdmissionPolicyBinding = z.infer<typeof ValidatingAdmissionPolicyBindingSchema>;

export const ValidatingAdmissionPolicyBindingListSchema = z.object({
  apiVersion: z.literal(admissionregistrationV1).optional(),
  kind: z.literal("ValidatingAdmissionPolicyBindingList").optional(),
  metadata: ListMetaSchema.default({}),
  items: z.array(ValidatingAdmissionPolicyBindingSchema),
});
