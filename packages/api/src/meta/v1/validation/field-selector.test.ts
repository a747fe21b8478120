// After apimachinery pkg/apis/meta/v1/validation/validation_test.go (field and label selector requirements).
import { describe, expect, it } from "vitest";
import { fieldErrorString, type FieldErrorList } from "../../../errors/index.ts";
import { validateFieldSelectorRequirement } from "./field-selector.ts";
import { validateLabelSelectorRequirement } from "./label-selector.ts";

const render = (errs: FieldErrorList) => errs.map(fieldErrorString);

describe("validateFieldSelectorRequirement", () => {
  it.each<[string, { key: string; operator: string; values?: string[] }, boolean, string[]]>([
    ["In with a value", { key: "spec.nodeName", operator: "In", values: ["n1"] }, false, []],
    ["no key", { key: "", operator: "Exists" }, false, ["r.key: Required value: must be specified"]],
    [
      "In without values",
      { key: "a", operator: "In" },
      false,
      ["r.values: Required value: must be specified when `operator` is 'In' or 'NotIn'"],
    ],
    [
      "Exists with values",
      { key: "a", operator: "Exists", values: ["x"] },
      false,
      ["r.values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'"],
    ],
    ["unknown operator", { key: "a", operator: "Gt" }, false, ['r.operator: Invalid value: "Gt": not a valid selector operator']],
    ["unknown operator allowed", { key: "a", operator: "Gt" }, true, []],
  ])("%s", (_name, req, allowUnknown, want) => {
    expect(render(validateFieldSelectorRequirement(req, { allowUnknownOperatorInRequirement: allowUnknown }, "r"))).toEqual(want);
  });
});

describe("validateLabelSelectorRequirement with allowUnknownOperatorInRequirement", () => {
  it("lets an unknown operator pass, still checks the key and values", () => {
    const errs = validateLabelSelectorRequirement(
      { key: "a b", operator: "Gt", values: ["-x"] },
      { allowUnknownOperatorInRequirement: true },
      "r",
    );
    expect(render(errs).map((m) => m.split(":")[0])).toEqual(["r.key", "r.values[0]"]);
    expect(render(validateLabelSelectorRequirement({ key: "a", operator: "Gt" }, {}, "r"))).toEqual([
      'r.operator: Invalid value: "Gt": not a valid selector operator',
    ]);
  });
});
