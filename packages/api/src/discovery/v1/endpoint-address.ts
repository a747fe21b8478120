/**
 * Address checks EndpointSlice validation uses: `IsValidIPv4Address`,
 * `IsValidIPv6Address`, core's `ValidateEndpointIP` and `IsFullyQualifiedDomainName`.
 */
import { field, type FieldErrorList } from "../../errors/index.ts";
import { parseIPSloppy, type IP } from "../../net/index.ts";
import { isDNS1123Label, isDNS1123Subdomain } from "../../networking/v1/name.ts";

/** `validation.IsValidIPv4Address`: sloppy parse, family IPv4 (::ffff:a.b.c.d counts). */
export function isValidIPv4Address(path: string, value: string): FieldErrorList {
  return parseIPSloppy(value)?.family === "IPv4" ? [] : [field.invalid(path, value, "must be a valid IPv4 address")];
}

/** `validation.IsValidIPv6Address`. */
export function isValidIPv6Address(path: string, value: string): FieldErrorList {
  return parseIPSloppy(value)?.family === "IPv6" ? [] : [field.invalid(path, value, "must be a valid IPv6 address")];
}

// Go's net.IP predicates, on our family-separated addresses.
const isUnspecified = (ip: IP): boolean => ip.value === 0n;
const isLoopback = (ip: IP): boolean => (ip.family === "IPv4" ? ip.value >> 24n === 127n : ip.value === 1n);
const isLinkLocalUnicast = (ip: IP): boolean =>
  ip.family === "IPv4" ? ip.value >> 16n === 0xa9fen : ip.value >> 118n === 0x3fan; // 169.254/16, fe80::/10
const isLinkLocalMulticast = (ip: IP): boolean =>
  ip.family === "IPv4" ? ip.value >> 8n === 0xe00000n : ip.value >> 120n === 0xffn && ((ip.value >> 112n) & 0x0fn) === 2n; // 224.0.0/24, ff02::/16 any flags

/** Core `ValidateEndpointIP`: no unspecified, loopback or link-local (unicast or multicast) endpoints. */
export function validateEndpointIP(path: string, value: string): FieldErrorList {
  const ip = parseIPSloppy(value);
  if (ip === null) return [field.invalid(path, value, "must be a valid IP address")];
  const errs: FieldErrorList = [];
  if (isUnspecified(ip)) errs.push(field.invalid(path, value, `may not be unspecified (${value})`));
  if (isLoopback(ip)) errs.push(field.invalid(path, value, "may not be in the loopback range (127.0.0.0/8, ::1/128)"));
  if (isLinkLocalUnicast(ip)) errs.push(field.invalid(path, value, "may not be in the link-local range (169.254.0.0/16, fe80::/10)"));
  if (isLinkLocalMulticast(ip)) errs.push(field.invalid(path, value, "may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)"));
  return errs;
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
