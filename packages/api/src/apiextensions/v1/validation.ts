/**
 * CustomResourceDefinition validation (apiextensions-apiserver pkg/apis/apiextensions/validation/
 * validation.go): ValidateCustomResourceDefinition, its update and status variants, with upstream's
 * messages and field paths. The version schemas' structural rules are in structural-schema.ts.
 */
import { field, GoValue, keyPath, path, type FieldErrorList } from "../../errors/field-error.ts";
import { isDNS1035Label, isDNS1123Subdomain, nameIsDNSSubdomain } from "../../meta/v1/validation/name.ts";
import { validateImmutableField } from "../../meta/v1/validation/immutable.ts";
import { validateObjectMeta, validateObjectMetaUpdate } from "../../meta/v1/validation/object-meta.ts";
import { validateStructuralSchema } from "./structural-schema.ts";
import { validateSchemaCEL } from "./cel-validation.ts";
import type { ValidationRuleCompiler } from "./validation-rules.ts";
import { promotedFields, type PromotedFields } from "./per-version.ts";
import {
  allowInvalidCABundle,
  hasValidConversionReviewVersionOrEmpty,
  validateCustomResourceConversion,
  type ConversionValidationOptions,
} from "./conversion-validation.ts";
import { getAPIApprovalState, isProtectedCommunityGroup, kubeAPIApprovedAnnotation } from "./api-approval.ts";
import {
  isCRDConditionTrue,
  type CustomResourceColumnDefinition,
  type CustomResourceDefinition,
  type CustomResourceDefinitionNames,
  type CustomResourceDefinitionSpec,
  type CustomResourceDefinitionVersion,
} from "./types.ts";

/** printerColumnDatatypes, sorted as sets.List prints them. */
const printerColumnDatatypes = ["boolean", "date", "integer", "number", "string"];
/** customResourceColumnDefinitionFormats, sorted. */
const columnFormats = ["byte", "date", "date-time", "double", "float", "int32", "int64", "password"];

/**
 * ValidateCustomResourceDefinition: metadata (named `<plural>.<group>`), spec, status and stored
 * versions; with `compile`, the schemas' x-kubernetes-validations rules are compiled and their
 * errors reported.
 */
export function validateCustomResourceDefinition(crd: CustomResourceDefinition, compile?: ValidationRuleCompiler): FieldErrorList {
  const required = `${crd.spec.names.plural}.${crd.spec.group}`;
  const errs = validateObjectMeta(crd.metadata, {
    namespaced: false,
    nameValidator: (name, prefix) => {
      const out = nameIsDNSSubdomain(name, prefix);
      if (name !== required) out.push('must be spec.names.plural+"."+spec.group');
      return out;
    },
  });
  return [
    ...errs,
    ...validateCustomResourceDefinitionSpec(crd.spec, "spec", compile, { requireRecognizedVersion: true, allowInvalidCABundle: false }),
    ...validateCustomResourceDefinitionStatus(crd),
    ...validateStoredVersions(crd.status?.storedVersions ?? [], crd.spec.versions, "status.storedVersions"),
    ...validateAPIApproval(crd, undefined),
  ];
}

/** ValidateCustomResourceDefinitionUpdate: the spec rules plus what may not change once established. */
export function validateCustomResourceDefinitionUpdate(
  crd: CustomResourceDefinition,
  old: CustomResourceDefinition,
  compile?: ValidationRuleCompiler,
): FieldErrorList {
  const errs = [
    ...validateObjectMetaUpdate(crd.metadata, old.metadata),
    ...validateCustomResourceDefinitionSpec(crd.spec, "spec", compile, {
      requireRecognizedVersion: hasValidConversionReviewVersionOrEmpty(old.spec.conversion?.webhook?.conversionReviewVersions ?? []),
      allowInvalidCABundle: allowInvalidCABundle(old),
    }),
  ];
  if (isCRDConditionTrue(old, "Established")) {
    // These affect the storage and cannot be changed once objects may exist.
    errs.push(...validateImmutableField(crd.spec.scope, old.spec.scope, "spec.scope"));
    errs.push(...validateImmutableField(crd.spec.names.kind, old.spec.names.kind, "spec.names.kind"));
  }
  // These make the resource's name, which is immutable.
  errs.push(...validateImmutableField(crd.spec.group, old.spec.group, "spec.group"));
  errs.push(...validateImmutableField(crd.spec.names.plural, old.spec.names.plural, "spec.names.plural"));
  errs.push(...validateCustomResourceDefinitionStatus(crd));
  errs.push(...validateStoredVersions(crd.status?.storedVersions ?? [], crd.spec.versions, "status.storedVersions"));
  errs.push(...validateAPIApproval(crd, old));
  return errs;
}

