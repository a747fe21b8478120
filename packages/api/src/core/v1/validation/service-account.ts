/** `ValidateServiceAccount` / `ValidateServiceAccountUpdate` (pkg/apis/core/validation/validation.go). */
import type { FieldErrorList } from "../../../errors/index.ts";
import { validateObjectMeta, validateObjectMetaUpdate } from "../../../meta/v1/validation/object-meta.ts";
import type { ServiceAccount } from "../service-account.ts";

/** `ValidateServiceAccount`: the name is a DNS subdomain (ValidateServiceAccountName); nothing else is checked. */
export function validateServiceAccount(sa: ServiceAccount): FieldErrorList {
  return validateObjectMeta(sa.metadata, { namespaced: true });
}

/** `ValidateServiceAccountUpdate`: metadata update rules, then the object as on create. */
export function validateServiceAccountUpdate(sa: ServiceAccount, old: ServiceAccount): FieldErrorList {
  return [...validateObjectMetaUpdate(sa.metadata, old.metadata), ...validateServiceAccount(sa)];
}
