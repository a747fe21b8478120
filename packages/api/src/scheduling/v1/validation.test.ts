/** Tables of pkg/apis/scheduling/validation/validation_test.go TestValidatePriorityClass and TestValidatePriorityClassUpdate. */
import { describe, expect, it } from "vitest";
import { systemClusterCritical, systemPriorityClasses, type PriorityClass } from "./types.ts";
import { validatePriorityClass, validatePriorityClassUpdate } from "./validation.ts";

const pc = (name: string, value: number, extra: Partial<PriorityClass> = {}): PriorityClass => ({ metadata: { name }, value, ...extra });
const msgs = (errs: { type: string; field: string; detail: string }[]) => errs.map((e) => `${e.type} ${e.field}: ${e.detail}`);

describe("TestValidatePriorityClass", () => {
  it.each([
    ["no error", pc("tier1", 100, { description: "Used for the highest priority pods." })],
    ["system node critical", systemPriorityClasses()[0]!],
    ["system cluster critical", systemPriorityClasses()[1]!],
    ["Never", pc("tier1", 100, { preemptionPolicy: "Never" })],
  ])("success: %s", (_n, c) => expect(validatePriorityClass(c)).toEqual([]));

  it.each([
    ["missing name", pc("", 100), ["Required metadata.name: name or generateName is required"]],
    ["invalid name", pc("tier&1", 100), undefined],
    [
      "incorrect system class name",
      pc("system-something", 100),
      [
        "Forbidden metadata.name: priority class names with 'system-' prefix are reserved for system use only. error: system-something is not a known system priority class",
      ],
    ],
    [
      "wrong system class value",
      pc(systemClusterCritical, 100),
      [
        "Forbidden metadata.name: priority class names with 'system-' prefix are reserved for system use only. error: value of system-cluster-critical PriorityClass must be 2000000000",
      ],
    ],
    [
      "user value above the ceiling",
      pc("tier1", 1_000_000_001),
      ["Forbidden value: maximum allowed value of a user defined priority is 1000000000"],
    ],
    [
      "invalid preemptionPolicy",
      pc("tier1", 100, { preemptionPolicy: "foo" }),
      ['NotSupported preemptionPolicy: supported values: "PreemptLowerPriority", "Never"'],
    ],
  ])("error: %s", (_n, c, want) => {
    const errs = validatePriorityClass(c);
    expect(errs.length).toBeGreaterThan(0);
    if (want) expect(msgs(errs)).toEqual(want);
  });
});

describe("TestValidatePriorityClassUpdate", () => {
  const old = pc("tier1", 100, { metadata: { name: "tier1", resourceVersion: "1" }, preemptionPolicy: "PreemptLowerPriority" });
  it("changing description and globalDefault is fine", () => {
    expect(validatePriorityClassUpdate({ ...old, description: "x", globalDefault: true }, old)).toEqual([]);
  });
  it("value may not change", () => {
    expect(msgs(validatePriorityClassUpdate({ ...old, value: 101 }, old))).toEqual(["Forbidden value: may not be changed in an update."]);
  });
  it("preemptionPolicy is immutable", () => {
    expect(msgs(validatePriorityClassUpdate({ ...old, preemptionPolicy: "Never" }, old))).toEqual([
      "Invalid preemptionPolicy: field is immutable",
    ]);
  });
});
