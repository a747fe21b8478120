/**
 * Name and ObjectMeta validation (k8s.io/apimachinery/pkg/util/validation and
 * pkg/api/validation/objectmeta.go), written locally because src/meta/v1 had no
 * validators yet. Covers name, generateName, namespace, generation, labels,
 * finalizers and the update rules; annotations, ownerReferences and
 * managedFields are left to meta/v1. Not exported from the package entry.
 */
import { field, type FieldErrorList } from "../../errors/index.ts";
import type { LocalObjectMeta } from "./meta-local.ts";

const dns1123LabelFmt = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const dns1123SubdomainFmt = `${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`;
const qualifiedNameFmt = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const labelValueFmt = `(${qualifiedNameFmt})?`;
const anchored = (fmt: string): RegExp => new RegExp(`^${fmt}$`);

/** Upstream `RegexError`. */
function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join("or ")}regex used for validation is '${fmt}')`;
}
const maxLenError = (n: number): string => `must be no more than ${n} characters`;

/** `validation.IsDNS1123Label`. */
export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push(maxLenError(63));
  if (!anchored(dns1123LabelFmt).test(value)) {
    errs.push(regexError("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character", dns1123LabelFmt, "my-name", "123-abc"));
  }
  return errs;
}

/** `validation.IsDNS1123Subdomain`. */
export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 253) errs.push(maxLenError(253));
  if (!anchored(dns1123SubdomainFmt).test(value)) {
    errs.push(regexError("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character", dns1123SubdomainFmt, "example.com"));
  }
  return errs;
}

/** A name validator as upstream's `ValidateNameFunc(name, prefix)`. */
export type NameValidator = (name: string, prefix: boolean) => string[];

// A generateName prefix may end in "-"; upstream masks it before checking.
const maskTrailingDash = (name: string): string => (name.length > 1 && name.endsWith("-") ? `${name.slice(0, -1)}a` : name);

/** `NameIsDNSSubdomain`. */
export const nameIsDNSSubdomain: NameValidator = (name, prefix) => isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name);
/** `NameIsDNSLabel` (namespace names). */
export const nameIsDNSLabel: NameValidator = (name, prefix) => isDNS1123Label(prefix ? maskTrailingDash(name) : name);

/** `path.IsValidPathSegmentName`. */
export function isValidPathSegmentName(name: string): string[] {
  if (name === "." || name === "..") return [`may not be '${name}'`];
  return ["/", "%"].filter((c) => name.includes(c)).map((c) => `may not contain '${c}'`);
}

const qualifiedNameMsg = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

/** `validation.IsQualifiedName` (label keys, finalizers). */
export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split("/");
  if (parts.length > 2) {
    return [`a qualified name ${regexError(qualifiedNameMsg, qualifiedNameFmt, "MyName", "my.name", "123-abc")} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`];
  }
  const name = parts[parts.length - 1]!;
  if (parts.length === 2) {
    const prefix = parts[0]!;
    if (prefix.length === 0) errs.push("prefix part must be non-empty");
    else errs.push(...isDNS1123Subdomain(prefix).map((m) => `prefix part ${m}`));
  }
  if (name.length === 0) errs.push("name part must be non-empty");
  else if (name.length > 63) errs.push(`name part ${maxLenError(63)}`);
  if (!anchored(qualifiedNameFmt).test(name)) errs.push(`name part ${regexError(qualifiedNameMsg, qualifiedNameFmt, "MyName", "my.name", "123-abc")}`);
  return errs;
}

/** `validation.IsValidLabelValue`. */
export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push(maxLenError(63));
  if (!anchored(labelValueFmt).test(value)) {
    errs.push(regexError("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character", labelValueFmt, "MyValue", "my_value", "12345"));
  }
  return errs;
}

/** `ValidateLabels`. */
export function validateLabels(labels: Record<string, string> | undefined, path: string): FieldErrorList {
  const errs: FieldErrorList = [];
  for (const [k, v] of Object.entries(labels ?? {})) {
    for (const m of isQualifiedName(k)) errs.push(field.invalid(path, k, m));
    for (const m of isValidLabelValue(v)) errs.push(field.invalid(path, v, m));
  }
  return errs;
}

/** `ValidateFinalizers` (name rules only; the duplicate and standard-finalizer checks live in meta/v1). */
function validateFinalizers(finalizers: readonly string[] | undefined, path: string): FieldErrorList {
  return (finalizers ?? []).flatMap((f) => isQualifiedName(f).map((m) => field.invalid(path, f, m)));
}

/** `ValidateObjectMeta(meta, requiresNamespace, nameFn, "metadata")`. */
export function validateObjectMetaLocal(meta: LocalObjectMeta, requiresNamespace: boolean, nameFn: NameValidator): FieldErrorList {
  const errs: FieldErrorList = [];
  if (meta.generateName) {
    for (const m of nameFn(meta.generateName, true)) errs.push(field.invalid("metadata.generateName", meta.generateName, m));
  }
  if (!meta.name) errs.push(field.required("metadata.name", "name or generateName is required"));
  else for (const m of nameFn(meta.name, false)) errs.push(field.invalid("metadata.name", meta.name, m));
  if (requiresNamespace) {
    if (!meta.namespace) errs.push(field.required("metadata.namespace"));
    else for (const m of nameIsDNSLabel(meta.namespace, false)) errs.push(field.invalid("metadata.namespace", meta.namespace, m));
  } else if (meta.namespace) {
    errs.push(field.forbidden("metadata.namespace", "not allowed on this type"));
  }
  if ((meta.generation ?? 0) < 0) errs.push(field.invalid("metadata.generation", meta.generation, "must be greater than or equal to 0"));
  errs.push(...validateLabels(meta.labels, "metadata.labels"));
  errs.push(...validateFinalizers(meta.finalizers, "metadata.finalizers"));
  return errs;
}
