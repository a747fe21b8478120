import { describe, expect, it } from "vitest";
import { goFloat, goSharpV } from "./go-format.ts";

describe("goFloat (fmt %v of a float64)", () => {
  it.each([
    [10, "10"],
    [1.5, "1.5"],
    [100000, "100000"],
    [1000000, "1e+06"],
    [1234567, "1.234567e+06"],
    [0.0001, "0.0001"],
    [0.00001, "1e-05"],
    [-2.5, "-2.5"],
    [0, "0"],
  ])("%s prints as %s", (f, want) => {
    expect(goFloat(f)).toBe(want);
  });
});

describe("goSharpV (fmt %#v of unstructured values)", () => {
  it.each([
    [{ name: "a" }, 'map[string]interface {}{"name":"a"}'],
    [{ b: 1, a: "x" }, 'map[string]interface {}{"a":"x", "b":1}'],
    [[1, "x"], '[]interface {}{1, "x"}'],
    [null, "interface {}(nil)"],
  ])("%j prints as %s", (v, want) => {
    expect(goSharpV(v)).toBe(want);
  });
});
