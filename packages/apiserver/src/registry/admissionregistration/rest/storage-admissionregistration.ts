/**
 * admissionregistration.k8s.io/v1 (pkg/registry/admissionregistration/rest/storage_apiserver.go):
 * ValidatingAdmissionPolicies with their status, their bindings, and the validating and mutating
 * webhook configurations, stored under upstream's keys.
 */
import {
  MutatingWebhookConfigurationSchema,
  ValidatingAdmissionPolicyBindingSchema,
  ValidatingAdmissionPolicySchema,
  ValidatingWebhookConfigurationSchema,
} from "@servicenet/api/admissionregistration/v1";
import {
  mutatingWebhookConfigurationHandler,
  validatingAdmissionPolicyBindingHandler,
  validatingAdmissionPolicyHandler,
  validatingWebhookConfigurationHandler,
} from "@servicenet/printers";
import type { ResourceDef } from "../../../server/resource-def.ts";
import { validatingAdmissionPolicyStrategy } from "../validatingadmissionpolicy/strategy.ts";
import { validatingAdmissionPolicyBindingStrategy } from "../validatingadmissionpolicybinding/strategy.ts";
import { mutatingWebhookConfigurationStrategy } from "../mutatingwebhookconfiguration/strategy.ts";
import { validatingWebhookConfigurationStrategy } from "../validatingwebhookconfiguration/strategy.ts";

export const admissionRegistrationGroup = "admissionregistration.k8s.io";
export const validatingAdmissionPolicyStoragePath = "validatingadmissionpolicies";
export const validatingAdmissionPolicyBindingStoragePath = "validatingadmissionpolicybindings";
export const validatingWebhookConfigurationStoragePath = "validatingwebhookconfigurations";
export const mutatingWebhookConfigurationStoragePath = "mutatingwebhookconfigurations";

const common = {
  group: admissionRegistrationGroup,
  version: "v1",
  namespaced: false,
  shortNames: [],
  categories: ["api-extensions"],
  verbs: ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"],
} as const;

/** The group's resources, in discovery order (sorted, as the installer sorts its paths). */
export function admissionRegistrationV1(): ResourceDef[] {
  return [
    {
      ...common,
      resource: "mutatingwebhookconfigurations",
      kind: "MutatingWebhookConfiguration",
      singular: "mutatingwebhookconfiguration",
      subresources: [],
      storagePath: mutatingWebhookConfigurationStoragePath,
      strategy: mutatingWebhookConfigurationStrategy,
      schema: MutatingWebhookConfigurationSchema,
      printer: mutatingWebhookConfigurationHandler,
    },
    {
      ...common,
      resource: "validatingadmissionpolicies",
      kind: "ValidatingAdmissionPolicy",
      singular: "validatingadmissionpolicy",
      subresources: ["status"],
      storagePath: validatingAdmissionPolicyStoragePath,
      strategy: validatingAdmissionPolicyStrategy,
      schema: ValidatingAdmissionPolicySchema,
      printer: validatingAdmissionPolicyHandler,
    },
    {
      ...common,
      resource: "validatingadmissionpolicybindings",
      kind: "ValidatingAdmissionPolicyBinding",
      singular: "validatingadmissionpolicybinding",
      subresources: [],
      storagePath: validatingAdmissionPolicyBindingStoragePath,
      strategy: validatingAdmissionPolicyBindingStrategy,
      schema: ValidatingAdmissionPolicyBindingSchema,
      printer: validatingAdmissionPolicyBindingHandler,
    },
    {
      ...common,
      resource: "validatingwebhookconfigurations",
      kind: "ValidatingWebhookConfiguration",
      singular: "validatingwebhookconfiguration",
      subresources: [],
      storagePath: validatingWebhookConfigurationStoragePath,
      strategy: validatingWebhookConfigurationStrategy,
      schema: ValidatingWebhookConfigurationSchema,
      printer: validatingWebhookConfigurationHandler,
    },
  ];
}
