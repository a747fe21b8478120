/**
 * flowcontrol.apiserver.k8s.io/v1 FlowSchema and PriorityLevelConfiguration
 * (k8s.io/api/flowcontrol/v1 types.go), fields in Go struct order.
 */
import { z } from "zod";
import { listSchemaOf, ObjectMetaSchema } from "../../meta/v1/object-meta.ts";
import { NullableTimeSchema } from "../../meta/v1/type-meta.ts";

/** The group's name. */
export const flowcontrolGroup = "flowcontrol.apiserver.k8s.io";

/** Wildcards and well-known names (types.go constants). */
export const APIGroupAll = "*";
export const ResourceAll = "*";
export const VerbAll = "*";
export const NonResourceAll = "*";
export const NameAll = "*";
export const NamespaceEvery = "*";
export const priorityLevelConfigurationNameExempt = "exempt";
export const priorityLevelConfigurationNameCatchAll = "catch-all";
export const flowSchemaNameExempt = "exempt";
export const flowSchemaNameCatchAll = "catch-all";
/** The annotation that tells the config-producer whether it may rewrite an object's spec. */
export const autoUpdateAnnotationKey = "apf.kubernetes.io/autoupdate-spec";
/** The response headers naming the FlowSchema and priority level a request was classified into. */
export const responseHeaderMatchedFlowSchemaUID = "X-Kubernetes-PF-FlowSchema-UID";
export const responseHeaderMatchedPriorityLevelConfigurationUID = "X-Kubernetes-PF-PriorityLevel-UID";
/** The largest matchingPrecedence a FlowSchema may have. */
export const flowSchemaMaxMatchingPrecedence = 10000;

const condition = z.object({
  type: z.string().optional(),
  status: z.string().optional(),
  lastTransitionTime: NullableTimeSchema.optional(),
  reason: z.string().optional(),
  message: z.string().optional(),
});

export const SubjectSchema = z.object({
  kind: z.string(),
  user: z.object({ name: z.string() }).optional(),
  group: z.object({ name: z.string() }).optional(),
  serviceAccount: z.object({ namespace: z.string(), name: z.string() }).optional(),
});
export type Subject = z.infer<typeof SubjectSchema>;

export const ResourcePolicyRuleSchema = z.object({
  verbs: z.array(z.string()),
  apiGroups: z.array(z.string()),
  resources: z.array(z.string()),
  clusterScope: z.boolean().optional(),
  namespaces: z.array(z.string()).optional(),
});
export type ResourcePolicyRule = z.infer<typeof ResourcePolicyRuleSchema>;

export const NonResourcePolicyRuleSchema = z.object({
  verbs: z.array(z.string()),
  nonResourceURLs: z.array(z.string()),
});
export type NonResourcePolicyRule = z.infer<typeof NonResourcePolicyRuleSchema>;

export const PolicyRulesWithSubjectsSchema = z.object({
  subjects: z.array(SubjectSchema),
  resourceRules: z.array(ResourcePolicyRuleSchema).optional(),
  nonResourceRules: z.array(NonResourcePolicyRuleSchema).optional(),
});
export type PolicyRulesWithSubjects = z.infer<typeof PolicyRulesWithSubjectsSchema>;

export const FlowSchemaSpecSchema = z.object({
  priorityLevelConfiguration: z.object({ name: z.string() }),
  matchingPrecedence: z.number().int().optional(),
  distinguisherMethod: z.object({ type: z.string() }).optional(),
  rules: z.array(PolicyRulesWithSubjectsSchema).optional(),
});
export type FlowSchemaSpec = z.infer<typeof FlowSchemaSpecSchema>;

export const FlowSchemaConditionSchema = condition;
export type FlowSchemaCondition = z.infer<typeof FlowSchemaConditionSchema>;

export const FlowSchemaSchema = z.object({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema.default({}),
  spec: FlowSchemaSpecSchema.optional(),
  status: z.object({ conditions: z.array(FlowSchemaConditionSchema).optional() }).optional(),
});
export type FlowSchema = z.infer<typeof FlowSchemaSchema>;
export const FlowSchemaListSchema = listSchemaOf(FlowSchemaSchema);
export type FlowSchemaList = z.infer<typeof FlowSchemaListSchema>;

export const QueuingConfigurationSchema = z.object({
  queues: z.number().int().optional(),
  handSize: z.number().int().optional(),
  queueLengthLimit: z.number().int().optional(),
});
export type QueuingConfiguration = z.infer<typeof QueuingConfigurationSchema>;

export const LimitResponseSchema = z.object({
  type: z.string(),
  queuing: QueuingConfigurationSchema.optional(),
});
export type LimitResponse = z.infer<typeof LimitResponseSchema>;

export const LimitedPriorityLevelConfigurationSchema = z.object({
  nominalConcurrencyShares: z.number().int().optional(),
  limitResponse: LimitResponseSchema.optional(),
  lendablePercent: z.number().int().optional(),
  borrowingLimitPercent: z.number().int().optional(),
});
export type LimitedPriorityLevelConfiguration = z.infer<typeof LimitedPriorityLevelConfigurationSchema>;

export const ExemptPriorityLevelConfigurationSchema = z.object({
  nominalConcurrencyShares: z.number().int().optional(),
  lendablePercent: z.number().int().optional(),
});
export type ExemptPriorityLevelConfiguration = z.infer<typeof ExemptPriorityLevelConfigurationSchema>;

export const PriorityLevelConfigurationSpecSchema = z.object({
  type: z.string(),
  limited: LimitedPriorityLevelConfigurationSchema.optional(),
  exempt: ExemptPriorityLevelConfigurationSchema.optional(),
});
export type PriorityLevelConfigurationSpec = z.infer<typeof PriorityLevelConfigurationSpecSchema>;

export const PriorityLevelConfigurationConditionSchema = condition;
export type PriorityLevelConfigurationCondition = z.infer<typeof PriorityLevelConfigurationConditionSchema>;

export const PriorityLevelConfigurationSchema = z.object({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema.default({}),
  spec: PriorityLevelConfigurationSpecSchema.optional(),
  status: z.object({ conditions: z.array(PriorityLevelConfigurationConditionSchema).optional() }).optional(),
});
export type PriorityLevelConfiguration = z.infer<typeof PriorityLevelConfigurationSchema>;
export const PriorityLevelConfigurationListSchema = listSchemaOf(PriorityLevelConfigurationSchema);
export type PriorityLevelConfigurationList = z.infer<typeof PriorityLevelConfigurationListSchema>;
