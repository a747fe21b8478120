import { describe, expect, it } from "vitest";
import { parseInt64, queryBool, queryInt64 } from "./query-conversion.ts";

const q = (s: string) => new URLSearchParams(s);

// Upstream's TestStringMapConversion (apimachinery/pkg/runtime/conversion_test.go) and the
// Convert_Slice_string_To_bool cases, as a client writes them in a query string.
describe("queryBool (Convert_Slice_string_To_Pointer_bool)", () => {
  it.each([
    ["bool=true", true],
    ["bool=True", true],
    ["bool=TRUE", true],
    ["bool=1", true],
    ["bool=foo", true], // parses boolean any value
    ["bool=", true], // parses boolean empty value
    ["bool", true],
    ["bool=t", true], // strconv.ParseBool's short form is no false here
    ["bool=f", true],
    ["bool=false", false],
    ["bool=False", false],
    ["bool=FALSE", false],
    ["bool=fAlSe", false],
    ["bool=0", false],
    ["bool=00", true],
    ["bool=false&bool=true", false], // the first value wins
    ["bool=true&bool=false", true],
    ["other=true", undefined], // parses boolean no value
  ])("%s is %s", (query, want) => {
    expect(queryBool(q(query), "bool")).toBe(want);
  });
});

describe("queryInt64 (Convert_Slice_string_To_Pointer_int64, strconv.ParseInt)", () => {
  it.each([
    ["int64=-1", -1n], // parses int64
    ["int64=0", 0n],
    ["int64=%2B5", 5n],
    ["int64=007", 7n],
    ["int64=9223372036854775807", 9223372036854775807n],
    ["int64=-9223372036854775808", -9223372036854775808n],
    ["int64=3&int64=x", 3n],
    ["other=1", undefined],
  ])("%s is %s", (query, want) => {
    expect(queryInt64(q(query), "int64")).toBe(want);
  });

  it.each([
    ["int64=a", 'strconv.ParseInt: parsing "a": invalid syntax'], // returns error on bad int64
    ["int64=", 'strconv.ParseInt: parsing "": invalid syntax'],
    ["int64=1.5", 'strconv.ParseInt: parsing "1.5": invalid syntax'],
    ["int64=1e3", 'strconv.ParseInt: parsing "1e3": invalid syntax'],
    ["int64=1_000", 'strconv.ParseInt: parsing "1_000": invalid syntax'],
    ["int64=0x10", 'strconv.ParseInt: parsing "0x10": invalid syntax'],
    ["int64=%2B", 'strconv.ParseInt: parsing "+": invalid syntax'],
    ["int64=%201", 'strconv.ParseInt: parsing " 1": invalid syntax'],
    ["int64=9223372036854775808", 'strconv.ParseInt: parsing "9223372036854775808": value out of range'],
    ["int64=-9223372036854775809", 'strconv.ParseInt: parsing "-9223372036854775809": value out of range'],
    ["int64=x&int64=3", 'strconv.ParseInt: parsing "x": invalid syntax'],
  ])("%s is a 400: %s", (query, message) => {
    let err: unknown;
    try {
      queryInt64(q(query), "int64");
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ status: { code: 400, reason: "BadRequest", message } });
  });

  it("judges a number by its text, beyond 2^53", () => {
    expect(parseInt64("9007199254740993")).toBe(9007199254740993n);
  });
});
