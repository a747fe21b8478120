/**
 * JSON with lossless integers, as k8s.io/apimachinery/pkg/util/json decodes unstructured objects
 * (json.go `UnmarshalCaseSensitivePreserveInts`, `convertMapNumbers`/`convertNumber`): a number
 * written as an integer that fits int64 is an int64, every other number a float64.
 *
 * In JavaScript a float64 is a `number`; an int64 is a `number` too when JSON.stringify writes that
 * number back as the same digits (every safe integer, and larger ones such as 2^60 or
 * 1234567890123456800), and a `bigint` otherwise (9223372036854775807, which a double would turn
 * into 9223372036854775808). So every int64 keeps its digits through parse and
 * {@link stringifyJSON}, objects that hold no such integer are exactly what JSON.parse gives, and
 * a bigint is always an int64 that no double holds.
 */

export { stringifyJSON } from "./stringify.ts";

const minInt64 = -(2n ** 63n);
const maxInt64 = 2n ** 63n - 1n;

/**
 * Fewest digits of an integer a double cannot hold exactly (2^53 + 1 has 16): text without such a
 * digit run is left to JSON.parse.
 */
const longDigits = /\d{16}/;

/** True when `text` may hold an integer JSON.parse would round (a run of 16 or more digits). */
export function mayHoldLargeInts(text: string): boolean {
  return longDigits.test(text);
}

/**
 * JSON.parse with int64s kept (see above). Text without a 16-digit run takes
 * JSON.parse itself; invalid text throws JSON.parse's own SyntaxError either way.
 */
export function parseJSON(text: string): unknown {
  if (!mayHoldLargeInts(text)) return JSON.parse(text);
  let value: unknown;
  try {
    value = new Parser(text).parse();
  } catch (e) {
    if (!(e instanceof SyntaxError)) throw e;
    // JSON.parse words the error (the callers translate its messages); it must throw too.
    JSON.parse(text);
    throw e;
  }
  return value;
}

/**
 * util/json convertNumber for one integer literal (digits with an optional minus sign): the
 * number JSON.parse gives when JSON.stringify writes it back unchanged or int64 does not hold it
 * (then it is a float64 in Go as well), the bigint otherwise.
 */
export function integerValue(literal: string): number | bigint {
  const n = Number(literal);
  if (Number.isSafeInteger(n) || String(n) === literal) return n;
  const b = BigInt(literal);
  return b < minInt64 || b > maxInt64 ? n : b;
}

/** A bigint as the value stands for it: the number when one holds it exactly as written. */
export function normalizeInt(b: bigint): number | bigint {
  return b < minInt64 || b > maxInt64 ? Number(b) : integerValue(String(b));
}

/**
 * `value` with every bigint in it (a YAML parser's `intAsBigInt` integers) replaced in place by
 * {@link normalizeInt}'s value, so that it holds integers as {@link parseJSON} holds them.
 */
export function normalizeInts(value: unknown): unknown {
  if (typeof value === "bigint") return normalizeInt(value);
  if (value === null || typeof value !== "object") return value;
  const o = value as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    const v = o[k];
    if (typeof v === "bigint") o[k] = normalizeInt(v);
    else if (v !== null && typeof v === "object") normalizeInts(v);
  }
  return value;
}

/** Character codes the parser looks at. */
const chTab = 0x09;
const chLF = 0x0a;
const chCR = 0x0d;
const chSpace = 0x20;
const chQuote = 0x22;
const chPlus = 0x2b;
const chComma = 0x2c;
const chMinus = 0x2d;
const chDot = 0x2e;
const chZero = 0x30;
const chNine = 0x39;
const chColon = 0x3a;
const chE = 0x45;
const chLBracket = 0x5b;
const chBackslash = 0x5c;
const chRBracket = 0x5d;
const chLowerE = 0x65;
const chLBrace = 0x7b;
const chRBrace = 0x7d;

/** A recursive-descent JSON parser (RFC 8259, as JSON.parse accepts it) over one string. */
class Parser {
  #i = 0;
  readonly #t: string;

  constructor(text: string) {
    this.#t = text;
  }

