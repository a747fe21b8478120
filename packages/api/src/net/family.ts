/**
 * IP families, as `k8s.io/api/core/v1.IPFamily` names them.
 *
 * IPv4 and IPv6 are always distinct: an IPv4 address is never modelled as an
 * IPv4-mapped IPv6 address (KEP-1880 gotcha), so two families never overlap.
 */

/** The two IP families Kubernetes knows. */
export const ipFamilies = ["IPv4", "IPv6"] as const;

/** `"IPv4"` or `"IPv6"`. */
export type IPFamily = (typeof ipFamilies)[number];

/** An address: its family and its value as an unsigned integer (< 2^32 for IPv4, < 2^128 for IPv6). */
export interface IP {
  readonly family: IPFamily;
  readonly value: bigint;
}

/** Number of bits in an address of `family` (32 or 128). */
export function familyBits(family: IPFamily): number {
  return family === "IPv4" ? 32 : 128;
}

/** The largest address value of `family` plus one (2^32 or 2^128). */
export function familyLimit(family: IPFamily): bigint {
  return 1n << BigInt(familyBits(family));
}

/** True if `value` is one of the two family names. */
export function isIPFamily(value: unknown): value is IPFamily {
  return value === "IPv4" || value === "IPv6";
}

/**
 * Builds an IP, checking that `value` fits the family.
 * @throws RangeError if the value is negative or too large for the family.
 */
export function makeIP(family: IPFamily, value: bigint): IP {
  if (value < 0n || value >= familyLimit(family)) {
    throw new RangeError(`value ${value} is out of range for ${family}`);
  }
  return { family, value };
}
