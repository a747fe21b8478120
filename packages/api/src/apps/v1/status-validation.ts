/**
 * ReplicaSet validation and the status rules of both kinds (pkg/apis/apps/validation/validation.go
 * ValidateReplicaSet, ValidateReplicaSetStatus, ValidateDeploymentStatus, ValidateDeploymentStatusUpdate).
 */
import { field, path, type FieldErrorList } from "../../errors/index.ts";
import { validateObjectMeta, validateObjectMetaUpdate } from "../../meta/v1/validation/object-meta.ts";
import type { Deployment, DeploymentStatus, ReplicaSet, ReplicaSetStatus } from "./types.ts";
import { validateNonnegativeField, validateSelectorAndTemplate } from "./validation.ts";

const greaterThanReplicas = "cannot be greater than status.replicas";

/** `ValidateReplicaSetSpec`. */
export function validateReplicaSetSpec(rs: ReplicaSet, fldPath = "spec"): FieldErrorList {
  return [
    ...validateNonnegativeField(rs.spec.replicas ?? 0, path(fldPath, "replicas")),
    ...validateNonnegativeField(rs.spec.minReadySeconds ?? 0, path(fldPath, "minReadySeconds")),
    ...validateSelectorAndTemplate(rs.spec.selector, rs.spec.template, fldPath),
  ];
}

/** `ValidateReplicaSet`. */
export function validateReplicaSet(rs: ReplicaSet): FieldErrorList {
  return [...validateObjectMeta(rs.metadata, { namespaced: true }), ...validateReplicaSetSpec(rs)];
}

/** `ValidateReplicaSetUpdate`. */
export function validateReplicaSetUpdate(rs: ReplicaSet, old: ReplicaSet): FieldErrorList {
  return [...validateObjectMetaUpdate(rs.metadata, old.metadata), ...validateReplicaSetSpec(rs)];
}

/** `ValidateReplicaSetStatus`. */
export function validateReplicaSetStatus(status: ReplicaSetStatus | undefined, fldPath = "status"): FieldErrorList {
  const s = { replicas: 0, fullyLabeledReplicas: 0, readyReplicas: 0, availableReplicas: 0, observedGeneration: 0, ...status };
  const errs: FieldErrorList = [];
  for (const f of ["replicas", "fullyLabeledReplicas", "readyReplicas", "availableReplicas", "observedGeneration"] as const)
    errs.push(...validateNonnegativeField(s[f], path(fldPath, f)));
  for (const f of ["fullyLabeledReplicas", "readyReplicas", "availableReplicas"] as const)
    if (s[f] > s.replicas) errs.push(field.invalid(path(fldPath, f), s[f], greaterThanReplicas));
  if (s.availableReplicas > s.readyReplicas)
    errs.push(field.invalid(path(fldPath, "availableReplicas"), s.availableReplicas, "cannot be greater than readyReplicas"));
  return errs;
}

/** `ValidateReplicaSetStatusUpdate`. */
export function validateReplicaSetStatusUpdate(rs: ReplicaSet, old: ReplicaSet): FieldErrorList {
  return [...validateObjectMetaUpdate(rs.metadata, old.metadata), ...validateReplicaSetStatus(rs.status)];
}

/** `ValidateDeploymentStatus`. */
export function validateDeploymentStatus(status: DeploymentStatus | undefined, fldPath = "status"): FieldErrorList {
  const s = {
    observedGeneration: 0,
    replicas: 0,
    updatedReplicas: 0,
    readyReplicas: 0,
    availableReplicas: 0,
    unavailableReplicas: 0,
    ...status,
  };
  const errs: FieldErrorList = [];
  for (const f of [
    "observedGeneration",
    "replicas",
    "updatedReplicas",
    "readyReplicas",
    "availableReplicas",
    "unavailableReplicas",
  ] as const)
    errs.push(...validateNonnegativeField(s[f], path(fldPath, f)));
  if (s.collisionCount !== undefined) errs.push(...validateNonnegativeField(s.collisionCount, path(fldPath, "collisionCount")));
  for (const f of ["updatedReplicas", "readyReplicas", "availableReplicas"] as const)
    if (s[f] > s.replicas) errs.push(field.invalid(path(fldPath, f), s[f], greaterThanReplicas));
  if (s.availableReplicas > s.readyReplicas)
    errs.push(field.invalid(path(fldPath, "availableReplicas"), s.availableReplicas, "cannot be greater than readyReplicas"));
  return errs;
}

/** `ValidateDeploymentStatusUpdate`: the status rules, and collisionCount never decremented. */
export function validateDeploymentStatusUpdate(d: Deployment, old: Deployment): FieldErrorList {
  const errs = [...validateObjectMetaUpdate(d.metadata, old.metadata), ...validateDeploymentStatus(d.status)];
  const now = d.status?.collisionCount;
  const before = old.status?.collisionCount;
  // apivalidation.IsDecremented: a set count may not go down nor be unset.
  if (before !== undefined && (now === undefined || now < before))
    errs.push(field.invalid("status.collisionCount", now ?? 0, "cannot be decremented"));
  return errs;
}
