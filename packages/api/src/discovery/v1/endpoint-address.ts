/**
 * Address checks EndpointSlice validation uses besides core's `ValidateEndpointIP`
 * (core/v1/validation/special-ip.ts): `IsValidIPv4Address`, `IsValidIPv6Address`
 * and `IsFullyQualifiedDomainName`.
 */
import { field, type FieldErrorList } from "../../errors/index.ts";
import { isDNS1123Label, isDNS1123Subdomain } from "../../meta/v1/index.ts";
import { isIPv4String, isIPv6String } from "../../net/index.ts";

/** `validation.IsValidIPv4Address`: sloppy parse, family IPv4 (::ffff:a.b.c.d counts). */
export function isValidIPv4Address(path: string, value: string): FieldErrorList {
  return isIPv4String(value) ? [] : [field.invalid(path, value, "must be a valid IPv4 address")];
}

/** `validation.IsValidIPv6Address`. */
export function isValidIPv6Address(path: string, value: string): FieldErrorList {
  return isIPv6String(value) ? [] : [field.invalid(path, value, "must be a valid IPv6 address")];
}

/** `validation.IsFullyQualifiedDomainName`: a trailing dot is allowed; at least two labels. */
export function isFullyQualifiedDomainName(path: string, value: string): FieldErrorList {
  if (value.length === 0) return [field.required(path)];
  const name = value.endsWith(".") ? value.slice(0, -1) : value;
  const sub = isDNS1123Subdomain(name);
  if (sub.length > 0) return [field.invalid(path, name, sub.join(","))];
  const labels = name.split(".");
  if (labels.length < 2) return [field.invalid(path, name, "should be a domain with at least two segments separated by dots")];
  for (const label of labels) {
    const errs = isDNS1123Label(label);
    if (errs.length > 0) return [field.invalid(path, label, errs.join(","))];
  }
  return [];
}
