/** `ValidateNonSpecialIP` / `ValidateEndpointIP`: no unspecified, loopback or link-local addresses. */
import { field, type FieldErrorList } from "../../../errors/index.ts";
import { cidrContains, parseCIDR, parseIPSloppy, type CIDR, type IP } from "../../../net/index.ts";

function cidr(s: string): CIDR {
  const c = parseCIDR(s);
  if (c === null) throw new Error(`bad built-in CIDR ${s}`);
  return c;
}

const loopback = [cidr("127.0.0.0/8"), cidr("::1/128")];
const linkLocalUnicast = [cidr("169.254.0.0/16"), cidr("fe80::/10")];
const linkLocalMulticastV4 = cidr("224.0.0.0/24");

function within(list: readonly CIDR[], ip: IP): boolean {
  return list.some((c) => c.family === ip.family && cidrContains(c, ip));
}

/** Go's `IsLinkLocalMulticast`: 224.0.0.0/24, or ffX2::/16 for IPv6 (any flags nibble). */
function isLinkLocalMulticast(ip: IP): boolean {
  if (ip.family === "IPv4") return cidrContains(linkLocalMulticastV4, ip);
  return ((ip.value >> 112n) & 0xff0fn) === 0xff02n;
}

/**
 * Rejects addresses that make no sense as endpoints or external IPs, with
 * upstream's messages. Errors are at `path` and quote the input as given.
 */
export function validateNonSpecialIP(ipAddress: string, path: string): FieldErrorList {
  const ip = parseIPSloppy(ipAddress);
  if (ip === null) return [field.invalid(path, ipAddress, "must be a valid IP address")];
  const errs: FieldErrorList = [];
  if (ip.value === 0n) errs.push(field.invalid(path, ipAddress, `may not be unspecified (${ipAddress})`));
  if (within(loopback, ip)) errs.push(field.invalid(path, ipAddress, "may not be in the loopback range (127.0.0.0/8, ::1/128)"));
  if (within(linkLocalUnicast, ip))
    errs.push(field.invalid(path, ipAddress, "may not be in the link-local range (169.254.0.0/16, fe80::/10)"));
  if (isLinkLocalMulticast(ip))
    errs.push(field.invalid(path, ipAddress, "may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)"));
  return errs;
}

/** Upstream's newer name for the same check on Endpoints addresses. */
export const validateEndpointIP = validateNonSpecialIP;
