/** IP and CIDR parsing, formatting, arithmetic and validation, as Kubernetes does them (BigInt throughout). */
export { ipFamilies, familyBits, familyLimit, isIPFamily, makeIP } from "./family.ts";
export type { IP, IPFamily } from "./family.ts";
export { parseIP, parseIPSloppy } from "./parse-ip.ts";
export { formatIP, isCanonicalIP, ipToBytes, ipFromBytes } from "./format-ip.ts";
export { parseCIDR, parseCIDRSloppy, formatCIDR, isCanonicalCIDR, cidrBits } from "./parse-cidr.ts";
export type { CIDR } from "./parse-cidr.ts";
export {
  cidrSize,
  cidrContains,
  containsIP,
  prefixContainsIP,
  cidrContainsCIDR,
  cidrsOverlap,
  addressAt,
  indexOf,
  lastAddress,
  broadcastAddress,
  addIP,
  compareIPs,
  ipEqual,
} from "./cidr-math.ts";
export {
  ipFamilyOfString,
  isIPv4String,
  isIPv6String,
  ipFamilyOfCIDRString,
  isIPv4CIDRString,
  isIPv6CIDRString,
  isDualStackIPStrings,
  isDualStackCIDRStrings,
} from "./family-of.ts";
export {
  invalidIPMessage,
  invalidCIDRMessage,
  invalidInterfaceAddressMessage,
  isValidIP,
  isValidIPForLegacyField,
  validateCanonicalIP,
  isValidCIDR,
  isValidCIDRForLegacyField,
  validateCanonicalCIDR,
  isValidInterfaceAddress,
} from "./validation.ts";
export { getWarningsForIP, getWarningsForCIDR } from "./warnings.ts";
