/**
 * What Go's `json.Unmarshal(b, &map[string]interface{}{})` reports for `b` (encoding/json
 * scanner.go `checkValid`, then decode.go's UnmarshalTypeError), for the docker config secrets'
 * validation, which puts the error text in the field error.
 */
import { goQuote } from "../../../errors/go-quote.ts";

const unexpectedEnd = "unexpected end of JSON input";

/** scanner.go quoteChar: the character as strconv.Quote writes it, in single quotes. */
function quoteChar(c: string): string {
  if (c === "'") return `'\\''`;
  if (c === '"') return `'"'`;
  return `'${goQuote(c).slice(1, -1)}'`;
}

const invalid = (c: string, context: string): Error => new Error(`invalid character ${quoteChar(c)} ${context}`);
const isSpace = (c: string | undefined): boolean => c === " " || c === "\t" || c === "\r" || c === "\n";
const isDigit = (c: string | undefined): boolean => c !== undefined && c >= "0" && c <= "9";
const isHex = (c: string): boolean => /^[0-9a-fA-F]$/.test(c);

/** A recursive-descent walk with the scanner's error for each state; returns the value's kind. */
class Scanner {
  i = 0;
  readonly s: string;
  constructor(s: string) {
    this.s = s;
  }

  private next(): string {
    if (this.i >= this.s.length) throw new Error(unexpectedEnd);
    return this.s[this.i++]!;
  }

  private skipSpace(): void {
    while (isSpace(this.s[this.i])) this.i++;
  }

  value(): string {
    this.skipSpace();
    const c = this.next();
    if (c === "{") return this.object();
    if (c === "[") return this.array();
    if (c === '"') return (this.string(), "string");
    if (c === "-" || isDigit(c)) return (this.number(c), "number");
    for (const lit of ["true", "false", "null"]) if (c === lit[0]) return (this.literal(lit), lit === "null" ? "null" : "bool");
    throw invalid(c, "looking for beginning of value");
  }

  private literal(lit: string): void {
    for (const want of lit.slice(1)) {
      const c = this.next();
      if (c !== want) throw invalid(c, `in literal ${lit} (expecting ${quoteChar(want)})`);
    }
  }

  private object(): string {
    this.skipSpace();
    if (this.s[this.i] === "}") return (this.i++, "object");
    for (;;) {
      this.skipSpace();
      const q = this.next();
      if (q !== '"') throw invalid(q, "looking for beginning of object key string");
      this.string();
      this.skipSpace();
      const colon = this.next();
      if (colon !== ":") throw invalid(colon, "after object key");
      this.value();
      this.skipSpace();
      const c = this.next();
      if (c === "}") return "object";
      if (c !== ",") throw invalid(c, "after object key:value pair");
    }
  }

  private array(): string {
    this.skipSpace();
    if (this.s[this.i] === "]") return (this.i++, "array");
    for (;;) {
      this.value();
      this.skipSpace();
      const c = this.next();
      if (c === "]") return "array";
      if (c !== ",") throw invalid(c, "after array element");
    }
  }

  private string(): void {
    for (;;) {
      const c = this.next();
      if (c === '"') return;
      if (c < " ") throw invalid(c, "in string literal");
      if (c !== "\\") continue;
      const e = this.next();
      if (e === "u") {
        for (let k = 0; k < 4; k++) {
          const h = this.next();
          if (!isHex(h)) throw invalid(h, "in \\u hexadecimal character escape");
        }
      } else if (!'"\\/bfnrt'.includes(e)) throw invalid(e, "in string escape code");
    }
  }

  private number(first: string): void {
    let c: string | undefined = first;
    if (c === "-") {
      c = this.next();
      if (!isDigit(c)) throw invalid(c, "in numeric literal");
    }
    if (c !== "0") while (isDigit(this.s[this.i])) this.i++;
    if (this.s[this.i] === ".") {
      this.i++;
      const d = this.next();
      if (!isDigit(d)) throw invalid(d, "after decimal point in numeric literal");
      while (isDigit(this.s[this.i])) this.i++;
    }
    if (this.s[this.i] === "e" || this.s[this.i] === "E") {
      this.i++;
      let d = this.next();
      if (d === "+" || d === "-") d = this.next();
      if (!isDigit(d)) throw invalid(d, "in exponent of numeric literal");
      while (isDigit(this.s[this.i])) this.i++;
    }
  }

  /** The whole input: one value and trailing space only. */
  top(): string {
    const kind = this.value();
    this.skipSpace();
    if (this.i < this.s.length) throw invalid(this.s[this.i]!, "after top-level value");
    return kind;
  }
}

/** The error text of `json.Unmarshal(bytes, &map[string]interface{}{})`, or undefined when it succeeds. */
export function goUnmarshalMapError(bytes: Uint8Array): string | undefined {
  // Go reads bytes; a character outside ASCII only ever appears here inside strings or as an error.
  const text = new TextDecoder().decode(bytes);
  let kind: string;
  try {
    kind = new Scanner(text).top();
  } catch (e) {
    return (e as Error).message;
  }
  if (kind === "object" || kind === "null") return undefined;
  return `json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`;
}
