/**
 * Lease validation (pkg/apis/coordination/validation/validation.go): ValidateLease,
 * ValidateLeaseUpdate, ValidateLeaseSpec and ValidateCoordinatedLeaseStrategy, upstream's messages
 * and field paths (including `spec.strategy.strategy`, which upstream builds by adding the child
 * twice).
 */
import { field, type FieldErrorList } from "../../errors/field-error.ts";
import { isQualifiedName } from "../../meta/v1/validation/labels.ts";
import { validateObjectMeta, validateObjectMetaUpdate } from "../../meta/v1/validation/object-meta.ts";
import type { Lease, LeaseSpec } from "./lease.ts";

/** Upstream validLeaseStrategies. */
export const validLeaseStrategies = ["OldestEmulationVersion"] as const;

/** ValidateLease: metadata (a DNS-1123 subdomain name, namespaced) and the spec. */
export function validateLease(lease: Lease): FieldErrorList {
  return [...validateObjectMeta(lease.metadata, { namespaced: true }), ...validateLeaseSpec(lease.spec ?? {}, "spec")];
}

/** ValidateLeaseUpdate: the metadata update rules and the new spec. */
export function validateLeaseUpdate(lease: Lease, old: Lease): FieldErrorList {
  return [...validateObjectMetaUpdate(lease.metadata, old.metadata), ...validateLeaseSpec(lease.spec ?? {}, "spec")];
}

/** ValidateLeaseSpec. */
export function validateLeaseSpec(spec: LeaseSpec, path: string): FieldErrorList {
  const errs: FieldErrorList = [];
  if (spec.leaseDurationSeconds !== undefined && spec.leaseDurationSeconds <= 0)
    errs.push(field.invalid(`${path}.leaseDurationSeconds`, spec.leaseDurationSeconds, "must be greater than 0"));
  if (spec.leaseTransitions !== undefined && spec.leaseTransitions < 0)
    errs.push(field.invalid(`${path}.leaseTransitions`, spec.leaseTransitions, "must be greater than or equal to 0"));
  if (spec.strategy !== undefined) errs.push(...validateCoordinatedLeaseStrategy(spec.strategy, `${path}.strategy`));
  if (spec.preferredHolder !== undefined && spec.preferredHolder !== "" && (spec.strategy ?? "") === "")
    errs.push(field.forbidden(`${path}.preferredHolder`, "may only be specified if `strategy` is defined"));
  return errs;
}

/** ValidateCoordinatedLeaseStrategy: a Kubernetes-defined name, or a qualified name with a prefix. */
export function validateCoordinatedLeaseStrategy(strategy: string, path: string): FieldErrorList {
  if (strategy.split("/").length === 1) {
    return (validLeaseStrategies as readonly string[]).includes(strategy)
      ? []
      : [field.notSupported(`${path}.strategy`, strategy, validLeaseStrategies)];
  }
  return isQualifiedName(strategy).map((m) => field.invalid(`${path}.strategy`, strategy, m));
}
