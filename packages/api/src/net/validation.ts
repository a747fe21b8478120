/**
 * IP and CIDR field validation with the messages of
 * k8s.io/apimachinery/pkg/util/validation/ip.go (KEP-4858 era).
 *
 * Name mapping to upstream (our `isValidIP` keeps the legacy meaning most
 * callers such as Service `clusterIPs` need):
 * - `isValidIP`             = `IsValidIPForLegacyField(strict=false)` (pre-1.33 `IsValidIP`)
 * - `isValidIPForLegacyField(p, v, strict)` = upstream, same name
 * - `validateCanonicalIP`   = current upstream `IsValidIP` (strict + canonical; IPAddress names)
 * - `isValidCIDR`           = `IsValidCIDRForLegacyField(strict=false)`
 * - `isValidCIDRForLegacyField(p, v, strict)` = upstream, same name
 * - `validateCanonicalCIDR` = current upstream `IsValidCIDR` (ServiceCIDR spec.cidrs)
 */
import { field, type FieldErrorList } from "../errors/index.ts";
import { formatCIDR, parseCIDRSloppy, parsePrefix } from "./parse-cidr.ts";
import { formatIP } from "./format-ip.ts";
import { is4In6, parseAddr, parseIPSloppy } from "./parse-ip.ts";

export const invalidIPMessage = "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)";
export const invalidCIDRMessage = "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)";
export const invalidInterfaceAddressMessage = "must be a valid address in CIDR form, (e.g. 10.9.8.7/24 or 2001:db8::1/64)";

/** No error when `value` is written exactly as `canonical`; else upstream's "must be in canonical form". */
function requireCanonical(path: string, value: string, canonical: string): FieldErrorList {
  return value === canonical ? [] : [field.invalid(path, value, `must be in canonical form (${JSON.stringify(canonical)})`)];
}

/**
 * Legacy IP validation (`IsValidIPForLegacyField`): sloppy parse; with
 * `strictValidation` also rejects leading zeros and IPv4-mapped IPv6. Never
 * requires canonical form.
 */
export function isValidIPForLegacyField(path: string, value: string, strictValidation: boolean): FieldErrorList {
  if (parseIPSloppy(value) === null) return [field.invalid(path, value, invalidIPMessage)];
  if (!strictValidation) return [];
  const errs: FieldErrorList = [];
  const addr = parseAddr(value);
  if (addr === null || addr.zone !== "") errs.push(field.invalid(path, value, "must not have leading 0s"));
  if (addr !== null && is4In6(addr)) errs.push(field.invalid(path, value, "must not be an IPv4-mapped IPv6 address"));
  return errs;
}

/** Legacy IP validation with no strict checks: only "must be a valid IP address, ...". */
export function isValidIP(path: string, value: string): FieldErrorList {
  return isValidIPForLegacyField(path, value, false);
}

/** Current upstream `IsValidIP`: strict, then canonical form (used for IPAddress names). */
export function validateCanonicalIP(path: string, value: string): FieldErrorList {
  const errs = isValidIPForLegacyField(path, value, true);
  if (errs.length > 0) return errs;
  return requireCanonical(path, value, formatIP(parseIPSloppy(value)!));
}

/**
 * Legacy CIDR validation (`IsValidCIDRForLegacyField`): sloppy parse; with
 * `strictValidation` one error, checked in order, for leading zeros,
 * IPv4-mapped IPv6 or host bits set.
 */
export function isValidCIDRForLegacyField(path: string, value: string, strictValidation: boolean): FieldErrorList {
  if (parseCIDRSloppy(value) === null) return [field.invalid(path, value, invalidCIDRMessage)];
  if (!strictValidation) return [];
  const p = parsePrefix(value, true);
  if (p === null) return [field.invalid(path, value, "must not have leading 0s in IP or prefix length")];
  if (is4In6(p.addr)) return [field.invalid(path, value, "must not have an IPv4-mapped IPv6 address")];
  if (parseCIDRSloppy(value)!.hostBitsSet) return [field.invalid(path, value, "must not have bits set beyond the prefix length")];
  return [];
}

/** Legacy CIDR validation with no strict checks: only "must be a valid CIDR value, ...". */
export function isValidCIDR(path: string, value: string): FieldErrorList {
  return isValidCIDRForLegacyField(path, value, false);
}

/** Current upstream `IsValidCIDR`: strict, then canonical form (used for ServiceCIDR spec.cidrs). */
export function validateCanonicalCIDR(path: string, value: string): FieldErrorList {
  const errs = isValidCIDRForLegacyField(path, value, true);
  if (errs.length > 0) return errs;
  return requireCanonical(path, value, formatCIDR(parseCIDRSloppy(value)!));
}

/** Upstream `IsValidInterfaceAddress`: an "ifaddr" CIDR such as 192.168.1.5/24, in canonical form. */
export function isValidInterfaceAddress(path: string, value: string): FieldErrorList {
  const c = parseCIDRSloppy(value);
  const ip = c === null ? null : parseIPSloppy(value.slice(0, value.indexOf("/")));
  if (c === null || ip === null) return [field.invalid(path, value, invalidInterfaceAddressMessage)];
  return requireCanonical(path, value, `${formatIP(ip)}/${c.prefix}`);
}
