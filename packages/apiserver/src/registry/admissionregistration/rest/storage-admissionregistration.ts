/**
 * admissionregistration.k8s.io/v1 (pkg/registry/admissionregistration/rest/storage_apiserver.go):
 * ValidatingAdmissionPolicies with their status, and their bindings, stored under upstream's keys.
 */
import { ValidatingAdmissionPolicyBindingSchema, ValidatingAdmissionPolicySchema } from "@servicenet/api/admissionregistration/v1";
import { validatingAdmissionPolicyBindingHandler, validatingAdmissionPolicyHandler } from "@servicenet/printers";
import type { ResourceDef } from "../../../server/resource-def.ts";
import { validatingAdmissionPolicyStrategy } from "../validatingadmissionpolicy/strategy.ts";
import { validatingAdmissionPolicyBindingStrategy } from "../validatingadmissionpolicybinding/strategy.ts";

export const admissionRegistrationGroup = "admissionregistration.k8s.io";
export const validatingAdmissionPolicyStoragePath = "validatingadmissionpolicies";
export const validatingAdmissionPolicyBindingStoragePath = "validatingadmissionpolicybindings";

const common = {
  group: admissionRegistrationGroup,
  version: "v1",
  namespaced: false,
  shortNames: [],
  categories: ["api-extensions"],
  verbs: ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"],
} as const;

/** The group's resources, in discovery order. */
export function admissionRegistrationV1(): ResourceDef[] {
  return [
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
  ];
}
