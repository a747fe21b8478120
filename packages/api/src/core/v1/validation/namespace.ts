/** `ValidateNamespace`: cluster-scoped, DNS-1123 label names, known or qualified spec finalizers. */
import { field, type FieldErrorList } from "../../../errors/index.ts";
import { finalizerDeleteDependents, finalizerOrphanDependents } from "../../../meta/v1/object-meta.ts";
import { isQualifiedName } from "../../../meta/v1/validation/labels.ts";
import { nameIsDNSLabel } from "../../../meta/v1/validation/name.ts";
import { validateObjectMeta, validateObjectMetaUpdate } from "../../../meta/v1/validation/object-meta.ts";
import { finalizerKubernetes } from "../constants.ts";
import type { Namespace } from "../namespace.ts";

const standardFinalizers = new Set([finalizerKubernetes, finalizerOrphanDependents, finalizerDeleteDependents]);

function validateSpecFinalizers(ns: Namespace): FieldErrorList {
  const errs: FieldErrorList = [];
  for (const f of ns.spec?.finalizers ?? []) {
    errs.push(...isQualifiedName(f).map((m) => field.invalid("spec.finalizers", f, m)));
    if (!f.includes("/") && !standardFinalizers.has(f)) {
      errs.push(field.invalid("spec.finalizers", f, "name is neither a standard finalizer name nor is it fully qualified"));
    }
  }
  return errs;
}

/** `ValidateNamespace`. */
export function validateNamespace(ns: Namespace): FieldErrorList {
  return [...validateObjectMeta(ns.metadata, { namespaced: false, nameValidator: nameIsDNSLabel }), ...validateSpecFinalizers(ns)];
}

/** `ValidateNamespaceUpdate`: metadata update rules (spec and status go through their own subresources). */
export function validateNamespaceUpdate(ns: Namespace, oldNs: Namespace): FieldErrorList {
  return validateObjectMetaUpdate(ns.metadata, oldNs.metadata);
}
