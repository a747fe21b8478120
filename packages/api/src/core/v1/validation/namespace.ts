/** `ValidateNamespace`: cluster-scoped, DNS-1123 label names, known or qualified spec finalizers. */
import { field, path, type FieldErrorList } from "../../../errors/index.ts";
import { finalizerDeleteDependents, finalizerOrphanDependents } from "../../../meta/v1/object-meta.ts";
import { isQualifiedName } from "../../../meta/v1/validation/labels.ts";
import { nameIsDNSLabel } from "../../../meta/v1/validation/name.ts";
import { validateObjectMeta, validateObjectMetaUpdate } from "../../../meta/v1/validation/object-meta.ts";
import { finalizerKubernetes, namespacePhases } from "../constants.ts";
import type { Namespace } from "../namespace.ts";

const standardFinalizers = new Set([finalizerKubernetes, finalizerOrphanDependents, finalizerDeleteDependents]);

/** upstream validateFinalizerName: a qualified name, and a standard one when it has no prefix. */
function validateFinalizerName(f: string, fldPath: string): FieldErrorList {
  const errs = isQualifiedName(f).map((m) => field.invalid(fldPath, f, m));
  if (!f.includes("/") && !standardFinalizers.has(f)) {
    errs.push(field.invalid(fldPath, f, "name is neither a standard finalizer name nor is it fully qualified"));
  }
  return errs;
}

// ValidateNamespace reports every finalizer at `spec.finalizers` (no index), as upstream does.
function validateSpecFinalizers(ns: Namespace): FieldErrorList {
  return (ns.spec?.finalizers ?? []).flatMap((f) => validateFinalizerName(f, "spec.finalizers"));
}

/** `ValidateNamespace`. */
export function validateNamespace(ns: Namespace): FieldErrorList {
  return [...validateObjectMeta(ns.metadata, { namespaced: false, nameValidator: nameIsDNSLabel }), ...validateSpecFinalizers(ns)];
}

/** `ValidateNamespaceUpdate`: metadata update rules (spec and status go through their own subresources). */
export function validateNamespaceUpdate(ns: Namespace, oldNs: Namespace): FieldErrorList {
  return validateObjectMetaUpdate(ns.metadata, oldNs.metadata);
}

/**
 * `ValidateNamespaceStatusUpdate`: metadata update rules, and a phase that agrees with
 * metadata.deletionTimestamp (Active without it, Terminating with it).
 */
export function validateNamespaceStatusUpdate(ns: Namespace, oldNs: Namespace): FieldErrorList {
  const errs = validateObjectMetaUpdate(ns.metadata, oldNs.metadata);
  const phase = ns.status?.phase ?? "";
  if (ns.metadata.deletionTimestamp === undefined || ns.metadata.deletionTimestamp === null) {
    if (phase !== namespacePhases.Active)
      errs.push(field.invalid("status.Phase", phase, "may only be 'Active' if `deletionTimestamp` is empty"));
  } else if (phase !== namespacePhases.Terminating) {
    errs.push(field.invalid("status.Phase", phase, "may only be 'Terminating' if `deletionTimestamp` is not empty"));
  }
  return errs;
}

/** `ValidateNamespaceFinalizeUpdate`: metadata update rules and each spec finalizer, by index. */
export function validateNamespaceFinalizeUpdate(ns: Namespace, oldNs: Namespace): FieldErrorList {
  const errs = validateObjectMetaUpdate(ns.metadata, oldNs.metadata);
  (ns.spec?.finalizers ?? []).forEach((f, i) => errs.push(...validateFinalizerName(f, path("spec", "finalizers", i))));
  return errs;
}
