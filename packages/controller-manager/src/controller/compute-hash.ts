/**
 * `ComputeHash` of pkg/controller/controller_utils.go: the `pod-template-hash` a Deployment puts
 * on its ReplicaSets, fnv32a over the pod template and the collision count, printed in decimal and
 * encoded with apimachinery's `rand.SafeEncodeString`.
 *
 * Deliberate difference: upstream hashes go-spew's `%#v` dump of the Go `v1.PodTemplateSpec`
 * (`hashutil.DeepHashObject`), which depends on every field of the Go struct tree of the release;
 * here the input is the template's canonical JSON (keys sorted, empty values dropped). The value
 * differs from kube-controller-manager's, which nothing relies on: the new ReplicaSet is found by
 * comparing templates (`EqualIgnoreHash`), never by hash, as upstream does since 1.9.
 */
import type { PodTemplateSpec } from "@servicenet/api";

/** apimachinery/pkg/util/rand `alphanums`: no vowels (no bad words) and no look-alikes (0, 1, 3). */
const alphanums = "bcdfghjklmnpqrstvwxz2456789";

/** `rand.SafeEncodeString`: each byte of `s` mapped onto `alphanums`. */
export function safeEncodeString(s: string): string {
  let out = "";
  for (const b of Buffer.from(s, "utf8")) out += alphanums[b % alphanums.length];
  return out;
}

const fnvOffset32 = 0x811c9dc5;
const fnvPrime32 = 0x01000193;

/** hash/fnv `New32a`: FNV-1a over `bytes`, continuing from `h`. */
export function fnv32a(bytes: Uint8Array, h = fnvOffset32): number {
  let x = h;
  for (const b of bytes) x = Math.imul(x ^ b, fnvPrime32) >>> 0;
  return x >>> 0;
}

/** JSON with object keys sorted and undefined/null/empty values left out: the same template always prints the same. */
export function canonicalJSON(v: unknown): string {
  return JSON.stringify(canonical(v) ?? null);
}

function canonical(v: unknown): unknown {
  if (v === null || v === undefined) return undefined;
  if (Array.isArray(v)) {
    const items = v.map((x) => canonical(x) ?? null);
    return items.length === 0 ? undefined : items;
  }
  if (typeof v === "object") {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) {
      const c = canonical((v as Record<string, unknown>)[k]);
      if (c !== undefined) out[k] = c;
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  return v;
}

/**
 * `ComputeHash`: the hash of `template`, with `collisionCount` (when set) written after it as 8
 * little-endian bytes (a uint32 in the first four), as upstream does, so a bumped count gives a
 * new name after a collision.
 */
export function computeHash(template: PodTemplateSpec, collisionCount?: number): string {
  let h = fnv32a(Buffer.from(canonicalJSON(template), "utf8"));
  if (collisionCount !== undefined) {
    const b = Buffer.alloc(8);
    b.writeUInt32LE(collisionCount >>> 0, 0);
    h = fnv32a(b, h);
  }
  return safeEncodeString(String(h));
}
