/**
 * Seeded randomness and the hostile building blocks the fuzz combines: strings (unicode edge
 * cases, injections, huge), names (slashes, dots, `..`, percent-escapes), values of the wrong
 * type, deep nesting, huge arrays, and raw-text tricks JSON.stringify cannot produce (duplicate
 * keys, `__proto__`, lone surrogates, number overflow).
 */

/** mulberry32: small, fast and the same sequence for the same seed on every machine. */
export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  /** A float in [0, 1). */
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

/** Strings that break naive code: control characters, surrogates, direction overrides, injections. */
export const hostileStrings: readonly string[] = [
  "",
  " ",
  "\u0000",
  "\ud800",
  "\udfff\ud800",
  "\ufeff",
  "\u202e\u0644\u0627",
  "e\u0301".repeat(50),
  "💥".repeat(30),
  "\r\n\t\u000b",
  "../../../../etc/passwd",
  "%2e%2e%2f",
  "${jndi:ldap://127.0.0.1/x}",
  "<script>alert(1)</script>",
  "'; DROP TABLE kine; --",
  "{{ .Values }}",
  "null",
  "true",
  "1e400",
  "-0",
  "NaN",
  "a".repeat(63),
  "a".repeat(64),
  "a".repeat(253),
  "a".repeat(254),
  "a".repeat(70_000),
];

/** Object names upstream rejects (or must treat as opaque): path tricks and invalid DNS names. */
export const hostileNames: readonly string[] = [
  "..",
  ".",
  "a/b",
  "a%2Fb",
  "%2e%2e",
  "%2E",
  "%00",
  "%ZZ",
  "%",
  "UPPER",
  "-lead",
  "trail-",
  "a..b",
  "a_b",
  "%C3%A9",
  "%F0%9F%92%A5",
  "%ED%A0%80",
  "x".repeat(254),
  "x".repeat(4000),
  "a%20b",
  "%0d%0aX-Injected:%201",
  "~",
  "default",
];

/** Values of every JSON type, including the ones that overflow Go's int32/int64. */
export function hostileValue(rng: Rng, depth = 0): unknown {
  switch (rng.int(depth > 2 ? 9 : 11)) {
    case 0:
      return rng.pick(hostileStrings.slice(0, 25));
    case 1:
      return rng.pick([0, -1, 1.5, 2147483648, -2147483649, 9007199254740993, 1e308, -1e-308, 65536, 0x7fffffff]);
    case 2:
      return rng.chance(0.5);
    case 3:
      return null;
    case 4:
      return [];
    case 5:
      return {};
    case 6:
      return "x".repeat(rng.pick([1, 100, 5000]));
    case 7:
      return rng.pick(["10.0.0.1", "::1", "fd00::/8", "300.1.1.1", "::ffff:10.0.0.1", "0.0.0.0/0", "1.2.3.4/33"]);
    case 8:
      return rng.pick(["TCP", "UDP", "SCTP", "ICMP", "IPv4", "IPv6", "IPv5", "ClusterIP", "RequireDualStack", "Bogus"]);
    case 9:
      return Array.from({ length: rng.int(4) }, () => hostileValue(rng, depth + 1));
    default: {
      const o: Record<string, unknown> = {};
      for (let i = rng.int(4); i > 0; i--)
        o[rng.pick(["a", "name", "port", "spec", "metadata", "ip", "$patch", "$retainKeys", "constructor", "toString"])] = hostileValue(
          rng,
          depth + 1,
        );
      return o;
    }
  }
}

/** `depth` nested arrays or objects as text (bounded by the caller). */
export function deepNesting(rng: Rng, depth: number): string {
  if (rng.chance(0.5)) return "[".repeat(depth) + "]".repeat(depth);
  return '{"a":'.repeat(depth) + "1" + "}".repeat(depth);
}

/** A JSON array of `n` small values as text (n up to ~1M stays under the 3 MiB body limit). */
export function hugeArray(n: number): string {
  return `[${Array.from({ length: n }, (_, i) => i % 10).join(",")}]`;
}

/** Text-level tricks applied to a JSON object text (`{...}`). */
export function rawTrick(rng: Rng, text: string): string {
  const inner = text.slice(1);
  switch (rng.int(8)) {
    case 0:
      return `{"metadata":{"name":"dup-1"},"metadata":{"name":"dup-2"},${inner}`;
    case 1:
      return `{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}},${inner}`;
    case 2:
      return `{"x":"\\ud800\\udbff\\u0000",${inner}`;
    case 3:
      return `{"n":1e99999,"m":-1e99999,"k":123456789012345678901234567890,${inner}`;
    case 4:
      return `\ufeff${text}`;
    case 5:
      return `${text}${text}`;
    case 6:
      return `${text} trailing garbage`;
    default:
      return text.replace(/"/g, "'");
  }
}

/** Bytes that are not UTF-8 (overlong encodings, lone continuation bytes) around a JSON object. */
export function invalidUTF8(text: string): Buffer {
  return Buffer.concat([Buffer.from([0xc0, 0xaf, 0xed, 0xa0, 0x80, 0xff, 0xfe]), Buffer.from(text), Buffer.from([0x80, 0xbf])]);
}

/** Protobuf-looking garbage: the `k8s\0` magic followed by random or truncated fields. */
export function protobufGarbage(rng: Rng): Buffer {
  const magic = Buffer.from([0x6b, 0x38, 0x73, 0x00]);
  const tail = Buffer.alloc(rng.int(200));
  for (let i = 0; i < tail.length; i++) tail[i] = rng.int(256);
  const variants = [
    Buffer.concat([magic, tail]),
    Buffer.concat([magic, Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f])]),
    Buffer.concat([magic, Buffer.from([0x12, 0x05, 0x0a, 0x03, 0x61])]),
    Buffer.concat([
      magic,
      Buffer.from([0x0a, 0x02, 0x76, 0x31, 0x12, 0x07]),
      Buffer.from("Service"),
      Buffer.from([0x1a, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01]),
    ]),
    tail,
  ];
  return rng.pick(variants);
}

/** YAML that a naive parser mishandles: alias bombs (bounded), tags, merge keys, tabs. */
export function hostileYAML(rng: Rng): string {
  return rng.pick([
    'a: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n',
    "apiVersion: v1\nkind: Service\nmetadata: !!python/object/apply:os.system ['true']\n",
    "<<: {kind: Pod}\napiVersion: v1\nkind: Service\n",
    "apiVersion: v1\n\tkind: Service\n",
    "--- \n...\n---\n",
    "? [a, b]\n: c\n",
    "a: !!binary AAAA\nb: !!timestamp 2001-13-45\n",
    "metadata: {name: *undefined}\n",
  ]);
}