/**
 * validateAPIApproval: a CRD of a protected community group needs a valid `api-approved.kubernetes.io`
 * annotation; an update that leaves the approval state as it was is never refused, so a controller
 * writing the spec of an older CRD is not locked out.
 */
function validateAPIApproval(crd: CustomResourceDefinition, old: CustomResourceDefinition | undefined): FieldErrorList {
  if (!isProtectedCommunityGroup(crd.spec.group)) return [];
  const { state, reason } = getAPIApprovalState(crd.metadata.annotations);
  if (old !== undefined && getAPIApprovalState(old.metadata.annotations).state === state) return [];
  const at = keyPath("metadata.annotations", kubeAPIApprovedAnnotation);
  if (state === "Missing") return [field.required(at, reason)];
  if (state === "Invalid") return [field.invalid(at, crd.metadata.annotations?.[kubeAPIApprovedAnnotation] ?? "", reason)];
  return [];
}

/** ValidateUpdateCustomResourceDefinitionStatus. */
export function validateCustomResourceDefinitionStatusUpdate(crd: CustomResourceDefinition, old: CustomResourceDefinition): FieldErrorList {
  return [
    ...validateObjectMetaUpdate(crd.metadata, old.metadata),
    ...validateCustomResourceDefinitionStatus(crd),
    ...validateStoredVersions(crd.status?.storedVersions ?? [], crd.spec.versions, "status.storedVersions"),
  ];
}

function validateCustomResourceDefinitionStatus(crd: CustomResourceDefinition): FieldErrorList {
  return validateNames(crd.status?.acceptedNames ?? { plural: "", kind: "" }, "status.acceptedNames");
}

/** ValidateCustomResourceDefinitionStoredVersions. */
export function validateStoredVersions(
  stored: readonly string[],
  versions: readonly CustomResourceDefinitionVersion[],
  at: string,
): FieldErrorList {
  if (stored.length === 0) return [field.invalid(at, [], "must have at least one stored version")];
  const errs: FieldErrorList = [];
  const left = new Map(stored.map((v, i) => [v, i]));
  const promoted = promotedFields(versions);
  for (const v of versions) {
    const has = left.has(v.name);
    if (v.storage && !has) errs.push(field.invalid(at, new GoValue(versionValue(v, promoted)), `must have the storage version ${v.name}`));
    left.delete(v.name);
  }
  for (const [v, i] of left) errs.push(field.invalid(path(at, i), v, "must appear in spec.versions"));
  return errs;
}

/** ValidateCustomResourceDefinitionSpec. */
export function validateCustomResourceDefinitionSpec(
  spec: CustomResourceDefinitionSpec,
  at: string,
  compile?: ValidationRuleCompiler,
  conversion: ConversionValidationOptions = { requireRecognizedVersion: true, allowInvalidCABundle: false },
): FieldErrorList {
  const errs: FieldErrorList = [];
  if (spec.group === "") errs.push(field.required(`${at}.group`));
  else {
    const bad = isDNS1123Subdomain(spec.group);
    if (bad.length > 0) errs.push(field.invalid(`${at}.group`, spec.group, bad.join(",")));
    else if (spec.group.split(".").length < 2)
      errs.push(field.invalid(`${at}.group`, spec.group, "should be a domain with at least one dot"));
  }
  if (spec.scope === "") errs.push(field.required(`${at}.scope`));
  else if (spec.scope !== "Cluster" && spec.scope !== "Namespaced")
    errs.push(field.notSupported(`${at}.scope`, spec.scope, ["Cluster", "Namespaced"]));

  const promoted = promotedFields(spec.versions);
  const seen = new Set<string>();
  let unique = true;
  let storage = 0;
  spec.versions.forEach((v, i) => {
    if (v.storage) storage++;
    if (seen.has(v.name)) unique = false;
    seen.add(v.name);
    const bad = isDNS1035Label(v.name);
    if (bad.length > 0) errs.push(field.invalid(path(at, "versions", i, "name"), v.name, bad.join(",")));
    errs.push(...validateVersion(v, path(at, "versions", i), compile, promoted));
  });
  if (!unique) errs.push(field.invalid(`${at}.versions`, versionsValue(spec.versions), "must contain unique version names"));
  if (storage !== 1)
    errs.push(field.invalid(`${at}.versions`, versionsValue(spec.versions), "must have exactly one version marked as storage version"));

  const names = spec.names;
  if (names.plural === "") errs.push(field.required(`${at}.names.plural`));
  if ((names.singular ?? "") === "") errs.push(field.required(`${at}.names.singular`));
  if (names.kind === "") errs.push(field.required(`${at}.names.kind`));
  if ((names.listKind ?? "") === "") errs.push(field.required(`${at}.names.listKind`));
  errs.push(...validateNames(names, `${at}.names`));
  errs.push(...validatePromoted(spec.versions[0], at, compile, promoted));

  errs.push(...validateCustomResourceConversion(spec.conversion, `${at}.conversion`, conversion));
  if (spec.preserveUnknownFields === true)
    errs.push(
      field.invalid(
        `${at}.preserveUnknownFields`,
        true,
        "cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead",
      ),
    );
  return errs;
}

