/**
 * The REST strategy of one CRD version's custom resources (apiextensions-apiserver
 * pkg/registry/customresource/strategy.go and status_strategy.go): generation starts at 1 and
 * moves on every change outside metadata (and outside status when the status subresource is on,
 * whose updates keep everything but status).
 */
import { field, StatusError, validateObjectMeta, validateObjectMetaUpdate, type FieldErrorList } from "@servicenet/api";
import type { CustomResourceDefinition, CustomResourceDefinitionVersion } from "@servicenet/api/apiextensions/v1";
import type { KubeObject } from "../../../storage/index.ts";
import { jsonEqual, type RESTStrategy, type SubresourceStrategy } from "../../../registry/generic/strategy.ts";
import { findFirst, parseSimpleJSONPath } from "./tableconvertor/jsonpath.ts";
import { newSchemaValidator } from "./validator.ts";

/** The object without metadata (and status): what generation tracks. */
function content(o: KubeObject, withoutStatus: boolean): Record<string, unknown> {
  const { metadata: _m, apiVersion: _a, kind: _k, ...rest } = o as Record<string, unknown>;
  if (withoutStatus) delete rest["status"];
  return rest;
}

/** status_strategy.go PrepareForUpdate: everything but status comes from the stored object. */
function prepareStatusUpdate(obj: KubeObject, old: KubeObject): void {
  const status = obj["status"];
  // Copied before obj is cleared: a no-op write hands the stored object in as both obj and old.
  const kept = Object.entries(old)
    .filter(([k]) => k !== "metadata" && k !== "status" && k !== "apiVersion" && k !== "kind")
    .map(([k, v]) => [k, structuredClone(v)] as const);
  for (const k of Object.keys(obj)) if (k !== "metadata" && k !== "apiVersion" && k !== "kind") delete obj[k];
  for (const [k, v] of kept) obj[k] = v;
  if (status !== undefined) obj["status"] = status;
  for (const k of ["labels", "annotations", "finalizers", "ownerReferences"] as const) {
    if (old.metadata[k] === undefined) delete obj.metadata[k];
    else (obj.metadata as Record<string, unknown>)[k] = structuredClone(old.metadata[k]);
  }
}

export interface CustomResourceStrategyOptions {
  /** The CRD is Terminating: creates are refused, as crdHandler.serveResource refuses them. */
  terminating?: boolean;
}

/** The strategy of `version` of `crd`. */
export function newCustomResourceStrategy(
  crd: CustomResourceDefinition,
  version: CustomResourceDefinitionVersion,
  opts: CustomResourceStrategyOptions = {},
): RESTStrategy {
  const schema = newSchemaValidator(version.schema?.openAPIV3Schema, version.subresources?.scale);
  const namespaced = crd.spec.scope === "Namespaced";
  const statusOn = version.subresources?.status !== undefined;
  const kind = crd.status?.acceptedNames?.kind || crd.spec.names.kind;
  /**
   * customResourceValidator.ValidateTypeMeta, checked first and alone when it fails: the kind. Its
   * apiVersion half cannot fail here: another apiVersion is the decoder's 400, and the store hands
   * an update the stored object in this version (the strategy's decode).
   */
  const validateTypeMeta = (o: KubeObject): FieldErrorList => (o.kind === kind ? [] : [field.invalid("kind", o.kind, `must be ${kind}`)]);
  const selectable = (version.selectableFields ?? []).map((f) => ({
    name: f.jsonPath.replace(/^\./, ""),
    steps: parseSimpleJSONPath(f.jsonPath) ?? [],
  }));
  const subresources: Record<string, SubresourceStrategy> = {};
  if (statusOn)
    subresources["status"] = {
      prepareForUpdate: prepareStatusUpdate,
      validateUpdate: (o, old, warnings) => {
        const tm = validateTypeMeta(o);
        return tm.length > 0 ? tm : [...validateObjectMetaUpdate(o.metadata, old.metadata), ...schema.validateUpdate(o, old, warnings)];
      },
    };
  return {
    group: crd.spec.group,
    kind,
    namespaced,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: false,
    prepareForCreate: (o) => {
      if (opts.terminating) {
        const e = StatusError.methodNotSupported({ group: crd.spec.group, resource: crd.spec.names.plural }, "create");
        throw new StatusError("MethodNotAllowed", "create not allowed while custom resource definition is terminating", e.status.details);
      }
      if (statusOn) delete o["status"];
      o.metadata.generation = 1;
    },
    prepareForUpdate: (o, old) => {
      if (statusOn) {
        if (old["status"] === undefined) delete o["status"];
        else o["status"] = structuredClone(old["status"]);
      }
      const prev = typeof old.metadata.generation === "number" ? old.metadata.generation : 0;
      o.metadata.generation = jsonEqual(content(o, statusOn), content(old, statusOn)) ? prev : prev + 1;
    },
    validate: (o) => {
      const tm = validateTypeMeta(o);
      return tm.length > 0 ? tm : [...validateObjectMeta(o.metadata, { namespaced }), ...schema.validate(o)];
    },
    validateUpdate: (o, old, warnings) => {
      const tm = validateTypeMeta(o);
      return tm.length > 0 ? tm : [...validateObjectMetaUpdate(o.metadata, old.metadata), ...schema.validateUpdate(o, old, warnings)];
    },
    ...(selectable.length > 0
      ? {
          selectableFieldNames: selectable.map((s) => s.name),
          selectableFields: (o: KubeObject) => {
            const out: Record<string, string> = {};
            for (const s of selectable) {
              const v = findFirst(o, s.steps);
              if (typeof v === "string" || typeof v === "number" || typeof v === "bigint" || typeof v === "boolean")
                out[s.name] = String(v);
            }
            return out;
          },
        }
      : {}),
    subresources,
  };
}
