/** encoding/base64 StdEncoding.Decode's CorruptInputError offsets. */
import { describe, expect, it } from "vitest";
import { base64DecodeError } from "./go-base64.ts";

describe("base64DecodeError", () => {
  it.each<[string, number | undefined]>([
    // TestDecodeCorrupt's rows (encoding/base64/base64_test.go).
    ["", undefined],
    ["\n", undefined],
    ["AAA=\n", undefined],
    ["AAAA\n", undefined],
    ["!!!!", 0],
    ["====", 0],
    ["x===", 1],
    ["=AAA", 0],
    ["A=AA", 1],
    ["AA=A", 2],
    ["AA==A", 4],
    ["AAA=AAAA", 4],
    ["AAAAA", 4],
    ["AAAAAA", 4],
    ["A=", 1],
    ["A==", 1],
    ["AA=", 3],
    ["AA==", undefined],
    ["AAA=", undefined],
    ["AAAA", undefined],
    ["AAAAAA=", 7],
    ["YWJjZA=====", 8],
    ["A!\n", 1],
    ["A=\n", 1],
    // Beyond them: CR and LF inside a quantum, non-zero trailing bits (not Strict), no padding, non-ASCII.
    ["AA\r\n==", undefined],
    ["AB==", undefined],
    ["AP7/", undefined],
    ["AA", 0],
    ["é", 0],
  ])("%j", (input, at) => expect(base64DecodeError(input)).toBe(at === undefined ? undefined : `illegal base64 data at input byte ${at}`));
});
