/**
 * Label, annotation and qualified-name validation (apimachinery
 * `IsQualifiedName`, `IsValidLabelValue`, meta/v1 `ValidateLabels`,
 * api/validation `ValidateAnnotations`), with upstream messages.
 */
import { field, keyPath, type FieldErrorList } from "../../../errors/index.ts";
import { emptyError, isDNS1123Label, isDNS1123Subdomain, maxLenError, regexError } from "./name.ts";

const qualifiedNameCharFmt = "[A-Za-z0-9]";
const qualifiedNameExtCharFmt = "[-A-Za-z0-9_.]";
const qualifiedNameFmt = `(${qualifiedNameCharFmt}${qualifiedNameExtCharFmt}*)?${qualifiedNameCharFmt}`;
const qualifiedNameErrMsg =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const qualifiedNameMaxLength = 63;
const qualifiedNameRe = new RegExp(`^${qualifiedNameFmt}$`);

const labelValueFmt = `(${qualifiedNameFmt})?`;
const labelValueErrMsg =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const labelValueRe = new RegExp(`^${labelValueFmt}$`);
export const labelValueMaxLength = 63;

/** Total size limit of all annotations of one object (256 KiB). */
export const totalAnnotationSizeLimitB = 256 * (1 << 10);

/** `IsQualifiedName`: an optional DNS-subdomain prefix and `/`, then a name of at most 63 characters. */
export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split("/");
  let name: string;
  if (parts.length === 1) {
    name = parts[0]!;
  } else if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix.length === 0) errs.push(`prefix part ${emptyError}`);
    else errs.push(...isDNS1123Subdomain(prefix).map((m) => `prefix part ${m}`));
  } else {
    return [
      `a qualified name ${regexError(qualifiedNameErrMsg, qualifiedNameFmt, "MyName", "my.name", "123-abc")} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name.length === 0) errs.push(`name part ${emptyError}`);
  else if (name.length > qualifiedNameMaxLength) errs.push(`name part ${maxLenError(qualifiedNameMaxLength)}`);
  if (!qualifiedNameRe.test(name))
    errs.push(`name part ${regexError(qualifiedNameErrMsg, qualifiedNameFmt, "MyName", "my.name", "123-abc")}`);
  return errs;
}

/** `IsValidLabelValue`: empty, or a qualified-name-like string of at most 63 characters. */
export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (value.length > labelValueMaxLength) errs.push(maxLenError(labelValueMaxLength));
  if (!labelValueRe.test(value)) errs.push(regexError(labelValueErrMsg, labelValueFmt, "MyValue", "my_value", "12345"));
  return errs;
}

/** `ValidateQualifiedName`: one Invalid error per message. */
export function validateQualifiedName(value: string, path: string): FieldErrorList {
  return isQualifiedName(value).map((m) => field.invalid(path, value, m));
}

/** `ValidateLabelName`. */
export function validateLabelName(name: string, path: string): FieldErrorList {
  return validateQualifiedName(name, path);
}

/** `ValidateLabels`: keys are qualified names, values label values; all errors at `path`. */
export function validateLabels(labels: Readonly<Record<string, string>> | undefined, path: string): FieldErrorList {
  const errs: FieldErrorList = [];
  for (const [k, v] of Object.entries(labels ?? {})) {
    errs.push(...validateLabelName(k, path));
    errs.push(...isValidLabelValue(v).map((m) => field.invalid(path, v, m)));
  }
  return errs;
}

/** `ValidateAnnotations`: keys are qualified names (case-insensitive); total size at most 256 KiB. */
export function validateAnnotations(annotations: Readonly<Record<string, string>> | undefined, path: string): FieldErrorList {
  const errs: FieldErrorList = [];
  let total = 0;
  for (const [k, v] of Object.entries(annotations ?? {})) {
    errs.push(...isQualifiedName(k.toLowerCase()).map((m) => field.invalid(path, k, m)));
    total += Buffer.byteLength(k) + Buffer.byteLength(v);
  }
  if (total > totalAnnotationSizeLimitB) errs.push(field.tooLong(path, "", totalAnnotationSizeLimitB));
  return errs;
}

/** `ValidateDNS1123Label` as field errors. */
export function validateDNS1123Label(value: string, path: string): FieldErrorList {
  return isDNS1123Label(value).map((m) => field.invalid(path, value, m));
}

/** `ValidateDNS1123Subdomain` as field errors. */
export function validateDNS1123Subdomain(value: string, path: string): FieldErrorList {
  return isDNS1123Subdomain(value).map((m) => field.invalid(path, value, m));
}

/** A selector-style map key path, `spec.selector[app]`. */
export function labelKeyPath(base: string, key: string): string {
  return keyPath(base, key);
}
