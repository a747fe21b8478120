/** meta/v1 as k8s.io/apimachinery/pkg/apis/meta/v1/types.go (v1.33) declares it; see types.ts for the notation. */
import type { GoStructs } from "./types.ts";

export const metaV1: GoStructs = {
  Condition: {
    type: "string",
    status: "string",
    observedGeneration: "int64,omitempty",
    lastTransitionTime: "meta/v1.Time",
    reason: "string",
    message: "string",
  },
  LabelSelector: { matchLabels: "map[string]string,omitempty", matchExpressions: "[]meta/v1.LabelSelectorRequirement,omitempty" },
  LabelSelectorRequirement: { key: "string", operator: "string", values: "[]string,omitempty" },
  ManagedFieldsEntry: {
    manager: "string,omitempty",
    operation: "string,omitempty",
    apiVersion: "string,omitempty",
    time: "*meta/v1.Time,omitempty",
    fieldsType: "string,omitempty",
    fieldsV1: "*meta/v1.FieldsV1,omitempty",
    subresource: "string,omitempty",
  },
  ObjectMeta: {
    name: "string,omitempty",
    generateName: "string,omitempty",
    namespace: "string,omitempty",
    selfLink: "string,omitempty",
    uid: "string,omitempty",
    resourceVersion: "string,omitempty",
    generation: "int64,omitempty",
    creationTimestamp: "meta/v1.Time,omitempty",
    deletionTimestamp: "*meta/v1.Time,omitempty",
    deletionGracePeriodSeconds: "*int64,omitempty",
    labels: "map[string]string,omitempty",
    annotations: "map[string]string,omitempty",
    ownerReferences: "[]meta/v1.OwnerReference,omitempty",
    finalizers: "[]string,omitempty",
    managedFields: "[]meta/v1.ManagedFieldsEntry,omitempty",
  },
  OwnerReference: {
    apiVersion: "string",
    kind: "string",
    name: "string",
    uid: "string",
    controller: "*bool,omitempty",
    blockOwnerDeletion: "*bool,omitempty",
  },
};
