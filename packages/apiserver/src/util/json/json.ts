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

const enum C {
  Tab = 0x09,
  LF = 0x0a,
  CR = 0x0d,
  Space = 0x20,
  Quote = 0x22,
  Plus = 0x2b,
  Comma = 0x2c,
  Minus = 0x2d,
  Dot = 0x2e,
  Zero = 0x30,
  Nine = 0x39,
  Colon = 0x3a,
  E = 0x45,
  LBracket = 0x5b,
  Backslash = 0x5c,
  RBracket = 0x5d,
  LowerE = 0x65,
  LBrace = 0x7b,
  RBrace = 0x7d,
}

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
    for (let c = t.charCodeAt(i); c === C.Space || c === C.LF || c === C.CR || c === C.Tab; c = t.charCodeAt(++i));
    this.#i = i;
  }

  #value(): unknown {
    this.#ws();
    const c = this.#t.charCodeAt(this.#i);
    if (c === C.LBrace) return this.#object();
    if (c === C.LBracket) return this.#array();
    if (c === C.Quote) return this.#string();
    if (c === C.Minus || (c >= C.Zero && c <= C.Nine)) return this.#number();
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
    if (this.#t.charCodeAt(this.#i) === C.RBrace) {
      this.#i++;
      return out;
    }
    for (;;) {
      this.#ws();
      if (this.#t.charCodeAt(this.#i) !== C.Quote) this.#fail();
      const key = this.#string();
      this.#ws();
      if (this.#t.charCodeAt(this.#i++) !== C.Colon) this.#fail();
      const v = this.#value();
      // JSON.parse makes "__proto__" an own member; an assignment would set the prototype.
      if (key === "__proto__") Object.defineProperty(out, key, { value: v, writable: true, enumerable: true, configurable: true });
      else out[key] = v;
      this.#ws();
      const c = this.#t.charCodeAt(this.#i++);
      if (c === C.RBrace) return out;
      if (c !== C.Comma) this.#fail();
    }
  }

  #array(): unknown[] {
    const out: unknown[] = [];
    this.#i++;
    this.#ws();
    if (this.#t.charCodeAt(this.#i) === C.RBracket) {
      this.#i++;
      return out;
    }
    for (;;) {
      out.push(this.#value());
      this.#ws();
      const c = this.#t.charCodeAt(this.#i++);
      if (c === C.RBracket) return out;
      if (c !== C.Comma) this.#fail();
    }
  }

  #string(): string {
    const t = this.#t;
    const start = this.#i;
    let escaped = false;
    let i = start + 1;
    for (;;) {
      const c = t.charCodeAt(i);
      if (Number.isNaN(c) || c < C.Space) this.#fail();
      if (c === C.Quote) break;
      if (c === C.Backslash) {
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
    if (t.charCodeAt(i) === C.Minus) i++;
    const first = t.charCodeAt(i);
    if (first === C.Zero) i++;
    else if (first > C.Zero && first <= C.Nine) i = this.#digits(i);
    else this.#fail();
    let integer = true;
    if (t.charCodeAt(i) === C.Dot) {
      integer = false;
      i = this.#digits(i + 1, true);
    }
    const e = t.charCodeAt(i);
    if (e === C.E || e === C.LowerE) {
      integer = false;
      i++;
      const sign = t.charCodeAt(i);
      if (sign === C.Plus || sign === C.Minus) i++;
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
    for (let c = t.charCodeAt(i); c >= C.Zero && c <= C.Nine; c = t.charCodeAt(++i));
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
