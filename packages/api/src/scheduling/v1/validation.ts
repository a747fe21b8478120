/**
 * PriorityClass validation (pkg/apis/scheduling/validation/validation.go ValidatePriorityClass,
 * ValidatePriorityClassUpdate; pkg/apis/scheduling/helpers.go IsKnownSystemPriorityClass;
 * pkg/apis/core/validation ValidatePreemptionPolicy), upstream's messages and paths.
 */
import { field, type FieldErrorList } from "../../errors/field-error.ts";
import { validateImmutableField } from "../../meta/v1/validation/immutable.ts";
import { validateObjectMeta, validateObjectMetaUpdate } from "../../meta/v1/validation/object-meta.ts";
import {
  highestUserDefinablePriority,
  preemptLowerPriority,
  preemptNever,
  systemPriorityClasses,
  systemPriorityClassPrefix,
  type PriorityClass,
} from "./types.ts";

/** IsKnownSystemPriorityClass: undefined when it is one, else why not. */
export function knownSystemPriorityClassError(name: string, value: number, globalDefault: boolean): string | undefined {
  const spc = systemPriorityClasses().find((c) => c.metadata.name === name);
  if (!spc) return `${name} is not a known system priority class`;
  if (spc.value !== value) return `value of ${name} PriorityClass must be ${spc.value}`;
  if ((spc.globalDefault ?? false) !== globalDefault) return `globalDefault of ${name} PriorityClass must be ${spc.globalDefault ?? false}`;
  return undefined;
}

/** ValidatePreemptionPolicy (core validation): PreemptLowerPriority or Never. */
export function validatePreemptionPolicy(policy: string | undefined, path: string): FieldErrorList {
  if (policy === undefined || policy === preemptLowerPriority || policy === preemptNever) return [];
  if (policy === "") return [field.required(path, "")];
  return [field.notSupported(path, policy, [preemptLowerPriority, preemptNever])];
}

/** ValidatePriorityClass: a DNS-1123 subdomain name, `system-` names reserved, the user value ceiling. */
export function validatePriorityClass(pc: PriorityClass): FieldErrorList {
  const errs: FieldErrorList = [...validateObjectMeta(pc.metadata, { namespaced: false })];
  const name = pc.metadata.name ?? "";
  if (name.startsWith(systemPriorityClassPrefix)) {
    const why = knownSystemPriorityClassError(name, pc.value, pc.globalDefault ?? false);
    if (why !== undefined)
      errs.push(
        field.forbidden(
          "metadata.name",
          `priority class names with '${systemPriorityClassPrefix}' prefix are reserved for system use only. error: ${why}`,
        ),
      );
  } else if (pc.value > highestUserDefinablePriority) {
    errs.push(field.forbidden("value", `maximum allowed value of a user defined priority is ${highestUserDefinablePriority}`));
  }
  errs.push(...validatePreemptionPolicy(pc.preemptionPolicy, "preemptionPolicy"));
  return errs;
}

/** ValidatePriorityClassUpdate: value and preemptionPolicy are immutable. */
export function validatePriorityClassUpdate(pc: PriorityClass, old: PriorityClass): FieldErrorList {
  const errs: FieldErrorList = [...validateObjectMetaUpdate(pc.metadata, old.metadata)];
  if (pc.value !== old.value) errs.push(field.forbidden("value", "may not be changed in an update."));
  errs.push(...validateImmutableField(pc.preemptionPolicy, old.preemptionPolicy, "preemptionPolicy"));
  return errs;
}
