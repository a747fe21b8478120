/** flowcontrol/v1 as k8s.io/api/flowcontrol/v1/types.go (v1.33) declares it; see types.ts for the notation. */
import type { GoStructs } from "./types.ts";

export const flowcontrolV1: GoStructs = {
  ExemptPriorityLevelConfiguration: { nominalConcurrencyShares: "*int32,omitempty", lendablePercent: "*int32,omitempty" },
  FlowDistinguisherMethod: { type: "string" },
  FlowSchema: {
    kind: "string,omitempty",
    apiVersion: "string,omitempty",
    metadata: "meta/v1.ObjectMeta,omitempty",
    spec: "flowcontrol/v1.FlowSchemaSpec,omitempty",
    status: "flowcontrol/v1.FlowSchemaStatus,omitempty",
  },
  FlowSchemaCondition: {
    type: "string,omitempty",
    status: "string,omitempty",
    lastTransitionTime: "meta/v1.Time,omitempty",
    reason: "string,omitempty",
    message: "string,omitempty",
  },
  FlowSchemaSpec: {
    priorityLevelConfiguration: "flowcontrol/v1.PriorityLevelConfigurationReference",
    matchingPrecedence: "int32",
    distinguisherMethod: "*flowcontrol/v1.FlowDistinguisherMethod,omitempty",
    rules: "[]flowcontrol/v1.PolicyRulesWithSubjects,omitempty",
  },
  FlowSchemaStatus: { conditions: "[]flowcontrol/v1.FlowSchemaCondition,omitempty" },
  GroupSubject: { name: "string" },
  LimitResponse: { type: "string", queuing: "*flowcontrol/v1.QueuingConfiguration,omitempty" },
  LimitedPriorityLevelConfiguration: {
    nominalConcurrencyShares: "*int32",
    limitResponse: "flowcontrol/v1.LimitResponse,omitempty",
    lendablePercent: "*int32,omitempty",
    borrowingLimitPercent: "*int32,omitempty",
  },
  NonResourcePolicyRule: { verbs: "[]string", nonResourceURLs: "[]string" },
  PolicyRulesWithSubjects: {
    subjects: "[]flowcontrol/v1.Subject",
    resourceRules: "[]flowcontrol/v1.ResourcePolicyRule,omitempty",
    nonResourceRules: "[]flowcontrol/v1.NonResourcePolicyRule,omitempty",
  },
  PriorityLevelConfiguration: {
    kind: "string,omitempty",
    apiVersion: "string,omitempty",
    metadata: "meta/v1.ObjectMeta,omitempty",
    spec: "flowcontrol/v1.PriorityLevelConfigurationSpec,omitempty",
    status: "flowcontrol/v1.PriorityLevelConfigurationStatus,omitempty",
  },
  PriorityLevelConfigurationCondition: {
    type: "string,omitempty",
    status: "string,omitempty",
    lastTransitionTime: "meta/v1.Time,omitempty",
    reason: "string,omitempty",
    message: "string,omitempty",
  },
  PriorityLevelConfigurationReference: { name: "string" },
  PriorityLevelConfigurationSpec: {
    type: "string",
    limited: "*flowcontrol/v1.LimitedPriorityLevelConfiguration,omitempty",
    exempt: "*flowcontrol/v1.ExemptPriorityLevelConfiguration,omitempty",
  },
  PriorityLevelConfigurationStatus: { conditions: "[]flowcontrol/v1.PriorityLevelConfigurationCondition,omitempty" },
  QueuingConfiguration: { queues: "int32", handSize: "int32", queueLengthLimit: "int32" },
  ResourcePolicyRule: {
    verbs: "[]string",
    apiGroups: "[]string",
    resources: "[]string",
    clusterScope: "bool,omitempty",
    namespaces: "[]string",
  },
  ServiceAccountSubject: { namespace: "string", name: "string" },
  Subject: {
    kind: "string",
    user: "*flowcontrol/v1.UserSubject,omitempty",
    group: "*flowcontrol/v1.GroupSubject,omitempty",
    serviceAccount: "*flowcontrol/v1.ServiceAccountSubject,omitempty",
  },
  UserSubject: { name: "string" },
};