function validateVersion(
  v: CustomResourceDefinitionVersion,
  at: string,
  compile: ValidationRuleCompiler | undefined,
  promoted: PromotedFields,
): FieldErrorList {
  const errs: FieldErrorList = [];
  if (v.schema?.openAPIV3Schema === undefined) errs.push(field.required(`${at}.schema.openAPIV3Schema`, "schemas are required"));
  else if (!promoted.schema) errs.push(...validateSchema(v, `${at}.schema.openAPIV3Schema`, compile));
  if (!promoted.additionalPrinterColumns) errs.push(...validateColumns(v, `${at}.additionalPrinterColumns`));
  if (!promoted.subresources) errs.push(...validateScale(v, `${at}.subresources.scale`));
  if (v.deprecationWarning !== undefined && v.deprecated !== true)
    errs.push(field.invalid(`${at}.deprecationWarning`, v.deprecationWarning, "can only be set for deprecated versions"));
  return errs;
}

/** The fields every version shares, validated once at `spec.validation`, `spec.subresources` and `spec.additionalPrinterColumns`. */
function validatePromoted(
  v: CustomResourceDefinitionVersion | undefined,
  at: string,
  compile: ValidationRuleCompiler | undefined,
  promoted: PromotedFields,
): FieldErrorList {
  if (v === undefined) return [];
  return [
    ...(promoted.schema && v.schema?.openAPIV3Schema !== undefined ? validateSchema(v, `${at}.validation.openAPIV3Schema`, compile) : []),
    ...(promoted.subresources ? validateScale(v, `${at}.subresources.scale`) : []),
    ...(promoted.additionalPrinterColumns ? validateColumns(v, `${at}.additionalPrinterColumns`) : []),
  ];
}

/** A version's schema at `at`: structural rules, then (on a valid schema) its CEL rules. */
function validateSchema(v: CustomResourceDefinitionVersion, at: string, compile: ValidationRuleCompiler | undefined): FieldErrorList {
  const schema = v.schema!.openAPIV3Schema!;
  const schemaErrs = validateStructuralSchema(schema, at, v.subresources?.status !== undefined);
  // Rules are compiled only against a valid schema: an invalid one has no CEL types to declare.
  if (schemaErrs.length > 0 || compile === undefined) return schemaErrs;
  return validateSchemaCEL(schema, at, compile);
}

function validateColumns(v: CustomResourceDefinitionVersion, at: string): FieldErrorList {
  return (v.additionalPrinterColumns ?? []).flatMap((c, i) => validateColumn(c, path(at, i)));
}

/**
 * ValidateCustomResourceDefinitionSubresources' scale paths: simple paths (dot-separated field
 * names, brackets included: `.spec.replicas[0]` names a field `replicas[0]`) under the right root.
 */
function validateScale(v: CustomResourceDefinitionVersion, at: string): FieldErrorList {
  const scale = v.subresources?.scale;
  if (!scale) return [];
  const errs: FieldErrorList = [
    ...scalePath(scale.specReplicasPath, `${at}.specReplicasPath`, [".spec."], "should be a json path under .spec"),
    ...scalePath(scale.statusReplicasPath, `${at}.statusReplicasPath`, [".status."], "should be a json path under .status"),
  ];
  // labelSelectorPath is optional.
  const sel = scale.labelSelectorPath;
  if (sel !== undefined && sel !== "")
    errs.push(...scalePath(sel, `${at}.labelSelectorPath`, [".spec.", ".status."], "should be a json path under either .spec or .status"));
  return errs;
}

function scalePath(p: string, at: string, prefixes: readonly string[], under: string): FieldErrorList {
  if (p === "") return [field.required(at, "")];
  const simple = validateSimpleJSONPath(p, at);
  if (simple.length > 0) return simple;
  return prefixes.some((x) => p.startsWith(x)) ? [] : [field.invalid(at, p, under)];
}