  parse(): unknown {
    const v = this.#value();
    this.#ws();
    if (this.#i < this.#t.length) this.#fail();
    return v;
  }

  #fail(): never {
    throw new SyntaxError(`invalid JSON at position ${this.#i}`);
  }

  #ws(): void {
    const t = this.#t;
    let i = this.#i;
    for (let c = t.charCodeAt(i); c === chSpace || c === chLF || c === chCR || c === chTab; c = t.charCodeAt(++i));
    this.#i = i;
  }

  #value(): unknown {
    this.#ws();
    const c = this.#t.charCodeAt(this.#i);
    if (c === chLBrace) return this.#object();
    if (c === chLBracket) return this.#array();
    if (c === chQuote) return this.#string();
    if (c === chMinus || (c >= chZero && c <= chNine)) return this.#number();
    for (const [word, v] of literals) {
      if (this.#t.startsWith(word, this.#i)) {
        this.#i += word.length;
        return v;
      }
    }
    return this.#fail();
  }

  #object(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.#i++;
    this.#ws();
    if (this.#t.charCodeAt(this.#i) === chRBrace) {
      this.#i++;
      return out;
    }
    for (;;) {
      this.#ws();
      if (this.#t.charCodeAt(this.#i) !== chQuote) this.#fail();
      const key = this.#string();
      this.#ws();
      if (this.#t.charCodeAt(this.#i++) !== chColon) this.#fail();
      const v = this.#value();
      // JSON.parse makes "__proto__" an own member; an assignment would set the prototype.
      if (key === "__proto__") Object.defineProperty(out, key, { value: v, writable: true, enumerable: true, configurable: true });
      else out[key] = v;
      this.#ws();
      const c = this.#t.charCodeAt(this.#i++);
      if (c === chRBrace) return out;
      if (c !== chComma) this.#fail();
    }
  }

  #array(): unknown[] {
    const out: unknown[] = [];
    this.#i++;
    this.#ws();
    if (this.#t.charCodeAt(this.#i) === chRBracket) {
      this.#i++;
      return out;
    }
    for (;;) {
      out.push(this.#value());
      this.#ws();
      const c = this.#t.charCodeAt(this.#i++);
      if (c === chRBracket) return out;
      if (c !== chComma) this.#fail();
    }
  }

  #string(): string {
    const t = this.#t;
    const start = this.#i;
    let escaped = false;
    let i = start + 1;
    for (;;) {
      const c = t.charCodeAt(i);
      if (Number.isNaN(c) || c < chSpace) this.#fail();
      if (c === chQuote) break;
      if (c === chBackslash) {
        escaped = true;
        i++;
      }
      i++;
    }
    this.#i = i + 1;
    // Escapes (and their errors) are JSON.parse's own.
    return escaped ? (JSON.parse(t.slice(start, i + 1)) as string) : t.slice(start + 1, i);
  }

  #number(): number | bigint {
    const t = this.#t;
    const start = this.#i;
    let i = start;
    if (t.charCodeAt(i) === chMinus) i++;
    const first = t.charCodeAt(i);
    if (first === chZero) i++;
    else if (first > chZero && first <= chNine) i = this.#digits(i);
    else this.#fail();
    let integer = true;
    if (t.charCodeAt(i) === chDot) {
      integer = false;
      i = this.#digits(i + 1, true);
    }
    const e = t.charCodeAt(i);
    if (e === chE || e === chLowerE) {
      integer = false;
      i++;
      const sign = t.charCodeAt(i);
      if (sign === chPlus || sign === chMinus) i++;
      i = this.#digits(i, true);
    }
    this.#i = i;
    const literal = t.slice(start, i);
    return integer ? integerValue(literal) : Number(literal);
  }

  /** The end of the digit run at `i`; with `required`, at least one digit must be there. */
  #digits(i: number, required = false): number {
    const t = this.#t;
    const from = i;
    for (let c = t.charCodeAt(i); c >= chZero && c <= chNine; c = t.charCodeAt(++i));
    if (required && i === from) {
      this.#i = i;
      this.#fail();
    }
    return i;
  }
}

const literals: readonly [string, unknown][] = [
  ["true", true],
  ["false", false],
  ["null", null],
];
