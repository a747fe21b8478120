/**
 * ObjectMeta validation on create and update (apimachinery
 * pkg/api/validation/objectmeta.go), with upstream messages and paths.
 */
import { field, type FieldErrorList } from "../../../errors/index.ts";
import { finalizerDeleteDependents, finalizerOrphanDependents, type ObjectMeta, type OwnerReference } from "../object-meta.ts";
import { validateAnnotations, validateLabels, isQualifiedName } from "./labels.ts";
import { validateImmutableField } from "./immutable.ts";
import { nameIsDNSLabel, nameIsDNSSubdomain, type NameValidator } from "./name.ts";

const isNegativeErrorMsg = "must be greater than or equal to 0";

export interface ObjectMetaValidationOptions {
  /** Namespaced kinds require `metadata.namespace`; cluster-scoped ones forbid it. */
  namespaced: boolean;
  /** Name rule of the kind; DNS-1123 subdomain when omitted. */
  nameValidator?: NameValidator;
  /** Path of the metadata; `metadata` when omitted. */
  path?: string;
}

function validateOwnerReferences(refs: readonly OwnerReference[] | undefined, path: string): FieldErrorList {
  const errs: FieldErrorList = [];
  let firstController = "";
  for (const ref of refs ?? []) {
    const version = ref.apiVersion.includes("/") ? ref.apiVersion.slice(ref.apiVersion.indexOf("/") + 1) : ref.apiVersion;
    if (version.length === 0) errs.push(field.invalid(`${path}.apiVersion`, ref.apiVersion, "version must not be empty"));
    if (ref.kind.length === 0) errs.push(field.invalid(`${path}.kind`, ref.kind, "must not be empty"));
    if (ref.name.length === 0) errs.push(field.invalid(`${path}.name`, ref.name, "must not be empty"));
    if (ref.uid.length === 0) errs.push(field.invalid(`${path}.uid`, ref.uid, "must not be empty"));
    if (ref.apiVersion === "v1" && ref.kind === "Event")
      errs.push(field.invalid(path, ref, "/v1, Kind=Event is disallowed from being an owner"));
    if (ref.controller === true) {
      const cur = `${ref.kind}/${ref.name}`;
      if (firstController !== "") {
        errs.push(
          field.invalid(
            path,
            refs,
            `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${cur}`,
          ),
        );
      } else firstController = cur;
    }
  }
  return errs;
}

function validateFinalizers(finalizers: readonly string[] | undefined, path: string): FieldErrorList {
  const errs: FieldErrorList = [];
  for (const f of finalizers ?? []) errs.push(...isQualifiedName(f).map((m) => field.invalid(path, f, m)));
  if (finalizers?.includes(finalizerOrphanDependents) && finalizers.includes(finalizerDeleteDependents)) {
    errs.push(
      field.invalid(path, finalizers, `finalizer ${finalizerOrphanDependents} and ${finalizerDeleteDependents} cannot be both set`),
    );
  }
  return errs;
}

function validateCommon(meta: ObjectMeta, namespaced: boolean, path: string): FieldErrorList {
  const errs: FieldErrorList = [];
  const ns = meta.namespace ?? "";
  if (namespaced) {
    if (ns.length === 0) errs.push(field.required(`${path}.namespace`));
    else errs.push(...nameIsDNSLabel(ns, false).map((m) => field.invalid(`${path}.namespace`, ns, m)));
  } else if (ns.length !== 0) {
    errs.push(field.forbidden(`${path}.namespace`, "not allowed on this type"));
  }
  if ((meta.generation ?? 0) < 0) errs.push(field.invalid(`${path}.generation`, meta.generation, isNegativeErrorMsg));
  errs.push(...validateLabels(meta.labels, `${path}.labels`));
  errs.push(...validateAnnotations(meta.annotations, `${path}.annotations`));
  errs.push(...validateOwnerReferences(meta.ownerReferences, `${path}.ownerReferences`));
  errs.push(...validateFinalizers(meta.finalizers, `${path}.finalizers`));
  return errs;
}