/** validateSimpleJSONPath for a non-empty path: it starts with a dot. */
function validateSimpleJSONPath(p: string, at: string): FieldErrorList {
  return p.startsWith(".") ? [] : [field.invalid(at, p, "must be a simple json path starting with .")];
}

/** ValidateCustomResourceColumnDefinition. */
function validateColumn(c: CustomResourceColumnDefinition, at: string): FieldErrorList {
  const errs: FieldErrorList = [];
  if (c.name === "") errs.push(field.required(`${at}.name`));
  const types = `must be one of ${printerColumnDatatypes.join(",")}`;
  if (c.type === "") errs.push(field.required(`${at}.type`, types));
  else if (!printerColumnDatatypes.includes(c.type)) errs.push(field.invalid(`${at}.type`, c.type, types));
  if ((c.format ?? "") !== "" && !columnFormats.includes(c.format!))
    errs.push(field.invalid(`${at}.format`, c.format, `must be one of ${columnFormats.join(",")}`));
  if (c.jsonPath === "") errs.push(field.required(`${at}.jsonPath`));
  else if (!c.jsonPath.startsWith("."))
    errs.push(field.invalid(`${at}.jsonPath`, c.jsonPath, "must be a simple json path starting with ."));
  return errs;
}

/** ValidateCustomResourceDefinitionNames. */
function validateNames(names: CustomResourceDefinitionNames, at: string): FieldErrorList {
  const errs: FieldErrorList = [];
  const label = (value: string, p: string, mixed = false): void => {
    const bad = isDNS1035Label(mixed ? value.toLowerCase() : value);
    if (value.length > 0 && bad.length > 0)
      errs.push(field.invalid(p, value, (mixed ? "may have mixed case, but should otherwise match: " : "") + bad.join(",")));
  };
  label(names.plural, `${at}.plural`);
  label(names.singular ?? "", `${at}.singular`);
  label(names.kind, `${at}.kind`, true);
  label(names.listKind ?? "", `${at}.listKind`, true);
  (names.shortNames ?? []).forEach((s, i) => {
    const bad = isDNS1035Label(s);
    if (bad.length > 0) errs.push(field.invalid(path(at, "shortNames", i), s, bad.join(",")));
  });
  if (names.kind.length > 0 && names.kind === names.listKind)
    errs.push(field.invalid(`${at}.listKind`, names.listKind, "kind and listKind may not be the same"));
  (names.categories ?? []).forEach((c, i) => {
    const bad = isDNS1035Label(c);
    if (bad.length > 0) errs.push(field.invalid(path(at, "categories", i), c, bad.join(",")));
  });
  return errs;
}

/**
 * Go's `%#v` of the internal version structs, as the versions' bad value prints (pointers shown nil
 * or set; what the conversion moved to the top level is nil).
 */
function versionValue(v: CustomResourceDefinitionVersion, promoted: PromotedFields): string {
  const ptr = (t: string, set: boolean): string => `(*${t})(${set ? "0xc000000000" : "nil"})`;
  const slice = (t: string, n: number | undefined): string => (n === undefined ? `[]${t}(nil)` : `[]${t}{...}`);
  return (
    `apiextensions.CustomResourceDefinitionVersion{Name:${JSON.stringify(v.name)}, Served:${v.served}, Storage:${v.storage}, ` +
    `Deprecated:${v.deprecated ?? false}, DeprecationWarning:${ptr("string", v.deprecationWarning !== undefined)}, ` +
    `Schema:${ptr("apiextensions.CustomResourceValidation", !promoted.schema && v.schema !== undefined)}, ` +
    `Subresources:${ptr("apiextensions.CustomResourceSubresources", !promoted.subresources && v.subresources !== undefined)}, ` +
    `AdditionalPrinterColumns:${slice("apiextensions.CustomResourceColumnDefinition", promoted.additionalPrinterColumns ? undefined : v.additionalPrinterColumns?.length)}, ` +
    `SelectableFields:${slice("apiextensions.SelectableField", promoted.selectableFields ? undefined : v.selectableFields?.length)}}`
  );
}

function versionsValue(vs: readonly CustomResourceDefinitionVersion[]): GoValue {
  if (vs.length === 0) return new GoValue("[]apiextensions.CustomResourceDefinitionVersion(nil)");
  const promoted = promotedFields(vs);
  return new GoValue(`[]apiextensions.CustomResourceDefinitionVersion{${vs.map((v) => versionValue(v, promoted)).join(", ")}}`);
}
