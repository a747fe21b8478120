/**
 * Name validators with the messages of k8s.io/apimachinery/pkg/util/validation
 * (the long-stable `validation.go` wording: "must be no more than 63 characters").
 * Each returns a list of messages, empty when the value is valid.
 */
import { field, type FieldErrorList } from "../../../errors/index.ts";

const dns1123LabelFmt = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const dns1123LabelErrMsg =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const dns1123SubdomainFmt = `${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`;
const dns1123SubdomainErrMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const dns1035LabelFmt = "[a-z]([-a-z0-9]*[a-z0-9])?";
const dns1035LabelErrMsg =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";

const dns1123LabelRe = new RegExp(`^${dns1123LabelFmt}$`);
const dns1123SubdomainRe = new RegExp(`^${dns1123SubdomainFmt}$`);
const dns1035LabelRe = new RegExp(`^${dns1035LabelFmt}$`);

export const dns1123LabelMaxLength = 63;
export const dns1123SubdomainMaxLength = 253;
export const dns1035LabelMaxLength = 63;

/** "must be no more than N characters" (upstream `MaxLenError`). */
export function maxLenError(length: number): string {
  return `must be no more than ${length} characters`;
}

/** Upstream `RegexError`: the message, examples and the regex used. */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(" or ")}regex used for validation is '${fmt}')`;
}

/** "must be non-empty" (upstream `EmptyError`). */
export const emptyError = "must be non-empty";

/** "must be between lo and hi, inclusive" (upstream `InclusiveRangeError`). */
export function inclusiveRangeError(lo: number, hi: number): string {
  return `must be between ${lo} and ${hi}, inclusive`;
}

/** RFC 1123 label: what Namespace names and Service port names must be. */
export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > dns1123LabelMaxLength) errs.push(maxLenError(dns1123LabelMaxLength));
  if (!dns1123LabelRe.test(value)) {
    // A valid subdomain that is not a label can only be wrong because of its dots.
    if (dns1123SubdomainRe.test(value)) errs.push("must not contain dots");
    else errs.push(regexError(dns1123LabelErrMsg, dns1123LabelFmt, "my-name", "123-abc"));
  }
  return errs;
}

/** RFC 1123 subdomain: most object names, and ExternalName values. */
export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (value.length > dns1123SubdomainMaxLength) errs.push(maxLenError(dns1123SubdomainMaxLength));
  if (!dns1123SubdomainRe.test(value)) errs.push(regexError(dns1123SubdomainErrMsg, dns1123SubdomainFmt, "example.com"));
  return errs;
}

/** RFC 1035 label: Service names (they become DNS labels and env var prefixes). */
export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > dns1035LabelMaxLength) errs.push(maxLenError(dns1035LabelMaxLength));
  if (!dns1035LabelRe.test(value)) errs.push(regexError(dns1035LabelErrMsg, dns1035LabelFmt, "my-name", "abc-123"));
  return errs;
}

/** Validates a name; `prefix` means it is a generateName, so a trailing dash is allowed. */
export type NameValidator = (name: string, prefix: boolean) => string[];

/** Replaces a trailing dash so that generateName prefixes validate (upstream `maskTrailingDash`). */
export function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith("-") ? `${name.slice(0, -2)}a` : name;
}

/** `NameIsDNSSubdomain`: the default name rule (Pods, Endpoints, Events, Nodes...). */
export const nameIsDNSSubdomain: NameValidator = (name, prefix) => isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name);
/** `NameIsDNSLabel`: Namespace names. */
export const nameIsDNSLabel: NameValidator = (name, prefix) => isDNS1123Label(prefix ? maskTrailingDash(name) : name);
/** `NameIsDNS1035Label`: Service names. */
export const nameIsDNS1035Label: NameValidator = (name, prefix) => isDNS1035Label(prefix ? maskTrailingDash(name) : name);

/**
 * `path.IsValidPathSegmentName`: what may appear as one segment of a REST path
 * (IPAddress parentRef resource/name/namespace): not "." or "..", no "/" or "%".
 */
export function isValidPathSegmentName(name: string): string[] {
  if (name === "." || name === "..") return [`may not be '${name}'`];
  return ["/", "%"].filter((c) => name.includes(c)).map((c) => `may not contain '${c}'`);
}

/** `IsValidPortNum`: 1..65535. */
export function isValidPortNum(port: number): string[] {
  return port >= 1 && port <= 65535 ? [] : [inclusiveRangeError(1, 65535)];
}

/** `IsInRange`. */
export function isInRange(value: number, min: number, max: number): string[] {
  return value >= min && value <= max ? [] : [inclusiveRangeError(min, max)];
}

/** `IsValidPortName` (IANA_SVC_NAME): at most 15 chars, [-a-z0-9], one letter, no `--`, no edge dash. */
export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (port.length > 15) errs.push(maxLenError(15));
  if (!/^[-a-z0-9]+$/.test(port)) errs.push("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
  if (!/[a-z]/.test(port)) errs.push("must contain at least one letter (a-z)");
  if (port.includes("--")) errs.push("must not contain consecutive hyphens");
  if (port.length > 0 && (port.startsWith("-") || port.endsWith("-"))) errs.push("must not begin or end with a hyphen");
  return errs;
}

const configMapKeyFmt = "[-._a-zA-Z0-9]+";
const configMapKeyErrMsg = "a valid config key must consist of alphanumeric characters, '-', '_' or '.'";
const configMapKeyRe = new RegExp(`^${configMapKeyFmt}$`);

/** upstream `hasChDirPrefix`: keys become file names in volumes, so '.', '..' and '..x' are refused. */
function hasChDirPrefix(value: string): string[] {
  if (value === ".") return ["must not be '.'"];
  if (value === "..") return ["must not be '..'"];
  if (value.startsWith("..")) return ["must not start with '..'"];
  return [];
}

/** upstream `IsConfigMapKey`: a valid key of a ConfigMap's or Secret's data. */
export function isConfigMapKey(value: string): string[] {
  const errs: string[] = [];
  // Go's len counts bytes; a non-ASCII key fails the regex anyway, but its length is reported as Go would.
  if (new TextEncoder().encode(value).length > dns1123SubdomainMaxLength) errs.push(maxLenError(dns1123SubdomainMaxLength));
  if (!configMapKeyRe.test(value)) errs.push(regexError(configMapKeyErrMsg, configMapKeyFmt, "key.name", "KEY_NAME", "key-name"));
  errs.push(...hasChDirPrefix(value));
  return errs;
}

const wildcardDNS1123SubdomainFmt = `\\*\\.${dns1123SubdomainFmt}`;
const wildcardDNS1123SubdomainErrMsg =
  "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character";
const wildcardDNS1123SubdomainRe = new RegExp(`^${wildcardDNS1123SubdomainFmt}$`);

/** `IsWildcardDNS1123Subdomain`: `*.` then a DNS-1123 subdomain (Ingress hosts). */
export function isWildcardDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (value.length > dns1123SubdomainMaxLength) errs.push(maxLenError(dns1123SubdomainMaxLength));
  if (!wildcardDNS1123SubdomainRe.test(value)) {
    errs.push(regexError(wildcardDNS1123SubdomainErrMsg, wildcardDNS1123SubdomainFmt, "*.example.com"));
  }
  return errs;
}

/** Allowed characters of an HTTP path, as RFC 3986 (upstream `httpPathFmt`). */
const httpPathFmt = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
const httpPathRe = new RegExp(`^${httpPathFmt}$`);

/**
 * `IsDomainPrefixedPath` (apimachinery util/validation): a DNS-1123 subdomain, "/", then HTTP path
 * characters, such as "acme.io/foo" (an IngressClass controller).
 */
export function isDomainPrefixedPath(fldPath: string, dpPath: string): FieldErrorList {
  if (dpPath.length === 0) return [field.required(fldPath)];
  const slash = dpPath.indexOf("/");
  const host = slash < 0 ? "" : dpPath.slice(0, slash);
  const rest = slash < 0 ? "" : dpPath.slice(slash + 1);
  if (host.length === 0 || rest.length === 0) {
    return [field.invalid(fldPath, dpPath, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  }
  const errs = isDNS1123Subdomain(host).map((m) => field.invalid(fldPath, host, m));
  if (!httpPathRe.test(rest)) errs.push(field.invalid(fldPath, rest, regexError("Invalid path", httpPathFmt)));
  return errs;
}
