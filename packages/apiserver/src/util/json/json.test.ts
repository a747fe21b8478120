import { describe, expect, it } from "vitest";
import { integerValue, normalizeInt, normalizeInts, parseJSON, stringifyJSON } from "./json.ts";

/** Text of 16+ digits somewhere, so that parseJSON takes its own parser rather than JSON.parse. */
const slow = (text: string): string => (/\d{16}/.test(text) ? text : `[${text},"1234567890123456"]`);

describe("parseJSON", () => {
  // Valid JSON: the parser must give what JSON.parse gives (when no int64 beyond a double is in it).
  const valid = [
    "0",
    "-0",
    "1",
    "-1",
    "1.5",
    "-1.5e3",
    "1E+2",
    "1e-2",
    "0.0",
    "123456789",
    "true",
    "false",
    "null",
    '""',
    '"a"',
    '"\\u00e9\\n\\t\\"\\\\\\/"',
    '"\\ud83d\\ude00"',
    '"\\ud800"',
    '"é😀"',
    "[]",
    "{}",
    " [ 1 , 2 ] ",
    '\t\n\r{"a" : 1}\n',
    '{"a":{"b":[1,{"c":null}]}}',
    '{"a":1,"a":2}',
    '{"a":1,"b":2,"a":3}',
    '{"2":1,"1":2,"b":3}',
    '{"__proto__":{"x":1}}',
    '{"constructor":1,"toString":2}',
    "[[[[[]]]]]",
    "9007199254740991",
    "-9007199254740991",
    "9007199254740992",
    "1234567890123456800",
    "18446744073709551615",
    "-9223372036854775809",
    "1e400",
    "1234567890123456.5",
    '"12345678901234567890"',
  ];
  it.each(valid)("parses %s as JSON.parse does", (text) => {
    expect(parseJSON(slow(text))).toStrictEqual(JSON.parse(slow(text)));
  });

  it("keeps __proto__ as an own member, as JSON.parse does", () => {
    const v = parseJSON('{"__proto__":{"polluted":1},"n":1234567890123456789}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.keys(v)).toEqual(["__proto__", "n"]);
    expect((v as { polluted?: unknown }).polluted).toBeUndefined();
  });

  const invalid = [
    "",
    " ",
    "[",
    "]",
    "{",
    '{"a"}',
    '{"a":}',
    '{"a":1,}',
    "[1,]",
    "[,1]",
    "01",
    "-",
    "-a",
    "1.",
    ".5",
    "1e",
    "1e+",
    "+1",
    "0x10",
    "NaN",
    "Infinity",
    "tru",
    "truex",
    "nul",
    '"abc',
    '"\\x"',
    '"\\u12"',
    '"a\nb"',
    '"\t"',
    "{'a':1}",
    "{a:1}",
    "[1 2]",
    '{"a":1 "b":2}',
    "1 2",
    "[1]]",
    "\u00a0 1",
    "// c\n1",
  ];
  it.each(invalid)("refuses %j with JSON.parse's error", (text) => {
    const t = slow(text);
    let want: unknown;
    try {
      JSON.parse(t);
    } catch (e) {
      want = e;
    }
    expect(want).toBeInstanceOf(SyntaxError);
    expect(() => parseJSON(t)).toThrow((want as Error).message);
  });

  // util/json TestEvaluateTypes: int64 extremes are int64, what int64 does not hold float64.
  it.each([
    ["9223372036854775807", 9223372036854775807n],
    ["-9223372036854775808", -9223372036854775808n],
    ["9223372036854775806", 9223372036854775806n],
    ["9007199254740993", 9007199254740993n],
    ["-9007199254740993", -9007199254740993n],
    ["1234567890123456789", 1234567890123456789n],
    ["9223372036854775808", 9223372036854775808],
    ["-9223372036854775809", -9223372036854775809],
    ["10000000000000000000", 1e19],
    ["9223372036854775807.0", 9223372036854775807],
    ["9223372036854775807e0", 9223372036854775807],
    ["9007199254740992", 9007199254740992],
    ["1152921504606846976", 1152921504606846976n],
    ["1152921504606847000", 2 ** 60],
  ])("reads %s as %s", (text, want) => {
    expect(parseJSON(text)).toStrictEqual(want);
    expect((parseJSON(`{"a":[${text}]}`) as { a: unknown[] }).a[0]).toStrictEqual(want);
  });

  it("agrees with JSON.parse on random JSON texts, valid or not (fuzz)", () => {
    let seed = 0x2545f491;
    const rand = (n: number): number => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return (seed >>> 0) % n;
    };
    const atoms = ["0", "-1", "1.5e-7", "true", "false", "null", '"x"', '"\\u0041\\n"', "1e999", "7", '"😀"'];
    const gen = (depth: number): string => {
      const k = rand(depth > 4 ? 2 : 5);
      if (k === 0) return atoms[rand(atoms.length)]!;
      if (k === 1) return String(rand(2) ? "-" : "") + String(rand(9) + 1) + "0123456789".repeat(1 + rand(2)).slice(0, 10 + rand(12));
      if (k === 2) return `[${Array.from({ length: rand(4) }, () => gen(depth + 1)).join(",")}]`;
      return `{${Array.from({ length: rand(4) }, () => `"${"abc"[rand(3)]}" : ${gen(depth + 1)}`).join(",")}}`;
    };
    const mutate = (t: string): string => {
      const at = rand(t.length + 1);
      const junk = ['"', ",", "]", "}", "{", "[", ":", " ", "-", ".", "e", "0", "\\", "x", "\n", ""];
      return rand(2) ? t.slice(0, at) + junk[rand(junk.length)]! + t.slice(at) : t.slice(0, at) + t.slice(at + 1);
    };
    for (let n = 0; n < 3000; n++) {
      let t = slow(gen(0));
      if (rand(2)) t = mutate(t);
      let want: unknown;
      let err: string | undefined;
      try {
        want = JSON.parse(t);
      } catch (e) {
        err = (e as Error).message;
      }
      if (err !== undefined) expect(() => parseJSON(t), t).toThrow(err);
      else expect(asNumbers(parseJSON(t)), t).toStrictEqual(want);
    }
  });
});

