/**
 * SHA-256 (FIPS 180-4) of an ASCII string in plain JS. Why not node:crypto: a sync hashes ~110k
 * short chain names, and for 60-100 byte inputs the per-call cost of `crypto.hash` (string
 * encoding, a C++ call, a Buffer per digest) is 2-2.5x that of this loop, which allocates nothing.
 * Non-ASCII input (never in Kubernetes names or IPs) goes to node:crypto, which hashes UTF-8.
 */
import * as crypto from "node:crypto";

const K = Int32Array.from([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be,
  0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa,
  0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85,
  0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3,
  0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f,
  0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const H0 = Int32Array.from([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
const W = new Int32Array(64);
const H = new Int32Array(8);
const digest = new Uint8Array(32);

function isASCII(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** Message byte `p` of the padded message: the string, 0x80, zeros (the length goes in by word). */
function byteAt(s: string, p: number): number {
  return p < s.length ? s.charCodeAt(p) : p === s.length ? 0x80 : 0;
}

function compress(): void {
  for (let i = 16; i < 64; i++) {
    const x = W[i - 15]!;
    const y = W[i - 2]!;
    const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
    const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
    W[i] = (W[i - 16]! + s0 + W[i - 7]! + s1) | 0;
  }
  let a = H[0]!,
    b = H[1]!,
    c = H[2]!,
    d = H[3]!,
    e = H[4]!,
    f = H[5]!,
    g = H[6]!,
    h = H[7]!;
  for (let i = 0; i < 64; i++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + S1 + ((e & f) ^ (~e & g)) + K[i]! + W[i]!) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  H[0] = (H[0]! + a) | 0;
  H[1] = (H[1]! + b) | 0;
  H[2] = (H[2]! + c) | 0;
  H[3] = (H[3]! + d) | 0;
  H[4] = (H[4]! + e) | 0;
  H[5] = (H[5]! + f) | 0;
  H[6] = (H[6]! + g) | 0;
  H[7] = (H[7]! + h) | 0;
}

/**
 * sha256 of `s` (UTF-8). The returned bytes are a shared buffer, valid until the next call:
 * callers encode them at once.
 */
export function sha256(s: string): Uint8Array {
  if (!isASCII(s)) return crypto.createHash("sha256").update(s, "utf8").digest();
  H.set(H0);
  const n = s.length;
  const blocks = ((n + 8) >> 6) + 1;
  for (let blk = 0; blk < blocks; blk++) {
    const base = blk * 64;
    for (let i = 0; i < 16; i++) {
      const p = base + 4 * i;
      W[i] = (byteAt(s, p) << 24) | (byteAt(s, p + 1) << 16) | (byteAt(s, p + 2) << 8) | byteAt(s, p + 3);
    }
    if (blk === blocks - 1) {
      W[14] = n >>> 29; // message length in bits, big-endian 64-bit
      W[15] = n << 3;
    }
    compress();
  }
  for (let i = 0; i < 8; i++) {
    const v = H[i]!;
    digest[4 * i] = v >>> 24;
    digest[4 * i + 1] = v >>> 16;
    digest[4 * i + 2] = v >>> 8;
    digest[4 * i + 3] = v;
  }
  return digest;
}
