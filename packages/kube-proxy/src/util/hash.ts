/** Hashing helpers for chain names, as upstream builds them from sha256 and RFC 4648 base32. */
import { sha256 } from "./sha256.ts";

const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** `base32.StdEncoding.EncodeToString` (RFC 4648 alphabet, `=` padding). */
export function base32(bytes: Uint8Array): string {
  let out = encode(bytes, bytes.length);
  while (out.length % 8 !== 0) out += "=";
  return out;
}

function encode(bytes: Uint8Array, n: number): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (let i = 0; i < n; i++) {
    value = ((value << 8) | (bytes[i] ?? 0)) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}

/**
 * The first `chars` characters of base32(sha256(s)). Only the bytes those
 * characters cover are encoded (16 characters = 10 bytes exactly), which gives
 * the same prefix as encoding the whole digest and truncating.
 */
export function sha256Base32Prefix(s: string, chars: number): string {
  return encode(sha256(s), Math.ceil((chars * 5) / 8)).slice(0, chars);
}

/** base32(sha256(s)) in full. */
export function sha256Base32(s: string): string {
  return base32(sha256(s));
}

/** `net.JoinHostPort`: brackets around IPv6 addresses. */
export function joinHostPort(ip: string, port: number): string {
  // Flat (join) rather than a cons-string tree: every endpoint keeps this string across syncs.
  return ip.includes(":") ? ["[", ip, "]:", port].join("") : [ip, port].join(":");
}
