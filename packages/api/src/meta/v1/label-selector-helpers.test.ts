import { describe, expect, it } from "vitest";
import { labelSelectorAsSelector, selectorFromSet } from "./label-selector-helpers.ts";
import type { LabelSelector } from "./label-selector.ts";

// apimachinery helpers_test.go TestLabelSelectorAsSelector: the selector each case yields, checked
// on label sets that tell them apart.
describe("TestLabelSelectorAsSelector", () => {
  const matchLabels = { foo: "bar" };
  const matchExpressions = [{ key: "baz", operator: "In", values: ["qux", "norf"] }];
  const sets: Record<string, string>[] = [{}, { foo: "bar" }, { baz: "qux" }, { foo: "bar", baz: "norf" }, { foo: "bar", baz: "x" }];
  it.each<[string, LabelSelector | null, boolean[]]>([
    ["nil: labels.Nothing()", null, [false, false, false, false, false]],
    ["empty: labels.Everything()", {}, [true, true, true, true, true]],
    ["foo=bar", { matchLabels }, [false, true, false, true, true]],
    ["baz in (norf,qux)", { matchExpressions }, [false, false, true, true, false]],
    ["baz in (norf,qux),foo=bar", { matchLabels, matchExpressions }, [false, false, false, true, false]],
    [
      "NotIn and DoesNotExist",
      {
        matchExpressions: [
          { key: "baz", operator: "NotIn", values: ["qux"] },
          { key: "a", operator: "DoesNotExist" },
        ],
      },
      [true, true, false, true, true],
    ],
  ])("%s", (_name, sel, want) => {
    const m = labelSelectorAsSelector(sel);
    expect(sets.map((l) => m(l))).toEqual(want);
  });

  it.each<[string, LabelSelector, string]>([
    ["Exists with values", { matchExpressions: [{ key: "baz", operator: "Exists", values: ["qux", "norf"] }] }, "values set must be empty"],
    ["In without values", { matchExpressions: [{ key: "baz", operator: "In", values: [] }] }, "values set can't be empty"],
    [
      "unknown operator",
      { matchExpressions: [{ key: "baz", operator: "Gt", values: ["1"] }] },
      `"Gt" is not a valid label selector operator`,
    ],
  ])("errors: %s", (_name, sel, msg) => {
    expect(() => labelSelectorAsSelector(sel)).toThrow(msg);
  });
});

// apimachinery labels_test.go TestSetMatches / TestNilMapIsValid: a set selects the label sets
// holding each of its pairs; a nil or empty set selects everything.
describe("selectorFromSet", () => {
  const labelset = { foo: "bar", baz: "blah" };
  it.each<[string, Record<string, string> | undefined, boolean]>([
    ["nil", undefined, true],
    ["empty", {}, true],
    ["foo=bar", { foo: "bar" }, true],
    ["foo=bar,baz=blah", { foo: "bar", baz: "blah" }, true],
    ["foo=blah", { foo: "blah" }, false],
    ["foo=bar,baz=bar", { foo: "bar", baz: "bar" }, false],
    ["missing key", { other: "bar" }, false],
  ])("%s", (_name, set, want) => {
    expect(selectorFromSet(set)(labelset)).toBe(want);
  });

  it("matches nil labels only when empty", () => {
    expect(selectorFromSet({})(undefined)).toBe(true);
    expect(selectorFromSet({ foo: "bar" })(undefined)).toBe(false);
  });
});
