/** Go's strings.TrimSpace over a header value's bytes (node's latin1 strings). */
import { describe, expect, it } from "vitest";
import { trimHeaderSpace } from "./trim-space.ts";

const wire = (...parts: (string | number[])[]): string =>
  parts.map((p) => (typeof p === "string" ? Buffer.from(p, "utf8") : Buffer.from(p)).toString("latin1")).join("");

describe("trimHeaderSpace", () => {
  it.each([
    [wire("  x  "), wire("x")],
    [wire([0xc2, 0xa0], "x", [0xc2, 0x85]), wire("x")],
    [wire([0xa0], "x", [0xa0]), wire([0xa0], "x", [0xa0])],
    [wire("x", [0xe2, 0x80, 0x8a, 0xe2, 0x80, 0x8b]), wire("x", [0xe2, 0x80, 0x8a, 0xe2, 0x80, 0x8b])],
    [wire("x", [0xe2, 0x80, 0x8b, 0xe2, 0x80, 0x8a]), wire("x", [0xe2, 0x80, 0x8b])],
  ])("%j trims to %j", (input, want) => {
    expect(trimHeaderSpace(input)).toBe(want);
  });
});
