import { describe, expect, it } from "vitest";
import { fieldErrorString } from "../../../errors/index.ts";
import { semanticEqual, validateImmutableField } from "./immutable.ts";

describe("semanticEqual", () => {
  it.each<[unknown, unknown, boolean]>([
    [undefined, [], true],
    [["a"], ["a"], true],
    [["a"], ["b"], false],
    [{ group: "", resource: "services" }, { resource: "services" }, true],
    [{ resource: "services" }, { resource: "pods" }, false],
    [undefined, { resource: "services" }, false],
    [{ a: { b: 1 } }, { a: { b: 1 } }, true],
    // A struct field's zero value written as {} equals the absent field.
    [{ name: "c", resources: {} }, { name: "c" }, true],
  ])("%j vs %j -> %s", (a, b, want) => {
    expect(semanticEqual(a, b)).toBe(want);
  });
});

describe("validateImmutableField", () => {
  it.each<[unknown, unknown, string[]]>([
    ["IPv4", "IPv4", []],
    ["IPv6", "IPv4", ['addressType: Invalid value: "IPv6": field is immutable']],
    [{ resource: "services", group: "" }, { resource: "services" }, []],
  ])("%j over %j", (next, old, want) => {
    expect(validateImmutableField(next, old, "addressType").map(fieldErrorString)).toEqual(want);
  });
});
