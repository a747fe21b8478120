/** Hashing helpers for chain names, as upstream builds them from sha256 and RFC 4648 base32. */
import { createHash } from "node:crypto";

const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** `base32.StdEncoding.EncodeToString` (RFC 4648 alphabet, `=` padding). */
export function base32(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const b of bytes) {
    value = ((value << 8) | b) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  while (out.length % 8 !== 0) out += "=";
  return out;
}

/** base32(sha256(s)): the encoded digest both backends truncate into chain names. */
export function sha256Base32(s: string): string {
  return base32(createHash("sha256").update(s).digest());
}

/** `net.JoinHostPort`: brackets around IPv6 addresses. */
export function joinHostPort(ip: string, port: number): string {
  return ip.includes(":") ? `[${ip}]:${port}` : `${ip}:${port}`;
}