/** `v` with each bigint as the double JSON.parse makes of its digits. */
function asNumbers(v: unknown): unknown {
  if (typeof v === "bigint") return Number(v);
  if (Array.isArray(v)) return v.map(asNumbers);
  if (v === null || typeof v !== "object") return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v))
    Object.defineProperty(out, k, {
      value: asNumbers((v as Record<string, unknown>)[k]),
      writable: true,
      enumerable: true,
      configurable: true,
    });
  return out;
}

describe("integerValue", () => {
  it("keeps a number when JSON.stringify writes it back as written, a bigint when it does not", () => {
    expect(integerValue("1234567890123456800")).toBe(1234567890123456800);
    expect(integerValue("1234567890123456801")).toBe(1234567890123456801n);
    expect(integerValue("-0")).toBe(-0);
  });
  it("normalizeInt turns a bigint a double holds as written into that number", () => {
    expect(normalizeInt(5n)).toBe(5);
    expect(normalizeInt(1152921504606847000n)).toBe(2 ** 60);
    expect(normalizeInt(2n ** 60n)).toBe(2n ** 60n);
    expect(normalizeInt(2n ** 63n - 1n)).toBe(2n ** 63n - 1n);
    expect(normalizeInt(2n ** 64n)).toBe(2 ** 64);
  });
});

describe("stringifyJSON", () => {
  it("writes int64s as their digits, the rest as JSON.stringify", () => {
    const v = { a: 9223372036854775807n, b: [-9223372036854775808n, undefined, () => 1], c: undefined, d: 1.5, e: "x", f: null };
    expect(stringifyJSON(v)).toBe('{"a":9223372036854775807,"b":[-9223372036854775808,null,null],"d":1.5,"e":"x","f":null}');
    expect(stringifyJSON({ t: new Date(0), n: 1n })).toBe('{"t":"1970-01-01T00:00:00.000Z","n":1}');
    expect(stringifyJSON({ a: 1 })).toBe('{"a":1}');
  });
  it("round-trips through parseJSON", () => {
    const text = '{"num":{"num1":9223372036854775807,"num2":1000000,"neg":-9223372036854775808,"big":1e+21,"f":1.5}}';
    expect(stringifyJSON(parseJSON(text))).toBe(text);
  });
  it("still throws on cycles", () => {
    const o: Record<string, unknown> = { n: 1n };
    o["self"] = o;
    expect(() => stringifyJSON(o)).toThrow();
  });
});

describe("normalizeInts", () => {
  it("turns a YAML parser's bigints into what parseJSON gives", () => {
    const v = { a: [5n, 9223372036854775807n, { b: 2n ** 64n }], c: 1.5, d: "x" };
    expect(normalizeInts(v)).toStrictEqual({ a: [5, 9223372036854775807n, { b: 2 ** 64 }], c: 1.5, d: "x" });
  });
});
