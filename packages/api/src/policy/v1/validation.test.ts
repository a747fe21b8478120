/**
 * Upstream pkg/apis/policy/validation/validation_test.go: TestValidateMinAvailablePodDisruptionBudgetSpec,
 * TestValidateMinAvailablePodAndMaxUnavailableDisruptionBudgetSpec, TestValidateUnhealthyPodEvictionPolicyDisruptionBudgetSpec,
 * TestValidatePodDisruptionBudgetStatus, and metav1's TestValidateConditions rows that PDB status uses.
 */
import { describe, expect, it } from "vitest";
import { fieldErrorString } from "../../errors/field-error.ts";
import type { IntOrString } from "../../core/v1/service.ts";
import type { PodDisruptionBudgetStatus } from "./types.ts";
import {
  validatePodDisruptionBudgetCreate,
  validatePodDisruptionBudgetSpec,
  validatePodDisruptionBudgetStatusUpdate,
  validatePodDisruptionBudgetUpdate,
} from "./validation.ts";

const messages = (errs: ReturnType<typeof validatePodDisruptionBudgetSpec>): string[] => errs.map(fieldErrorString);

describe("TestValidateMinAvailablePodDisruptionBudgetSpec", () => {
  it.each<IntOrString>(["0%", "1%", "100%", 0, 1, 100])("accepts minAvailable and maxUnavailable %j", (v) => {
    expect(messages(validatePodDisruptionBudgetSpec({ minAvailable: v }, {}, "spec"))).toEqual([]);
    expect(messages(validatePodDisruptionBudgetSpec({ maxUnavailable: v }, {}, "spec"))).toEqual([]);
  });

  const pctMsg =
    "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";
  it.each<[IntOrString, string]>([
    ["1.1%", `spec.minAvailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"1.1%"}: ${pctMsg}`],
    ["nope", `spec.minAvailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"nope"}: ${pctMsg}`],
    ["-1%", `spec.minAvailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"-1%"}: ${pctMsg}`],
    ["101%", 'spec.minAvailable: Invalid value: "101%": must not be greater than 100%'],
    [-1, "spec.minAvailable: Invalid value: -1: must be greater than or equal to 0"],
  ])("rejects minAvailable %j", (v, want) => {
    expect(messages(validatePodDisruptionBudgetSpec({ minAvailable: v }, {}, "spec"))).toEqual([want]);
    expect(messages(validatePodDisruptionBudgetSpec({ maxUnavailable: v }, {}, "spec"))).toEqual([
      want.replace("spec.minAvailable", "spec.maxUnavailable"),
    ]);
  });
});

describe("TestValidateMinAvailablePodAndMaxUnavailableDisruptionBudgetSpec", () => {
  it("rejects both set", () => {
    expect(messages(validatePodDisruptionBudgetSpec({ minAvailable: "10%", maxUnavailable: 1 }, {}, "spec"))).toEqual([
      "spec: Invalid value: policy.PodDisruptionBudgetSpec{MinAvailable:(*intstr.IntOrString)(0xc000000000), Selector:(*v1.LabelSelector)(nil), MaxUnavailable:(*intstr.IntOrString)(0xc000000000), UnhealthyPodEvictionPolicy:(*policy.UnhealthyPodEvictionPolicyType)(nil)}: minAvailable and maxUnavailable cannot be both set",
    ]);
  });
});

describe("TestValidateUnhealthyPodEvictionPolicyDisruptionBudgetSpec", () => {
  it.each<[string | undefined, string[]]>([
    [undefined, []],
    ["IfHealthyBudget", []],
    ["AlwaysAllow", []],
    ["Invalid", ['spec.unhealthyPodEvictionPolicy: Unsupported value: "Invalid": supported values: "AlwaysAllow", "IfHealthyBudget"']],
  ])("policy %j", (policy, want) => {
    const spec = { minAvailable: "10%", ...(policy !== undefined ? { unhealthyPodEvictionPolicy: policy } : {}) };
    expect(messages(validatePodDisruptionBudgetSpec(spec, {}, "spec"))).toEqual(want);
  });
});

describe("selector and metadata", () => {
  it("validates the selector's label values unless the stored one already had a bad value", () => {
    const bad = {
      metadata: { name: "pdb", namespace: "ns", resourceVersion: "1" },
      spec: { selector: { matchExpressions: [{ key: "a", operator: "In", values: ["-bad-"] }] } },
    };
    expect(messages(validatePodDisruptionBudgetCreate(bad))).toHaveLength(1);
    expect(messages(validatePodDisruptionBudgetUpdate(bad, bad))).toEqual([]);
    const good = { ...bad, spec: { selector: { matchLabels: { a: "b" } } } };
    expect(messages(validatePodDisruptionBudgetUpdate(bad, good))).toHaveLength(1);
  });

  it("names are path segments, as rest.BeforeCreate checks them", () => {
    expect(messages(validatePodDisruptionBudgetCreate({ metadata: { name: "Upper_Case", namespace: "ns" }, spec: {} }))).toEqual([]);
    expect(messages(validatePodDisruptionBudgetCreate({ metadata: { name: "a/b", namespace: "ns" }, spec: {} }))).toEqual([
      "metadata.name: Invalid value: \"a/b\": may not contain '/'",
    ]);
  });
});

describe("TestValidatePodDisruptionBudgetStatus", () => {
  const status = (s: Partial<PodDisruptionBudgetStatus>): PodDisruptionBudgetStatus => ({
    disruptionsAllowed: 0,
    currentHealthy: 0,
    desiredHealthy: 0,
    expectedPods: 0,
    ...s,
  });
  it.each<[string, Partial<PodDisruptionBudgetStatus>, string[]]>([
    ["zero", {}, []],
    ["positive", { disruptionsAllowed: 10, currentHealthy: 5, desiredHealthy: 3, expectedPods: 2 }, []],
    [
      "negative disruptionsAllowed",
      { disruptionsAllowed: -10 },
      ["status.disruptionsAllowed: Invalid value: -10: must be greater than or equal to 0"],
    ],
    ["negative currentHealthy", { currentHealthy: -5 }, ["status.currentHealthy: Invalid value: -5: must be greater than or equal to 0"]],
    ["negative desiredHealthy", { desiredHealthy: -3 }, ["status.desiredHealthy: Invalid value: -3: must be greater than or equal to 0"]],
    ["negative expectedPods", { expectedPods: -2 }, ["status.expectedPods: Invalid value: -2: must be greater than or equal to 0"]],
    [
      "bad and duplicate conditions",
      {
        conditions: [
          { type: "DisruptionAllowed", status: "True", reason: "SufficientPods", message: "", lastTransitionTime: "2024-01-01T00:00:00Z" },
          { type: "DisruptionAllowed", status: "Maybe", reason: "", message: "", lastTransitionTime: null },
        ],
      },
      [
        'status.conditions[1].type: Duplicate value: "DisruptionAllowed"',
        'status.conditions[1].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"',
        "status.conditions[1].lastTransitionTime: Required value: must be set",
        "status.conditions[1].reason: Required value: must be set",
      ],
    ],
  ])("%s", (_name, s, want) => {
    expect(messages(validatePodDisruptionBudgetStatusUpdate(status(s), status({})))).toEqual(want);
  });
});