/**
 * `ValidateObjectMeta`: generateName and name by the kind's name rule, the
 * namespace rule, labels, annotations, owner references and finalizers.
 * Name generation is expected to have happened already.
 */
export function validateObjectMeta(meta: ObjectMeta, opts: ObjectMetaValidationOptions): FieldErrorList {
  const path = opts.path ?? "metadata";
  const nameFn = opts.nameValidator ?? nameIsDNSSubdomain;
  const errs: FieldErrorList = [];
  const gen = meta.generateName ?? "";
  if (gen.length !== 0) errs.push(...nameFn(gen, true).map((m) => field.invalid(`${path}.generateName`, gen, m)));
  const name = meta.name ?? "";
  if (name.length === 0) errs.push(field.required(`${path}.name`, "name or generateName is required"));
  else errs.push(...nameFn(name, false).map((m) => field.invalid(`${path}.name`, name, m)));
  return [...errs, ...validateCommon(meta, opts.namespaced, path)];
}

// These metadata fields are scalars or pointers in Go: absent equals "", but a
// pointer to 0 (deletionGracePeriodSeconds) differs from nil.
function immutable(newVal: unknown, oldVal: unknown, path: string): FieldErrorList {
  return validateImmutableField(newVal ?? "", oldVal ?? "", path);
}

/**
 * `ValidateObjectMetaUpdate`: resourceVersion required, generation never
 * decremented, name/namespace/uid/creationTimestamp/deletionTimestamp/
 * deletionGracePeriodSeconds immutable, no new finalizers while deleting.
 */
export function validateObjectMetaUpdate(newMeta: ObjectMeta, oldMeta: ObjectMeta, path = "metadata"): FieldErrorList {
  const errs: FieldErrorList = [];
  if (oldMeta.deletionTimestamp !== undefined) {
    const extra = [...new Set(newMeta.finalizers ?? [])].filter((f) => !(oldMeta.finalizers ?? []).includes(f)).sort();
    if (extra.length > 0) {
      const list = `[]string{${extra.map((f) => JSON.stringify(f)).join(", ")}}`;
      errs.push(
        field.forbidden(
          `${path}.finalizers`,
          `no new finalizers can be added if the object is being deleted, found new finalizers ${list}`,
        ),
      );
    }
  }
  if ((newMeta.resourceVersion ?? "") === "") errs.push(field.invalid(`${path}.resourceVersion`, "", "must be specified for an update"));
  if ((newMeta.generation ?? 0) < (oldMeta.generation ?? 0))
    errs.push(field.invalid(`${path}.generation`, newMeta.generation ?? 0, "must not be decremented"));
  errs.push(...immutable(newMeta.name, oldMeta.name, `${path}.name`));
  errs.push(...immutable(newMeta.namespace, oldMeta.namespace, `${path}.namespace`));
  errs.push(...immutable(newMeta.uid, oldMeta.uid, `${path}.uid`));
  errs.push(...immutable(newMeta.creationTimestamp, oldMeta.creationTimestamp, `${path}.creationTimestamp`));
  errs.push(...immutable(newMeta.deletionTimestamp, oldMeta.deletionTimestamp, `${path}.deletionTimestamp`));
  errs.push(...immutable(newMeta.deletionGracePeriodSeconds, oldMeta.deletionGracePeriodSeconds, `${path}.deletionGracePeriodSeconds`));
  errs.push(...validateLabels(newMeta.labels, `${path}.labels`));
  errs.push(...validateAnnotations(newMeta.annotations, `${path}.annotations`));
  errs.push(...validateOwnerReferences(newMeta.ownerReferences, `${path}.ownerReferences`));
  errs.push(...validateFinalizers(newMeta.finalizers, `${path}.finalizers`));
  return errs;
}
