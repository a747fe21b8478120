/**
 * Namespace REST strategy (pkg/registry/core/namespace/strategy.go): the main resource, and the
 * status and finalize subresources' strategies (namespaceStatusStrategy, namespaceFinalizeStrategy).
 * Deletion rules live in storage/storage.ts; the namespace controller empties a terminating namespace.
 */
import {
  namespaceCreateFinalizers,
  setDefaultsNamespace,
  validateNamespace,
  validateNamespaceFinalizeUpdate,
  validateNamespaceStatusUpdate,
  validateNamespaceUpdate,
  type Namespace,
} from "@servicenet/api";
import type { KubeObject } from "../../../storage/index.ts";
import { resetForStatus, type RESTStrategy } from "../../generic/strategy.ts";

const asNamespace = (o: KubeObject): Namespace => o;

export const namespaceStrategy: RESTStrategy = {
  group: "",
  kind: "Namespace",
  namespaced: false,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  returnDeletedObject: true,
  defaults: (o) => void setDefaultsNamespace(asNamespace(o)),
  prepareForCreate: (o) => {
    // On create the kubernetes finalizer is required; finalizers the request lists are kept.
    const had = asNamespace(o).spec?.finalizers ?? [];
    o["spec"] = {
      finalizers:
        had.length === 0 ? [...namespaceCreateFinalizers] : [...had, ...namespaceCreateFinalizers.filter((f) => !had.includes(f))],
    };
    o["status"] = { phase: "Active" };
    setDefaultsNamespace(asNamespace(o));
  },
  prepareForUpdate: (o, old) => {
    o["spec"] = structuredClone(old["spec"] ?? {});
    o["status"] = structuredClone(old["status"] ?? {});
    setDefaultsNamespace(asNamespace(o));
  },
  validate: (o) => validateNamespace(asNamespace(o)),
  validateUpdate: (o, old) => validateNamespaceUpdate(asNamespace(o), asNamespace(old)),
  selectableFieldNames: ["status.phase"],
  selectableFields: (o) => ({ "status.phase": str(((o["status"] ?? {}) as Record<string, unknown>)["phase"]) }),
  subresources: {
    status: {
      prepareForUpdate: resetForStatus,
      validateUpdate: (o, old) => validateNamespaceStatusUpdate(asNamespace(o), asNamespace(old)),
    },
    // namespaceFinalizeStrategy: spec.finalizers (and metadata) from the request, status kept.
    finalize: {
      prepareForUpdate: (o, old) => {
        o["status"] = structuredClone(old["status"] ?? {});
        if (o["spec"] === undefined) o["spec"] = {};
      },
      validateUpdate: (o, old) => validateNamespaceFinalizeUpdate(asNamespace(o), asNamespace(old)),
    },
  },
};

const str = (v: unknown): string => (typeof v === "string" ? v : "");
